"""The held-out near-copy sets written before #34/#35's rule changes (nearcopy_heldout3.py,
nearcopy_heldout4.py and nearcopy_heldout_<language>.py) and the second per-language sets
(nearcopy_heldout2_<language>.py): their shape, that their projects are apart, and that every copied
helper is defined in its pinned project. The matcher is never run here: the sets are measured once
plugged into the near-copy test, never looked at case by case."""

from __future__ import annotations

import ast
import re
import zipfile
from types import ModuleType

import nearcopies
import nearcopy_heldout2_go
import nearcopy_heldout2_js
import nearcopy_heldout2_ts
import nearcopy_heldout3
import nearcopy_heldout4
import nearcopy_heldout_go
import nearcopy_heldout_java
import nearcopy_heldout_js
import nearcopy_heldout_rust
import nearcopy_heldout_ts
import pytest
import realprojects
from nearcopy_languages import as_file, name_of

from sidekit_hooks.code import functions
from testing import requires

PYTHON_SETS = [nearcopy_heldout3, nearcopy_heldout4]
LANGUAGE_SETS = [
    nearcopy_heldout_ts,
    nearcopy_heldout_js,
    nearcopy_heldout_go,
    nearcopy_heldout_rust,
    nearcopy_heldout_java,
]
# the second sets, written later by someone who never read the matcher, on projects of their own
SECOND_LANGUAGE_SETS = [nearcopy_heldout2_ts, nearcopy_heldout2_js, nearcopy_heldout2_go]
# how each language declares a function named NAME (to find the copied helper in the project's
# sources)
DECLARES = {
    "ts": r"\bfunction\s+{name}\s*[<(]",
    "js": r"\bfunction\s+{name}\s*\(",
    "go": r"(?m)^func\s+(?:\([^)]*\)\s*)?{name}\s*[\[(]",
    "rust": r"\bfn\s+{name}\s*[<(]",
    "java": r"\b(?:public|private|protected|static)\b[^;={{}}]*\b{name}\s*\(",
}


@pytest.mark.parametrize("module", PYTHON_SETS, ids=lambda module: module.__name__)
def test_python_set_is_big_enough_and_uses_packages_no_other_set_uses(module: ModuleType) -> None:
    copies, misses = module.COPIES, module.NEAR_MISSES
    assert len(copies) >= 40 and len(misses) >= 40
    assert all(case.helper for case in copies) and not any(case.helper for case in misses)
    assert {case.package for case in copies + misses} == set(module.PACKAGES)
    assert set(module.PACKAGES).isdisjoint(nearcopies.PACKAGES)
    others = [other for other in PYTHON_SETS if other is not module]
    assert all(set(module.PACKAGES).isdisjoint(other.PACKAGES) for other in others)
    assert len({case.name for case in copies + misses}) == len(copies + misses)
    assert all(functions.code_lines(case.source) >= functions.MIN_LINES for case in copies + misses)
    assert all(re.match(r"[\w./*-]+\.py: ", case.why) for case in copies), (
        "a copy's why starts with its path"
    )
    assert all(case.why.startswith("like ") for case in misses)


@pytest.mark.parametrize("module", LANGUAGE_SETS, ids=lambda module: module.LANGUAGE)
def test_language_set_is_big_enough_and_apart_from_the_code_index_projects(
    module: ModuleType,
) -> None:
    assert_language_set_shape(module, at_least=15)


@pytest.mark.parametrize("module", SECOND_LANGUAGE_SETS, ids=lambda module: module.LANGUAGE)
def test_second_language_set_is_big_enough_and_apart_from_every_other_project(
    module: ModuleType,
) -> None:
    assert_language_set_shape(module, at_least=25)
    others = [
        project
        for other in LANGUAGE_SETS + SECOND_LANGUAGE_SETS
        if other is not module
        for project in other.PROJECTS.values()
    ]
    taken = {
        package_of(project) for project in others + realprojects.TUNING + realprojects.HELD_OUT
    }
    assert taken.isdisjoint(package_of(project) for project in module.PROJECTS.values())
    if module.LANGUAGE == "go":
        assert set(module.GO_PACKAGES) == set(module.PROJECTS)


def package_of(project: realprojects.Project) -> str:
    """The package a project comes from, whatever its version (a Maven G:A:V keeps G:A)."""
    if project.registry == "maven":
        return project.coordinate.rpartition(":")[0]
    return project.coordinate.rpartition("@")[0]


def assert_language_set_shape(module: ModuleType, at_least: int) -> None:
    copies, misses, language = module.COPIES, module.NEAR_MISSES, module.LANGUAGE
    assert len(copies) >= at_least and len(misses) >= at_least
    assert all(case.helper for case in copies) and not any(case.helper for case in misses)
    assert {case.package for case in copies + misses} == set(module.PROJECTS)
    assert all(project.language == language for project in module.PROJECTS.values())
    used = {project.coordinate for project in realprojects.TUNING + realprojects.HELD_OUT}
    assert used.isdisjoint(project.coordinate for project in module.PROJECTS.values())
    assert len({name_of(case, language) for case in copies + misses}) == len(copies + misses)
    assert all(re.match(r"[\w./*-]+\.\w+: ", case.why) for case in copies), (
        "a copy's why starts with its path"
    )
    assert all(case.why.startswith("like ") for case in misses)


def test_go_and_java_cases_become_whole_files() -> None:
    case = nearcopy_heldout_go.COPIES[0]
    assert as_file(case, "go", nearcopy_heldout_go.GO_PACKAGES[case.package]).startswith(
        "package lo\n\nfunc Dedupe["
    )
    case = nearcopy_heldout_java.COPIES[0]
    text = as_file(case, "java", nearcopy_heldout_java.JAVA_PACKAGES[case.package])
    assert text.startswith(
        "package com.google.common.base;\n\nclass NearCopyAdded {\n    public static String "
        "leftPad("
    )
    assert text.endswith("    }\n}\n")


@pytest.mark.parametrize("module", PYTHON_SETS, ids=lambda module: module.__name__)
@pytest.mark.slow  # its projects come from the package registries (`--full`)
def test_every_python_copied_helper_is_defined_in_its_package(module: ModuleType) -> None:
    defined: dict[str, set[str]] = {}
    for package, (requirement, members) in module.PACKAGES.items():
        try:
            path = nearcopies.archive(requirement)
        except RuntimeError as exc:
            requires.missing(str(exc), "give this machine the package index")
        with zipfile.ZipFile(path) as wheel:
            trees = [ast.parse(wheel.read(member).decode("utf-8")) for member in members]
        defined[package] = {
            node.name
            for tree in trees
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
        }
    missing = [
        f"{case.package}.{case.helper}"
        for case in module.COPIES
        if case.helper not in defined[case.package]
    ]
    assert missing == []


@pytest.mark.parametrize(
    "module",
    LANGUAGE_SETS + SECOND_LANGUAGE_SETS,
    ids=lambda module: module.__name__.removeprefix("nearcopy_"),
)
@pytest.mark.slow  # its projects come from the package registries (`--full`)
def test_every_copied_helper_is_defined_in_its_project(module: ModuleType) -> None:
    texts: dict[str, str] = {}
    for label, project in module.PROJECTS.items():
        try:
            files = realprojects.sources(project)
        except (RuntimeError, OSError) as exc:
            requires.missing(
                str(exc), f"give this machine the {project.registry} registry and its client"
            )
        texts[label] = "\n".join(data.decode("utf-8", "replace") for data in files.values())
    pattern = DECLARES[module.LANGUAGE]
    missing = [
        f"{case.package}.{case.helper}"
        for case in module.COPIES
        if not re.search(pattern.format(name=re.escape(case.helper)), texts[case.package])
    ]
    assert missing == []
