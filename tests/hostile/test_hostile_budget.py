"""Bounded packs and scopes: lint-clean input must not time out every PostToolUse (#15, deliver
3)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from testing.hostile import cli, context_of, hook, log_text, payload, put, queue_dir

STARS = "/".join(["**"] * 24) + "/nomatch.py"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    return root


def deep_write(project: Path) -> dict[str, object]:
    path = project / "a" / "b" / "c" / "d" / "e" / "x.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n")
    return payload(
        "PostToolUse",
        project,
        tool_name="Write",
        tool_use_id="t1",
        tool_input={"file_path": str(path), "content": "x = 2\n"},
    )


def pack(project: Path, name: str, body: str) -> Path:
    folder = project / "sidecar_rules"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(f'[pack]\nname = "{name}"\n{body}')
    return path


def test_a_glob_of_24_double_stars_is_normalised_with_a_lint_warning_and_never_times_out_the_hook(
    project: Path,
) -> None:
    pack(
        project,
        "stars",
        f'[[rules]]\nid = "s.r"\nmessage = "m"\n[rules.when]\npaths = ["{STARS}"]\n',
    )
    lint = cli("rules", "lint", "--project", str(project), project=project)
    assert "warning: rules[0].when.paths[0]:" in lint.stdout
    assert (
        "consecutive ** segments; write '**/nomatch.py'" in lint.stdout
        and 'fix: write "**/nomatch.py"' in lint.stdout
    )
    put(queue_dir(project), "queued before", age=1)
    started = time.monotonic()
    done = hook("PostToolUse", deep_write(project), project)
    assert time.monotonic() - started < 5
    assert context_of(done.stdout) == "[from mayor] queued before"
    assert '"where":"deadline"' not in log_text(project)


def test_scope_set_collapses_double_stars_and_the_hook_stays_fast(project: Path) -> None:
    done = cli(
        "scope",
        "set",
        "--project",
        str(project),
        "--allow",
        "/".join(["**"] * 20) + "/keep/*.py",
        project=project,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["allow"] == ["**/keep/*.py"]
    assert "consecutive ** are one **" in done.stderr
    put(queue_dir(project), "queued before", age=1)
    started = time.monotonic()
    said = hook("PostToolUse", deep_write(project), project)
    assert time.monotonic() - started < 5
    assert context_of(said.stdout).startswith("[from mayor] queued before\n[sidecar:scope] ")
    assert '"where":"deadline"' not in log_text(project)


def test_lint_refuses_a_glob_too_costly_to_match(project: Path) -> None:
    glob = "/".join(f"**/d{i}" for i in range(12))
    pack(
        project,
        "costly",
        f'[[rules]]\nid = "c.r"\nmessage = "m"\n[rules.when]\npaths = ["{glob}"]\n',
    )
    lint = cli("rules", "lint", "--project", str(project), project=project)
    assert lint.returncode == 1
    assert "is too costly: 12 ** segments; a glob holds at most 8" in lint.stdout
    assert 'fix: name fewer folders, e.g. "src/**/*.py"' in lint.stdout


def test_scope_set_refuses_a_glob_too_costly_to_match(project: Path) -> None:
    glob = "/".join(f"**/d{i}" for i in range(12))
    done = cli("scope", "set", "--project", str(project), "--allow", glob, project=project)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (
        "costs too much on every tool call: 12 ** segments; a glob holds at most 8" in done.stderr
    )
    assert "fix: name the folder instead" in done.stderr


def big_pack(project: Path, name: str, seed: int) -> None:
    rng = random.Random(seed)
    blocks, size, index = [], 0, 0
    while True:
        regex = "|".join("".join(rng.choice("abcdefghij") for _ in range(12)) for _ in range(140))
        block = f'\n[[rules]]\nid = "{name}.r{index}"\nmessage = "m"\n[rules.when]\nadded = \'({regex})\'\n'
        if size + len(block) > 248 * 1024:
            break
        blocks.append(block)
        size += len(block)
        index += 1
    pack(project, name, "".join(blocks))


def test_four_big_packs_are_capped_and_the_hook_stops_timing_out(project: Path) -> None:
    for index in range(4):
        big_pack(project, f"big{index}", index)
    lint = cli("rules", "lint", "--project", str(project), project=project)
    assert lint.returncode == 1 and "the packs together are over 256 KB" in lint.stdout
    # The first event hands the big pack to a background compile; from then on every event is on
    # time.
    hook("PostToolUse", deep_write(project), project)
    snapshot = project / ".sidekit" / "rules-snapshot.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (
        snapshot.is_file() and json.loads(snapshot.read_text())["files"]
    ):
        time.sleep(0.2)
        hook("PostToolUse", deep_write(project), project)
    assert json.loads(snapshot.read_text())["files"], "the snapshot was never completed"
    assert len(json.loads(snapshot.read_text())["rules"]) > 100  # the first big pack is in force
    (project / ".sidekit" / "log" / "hooks.jsonl").unlink()
    put(queue_dir(project), "queued before", age=1)
    done = hook("PostToolUse", deep_write(project), project)
    assert context_of(done.stdout) == "[from mayor] queued before"
    log = log_text(project)
    assert '"where":"deadline"' not in log and "timeout:" not in log


def test_doctor_names_the_pack_when_a_hook_ran_out_of_time(project: Path) -> None:
    log = project / ".sidekit" / "log"
    log.mkdir(parents=True)
    (log / "hooks.jsonl").write_text(
        json.dumps(
            {
                "ts": time.time(),
                "hook": "PostToolUse",
                "where": "deadline",
                "culprit": "pack sidecar_rules/slow.toml rule slow.r1",
                "error": "hard deadline reached",
            }
        )
        + "\n"
    )
    done = cli("doctor", "--project", str(project), project=project)
    assert (
        "PROBLEM  hook deadline: 1 hook run ran out of time in the last 24 h; newest while running "
        "pack sidecar_rules/slow.toml rule slow.r1"
    ) in done.stdout
    assert (
        "fix: sidekit rules test sidecar_rules/slow.toml (it measures compile and match time)"
        in done.stdout
    )


def test_rules_test_measures_compile_and_match_time(project: Path) -> None:
    pack(project, "small", '[[rules]]\nid = "s.r"\nmessage = "m"\n[rules.when]\nadded = "x"\n')
    done = cli("rules", "test", "--project", str(project), "--format", "json", project=project)
    small = next(p for p in json.loads(done.stdout)["packs"] if p["pack"] == "small")
    assert isinstance(small["compileMs"], int) and isinstance(small["matchMs"], int)
