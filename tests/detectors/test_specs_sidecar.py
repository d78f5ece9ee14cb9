"""The specs sidecar: a pack's rule speaks as the sidecar it names, with that sidecar's rank."""

from __future__ import annotations

from pathlib import Path

from sidekit_hooks import detectors
from sidekit_hooks.detectors import specs
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import CONCRETE, UNRANKED, Context
from testing import rule_toml
from testing.acme import pack
from testing.hooks import write


def test_each_rule_ranks_as_the_sidecar_it_names(
    project: Path, clean_env: dict[str, str], user_rules: Path
) -> None:
    rules = "\n".join(
        rule_toml.rule(f"acme.{sidecar}", f"{sidecar} says so", sidecar=sidecar, added="TODO")
        for sidecar in ("specs", "tools", "acme")
    )
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "acme.toml").write_text(pack("acme", rules))
    event = parse_event("PostToolUse", write(project, "app.py", "x = 1  # TODO\n"), str(project))
    found = specs.DETECTOR.detect(event, Context(str(project), "sess-1", float("inf")))
    assert [(f.sidecar, f.kind, f.rank) for f in found] == [
        ("specs", CONCRETE, detectors.rank_of("specs")),
        ("tools", CONCRETE, detectors.rank_of("tools")),
        ("acme", CONCRETE, UNRANKED),  # a team's own sidecar: after every ranked one
    ]
