"""Validate pack files: the pydantic schema, then the checks the hook shares, then the project's
files.

Every problem names file, line and key path, says what is wrong and ends with the fix.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from sidekit_hooks.rules import compiler, locate, snapshot
from sidekit_hooks.rules.authoring import schema
from sidekit_hooks.rules.compiler import KeyPath, PackError, Problem

# Nested quantifiers such as (a+)+ or (\w*)* can backtrack for minutes on a short text.
NESTED_QUANTIFIER = r"\((?:[^()\\]|\\.)*[+*]\)[+*{]"


@dataclass
class Checked:
    """One pack file after linting: what it holds and what is wrong with it."""

    path: str
    display: str
    layer: str
    text: str = ""
    data: dict[str, Any] | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level == "warning"]

    def rendered(self) -> list[str]:
        lines = locate.lines_of(self.text) if self.text else {}
        ordered = sorted(
            self.problems, key=lambda p: (p.line or locate.line_of(lines, p.path), p.level)
        )
        return [compiler.render(p, self.display, self.text, lines) for p in ordered]


def check_file(path: str, project: str, layer: str) -> Checked:
    """Lint one pack. `see` targets are checked against the project for project and local packs."""
    checked = Checked(path, snapshot.display_path(path, project), layer)
    try:
        checked.text, checked.data = compiler.read_toml(path)
    except PackError as exc:
        checked.problems = exc.problems
        return checked
    except OSError as exc:
        checked.problems = [
            Problem(
                (),
                f"cannot read the pack ({exc.strerror or exc})",
                "check the path and its permissions",
            )
        ]
        return checked
    checked.problems = check_data(checked.data, project if layer in ("project", "local") else "")
    return checked


def check_data(data: dict[str, Any], project: str = "") -> list[Problem]:
    """Schema errors, else the shared semantic checks; unknown keys as warnings either way."""
    warnings = unknown_keys(data)
    try:
        schema.Pack.model_validate(data)
    except ValidationError as exc:
        return [from_pydantic(error) for error in exc.errors()] + warnings
    problems = compiler.semantic_problems(data) + warnings + regex_warnings(data)
    return problems + (see_problems(data, project) if project else [])


def from_pydantic(error: Any) -> Problem:
    """A pydantic error in the words the hook's own checks use."""
    path: KeyPath = tuple(error["loc"])
    kind, value = error["type"], error.get("input")
    if kind == "missing":
        return compiler.missing(path)
    expected = {
        "string_type": "a string",
        "bool_type": "true or false",
        "list_type": "an array",
        "model_type": "a table",
        "dict_type": "a table",
        "model_attributes_type": "a table",
    }.get(kind)
    if expected:
        return compiler.wrong_type(path, expected, value)
    key = str(path[-1])
    if kind == "literal_error":
        expected_text = str(error.get("ctx", {}).get("expected", "")).replace(" or ", ", ")
        choices = ", ".join(choice.strip("'\"") for choice in expected_text.split(", "))
        return Problem(
            path,
            f"expected one of {choices}, got {compiler.describe(value)}",
            f"write {key} = {compiler.example_for(path)}",
        )
    if kind == "string_too_short":
        return Problem(path, "is empty", f"write {key} = {compiler.example_for(path)}")
    return Problem(path, error["msg"], "see docs/rule-packs.md")


def unknown_keys(data: dict[str, Any]) -> list[Problem]:
    """Keys the schema does not know: kept (forward compatible) and reported as warnings."""
    found = _unknown(data, schema.Pack, ())
    if isinstance(data.get("pack"), dict):
        found += _unknown(data["pack"], schema.PackInfo, ("pack",))
    rules = data.get("rules")
    for index, rule in enumerate(rules if isinstance(rules, list) else []):
        if not isinstance(rule, dict):
            continue
        found += _unknown(rule, schema.Rule, ("rules", index))
        if isinstance(rule.get("when"), dict):
            found += _unknown(rule["when"], schema.When, ("rules", index, "when"))
        examples = rule.get("examples")
        for number, example in enumerate(examples if isinstance(examples, list) else []):
            if isinstance(example, dict):
                found += _unknown(example, schema.Example, ("rules", index, "examples", number))
    return found


def _unknown(table: dict[str, Any], model: type[BaseModel], at: KeyPath) -> list[Problem]:
    known = list(model.model_fields)
    problems = []
    for key in table:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f"did you mean {close[0]}?" if close else f"known keys here: {', '.join(known)}"
            problems.append(Problem(at + (key,), "unknown key (ignored)", hint, level="warning"))
    return problems


def regex_warnings(data: dict[str, Any]) -> list[Problem]:
    import re

    nested = re.compile(NESTED_QUANTIFIER)
    problems = []
    for index, rule in enumerate(data.get("rules", [])):
        for key in compiler.REGEX_KEYS:
            pattern = rule.get("when", {}).get(key)
            if isinstance(pattern, str) and nested.search(pattern):
                problems.append(
                    Problem(
                        ("rules", index, "when", key),
                        "nested quantifiers can backtrack for a very long time; "
                        "the hook gives up on this regex after 50 ms",
                        "rewrite without a repeated group of repeats, e.g. (ab)+ not (a+b?)+",
                        level="warning",
                    )
                )
    return problems


def see_problems(data: dict[str, Any], project: str) -> list[Problem]:
    """A `see` naming a project file that is not there (URLs and bare #anchors are not checked)."""
    problems = []
    for index, rule in enumerate(data.get("rules", [])):
        see = rule.get("see", "")
        target = see.partition("#")[0]
        if not target or "://" in target or target.startswith("mailto:"):
            continue
        if not os.path.exists(os.path.join(project, target)):
            problems.append(
                Problem(
                    ("rules", index, "see"),
                    f'"{target}" does not exist in the project',
                    f"create {target}, or point see at an existing project file (path#anchor) or "
                    "a URL",
                )
            )
    return problems


def targets(paths: list[str], project: str) -> list[tuple[str, str]]:
    """(layer, file) to check: every layer's packs, or the files (and folders of files) given."""
    if not paths:
        return snapshot.pack_files(project)
    found: list[tuple[str, str]] = []
    for given in paths:
        path = os.path.abspath(given)
        if os.path.isdir(path):
            found += [
                (layer_of(os.path.join(path, n), project), os.path.join(path, n))
                for n in sorted(os.listdir(path))
                if n.endswith(".toml")
            ]
        else:
            found.append((layer_of(path, project), path))
    return found


def layer_of(path: str, project: str) -> str:
    """The layer a pack file belongs to; a file elsewhere counts as the project's."""
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    for layer, directory in snapshot.layer_dirs(project):
        if os.path.realpath(directory) == folder:
            return layer
    return "project"
