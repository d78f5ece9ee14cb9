"""docs/rule-packs.md agrees with the schema, and its worked packs lint and test clean; so do the
built-ins."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sidekit_hooks.rules import compiler, snapshot
from sidekit_hooks.rules.authoring import docs, examples, lint, schema

DOC = Path(docs.DOC)
WORKED = [
    block
    for block in re.findall(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    if block.startswith("[pack]")
]


def test_the_reference_is_generated_from_the_schema() -> None:
    assert docs.render(DOC.read_text()) == DOC.read_text(), (
        "stale: run python -m sidekit_hooks.rules.authoring.docs"
    )


def test_a_schema_change_makes_the_doc_check_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        schema.When.model_fields["tools"], "description", "Changed in the schema only."
    )
    assert docs.render(DOC.read_text()) != DOC.read_text()
    assert docs.main(["--check"]) == 1


def test_there_are_three_worked_packs() -> None:
    names = [re.findall(r'name = "(.*)"', block)[:1] for block in WORKED]
    assert names == [["acme-api"], ["tooling"], ["mine"]]


@pytest.mark.parametrize("block", WORKED, ids=lambda b: b.split('"')[1])
def test_worked_pack_lints_and_its_examples_hold(tmp_path: Path, block: str) -> None:
    path = tmp_path / "pack.toml"
    path.write_text(block)
    checked = lint.check_file(str(path), str(tmp_path), "user")
    assert checked.rendered() == []
    assert_examples_hold(checked)


@pytest.mark.parametrize(
    "path", sorted(Path(snapshot.builtin_dir()).glob("*.toml")), ids=lambda p: p.name
)
def test_builtin_pack_has_a_positive_and_a_negative_example_per_rule(path: Path) -> None:
    checked = lint.check_file(str(path), "", "builtin")
    assert checked.rendered() == []
    assert checked.data is not None
    for rule in checked.data["rules"]:
        assert {e["fires"] for e in rule.get("examples", [])} == {True, False}, rule["id"]
    assert_examples_hold(checked)


def assert_examples_hold(checked: lint.Checked) -> None:
    assert checked.data is not None
    compiled = compiler.compile_pack(
        checked.data, {"file": checked.display, "layer": checked.layer}
    )["rules"]
    outcomes = [
        (rule["id"], example["fires"], examples.fires(rule, example))
        for raw, rule in zip(checked.data["rules"], compiled, strict=False)
        for example in raw.get("examples", [])
    ]
    assert outcomes and all(expected == got for _, expected, got in outcomes), outcomes


def test_the_builtin_packs_ship_inside_the_package() -> None:
    """pyproject finds packages with `include = ["sidekit_hooks*"]`; the packs' folder must be one
    of them (its *.toml files then go into the wheel as package data), and the repo-top
    sidecar_rules/ is that folder."""
    from setuptools import find_namespace_packages

    repo = Path(snapshot.builtin_dir()).parent.parent
    assert "sidekit_hooks.sidecar_rules" in find_namespace_packages(
        str(repo), include=["sidekit_hooks*"]
    )
    assert (repo / "sidecar_rules").resolve() == Path(snapshot.builtin_dir()).resolve()
    assert "starter.toml" in {p.name for p in (repo / "sidecar_rules").glob("*.toml")}
