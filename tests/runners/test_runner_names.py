"""Each runner's knowledge stays in its folder and the registry (runners/__init__.py): the rest of
the package asks the adapters, never a runner by name. A runner's name spelled in code elsewhere (a
string constant equal to it, or a string naming it in a comparison: `"go test" in command`) fails
here."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from sidekit_hooks import runners
from testing.parsed import parsed

PACKAGE = Path(runners.__file__).resolve().parents[1]
REGISTRY_FILES = (
    "runners/__init__.py",
    "runners/words.py",
)  # the registry, and its words on the lowest floor
# The words of each runner folder beyond the registry's names: the programs its runs start.
PROGRAMS = {"mvn": "junit", "gradle": "junit", "dotnet": "dotnet"}
# What may stay, and why: (file, constant) pairs, each one reasoned.
ALLOWED = {
    # the Go language of the code index (a file's language tag, its import syntax), not the go
    # runner
    ("code/languages/__init__.py", "go"),
    ("code/languages/go.py", "go"),
    ("code/languages/importers.py", "go"),
    ("rules/authoring/learn_languages.py", "go"),  # Go the language, whose conventions it learns
    # Go the language of the tools sidecar's helper copies and hand-written waits (the index's
    # language id)
    ("code/language_copies.py", "go"),
    ("code/languages/behaviour.py", "go"),
    ("detectors/tools/reinvention.py", "go"),
    ("detectors/tools/waits.py", "go"),
    # the pytest plugin's record (status/record.py is what runners/pytest/plugin.py saves through):
    # "pytest" is its runner's name and the key of pytest's version in the cache summary (a public
    # field)
    ("status/record.py", "pytest"),
    # the runner of a cache summary that names none: the first one, written before runners were
    # named
    ("status/vocabulary.py", "pytest"),
    # the key of the raw-pytest hint's findings (rule `tools.raw-pytest`, counted by `sidekit
    # report`)
    ("detectors/tools/__init__.py", "tools:pytest"),
}


def folder_of() -> dict[str, str]:
    """Each runner word -> the folder under runners/ that may spell it (its adapter's folder)."""
    owners = {name: module.split(".")[2] for name, module in runners.REGISTRY.items()}
    return {**owners, **PROGRAMS}


def named_in(text: str, words: dict[str, str]) -> list[str]:
    """The runner words `text` holds as words (`node:internal`, a frame's scheme, is not the
    runner)."""
    return [word for word in words if re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w:-])", text)]


def spelled(tree: ast.AST, words: dict[str, str]) -> list[tuple[int, str, str]]:
    """(line, word, constant) for each runner word the code spells: a string constant equal to it
    (not a docstring), or a string that names it among the operands of a comparison or a
    startswith/endswith."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    compared: set[int] = set()
    for node in ast.walk(tree):
        operands: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            operands = list(node.args) if node.func.attr in ("startswith", "endswith") else []
        compared |= {id(inner) for operand in operands for inner in ast.walk(operand)}
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if (
            not isinstance(node, ast.Constant)
            or not isinstance(node.value, str)
            or id(node) in docstrings
        ):
            continue
        hits = (
            [node.value]
            if node.value in words
            else named_in(node.value, words)
            if id(node) in compared
            else []
        )
        found += [(node.lineno, word, node.value) for word in hits]
    return found


@functools.cache
def package_spellings() -> dict[str, list[tuple[int, str, str]]]:
    """Each module of the package (its path under the package) -> what `spelled` finds in it."""
    words = folder_of()
    return {
        path.relative_to(PACKAGE).as_posix(): spelled(
            parsed(path.read_text(encoding="utf-8")), words
        )
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def outside_their_folders() -> list[str]:
    words = folder_of()
    found = []
    for relative, spellings in package_spellings().items():
        if relative in REGISTRY_FILES:
            continue
        for line, word, constant in spellings:
            if (
                not relative.startswith(f"runners/{words[word]}/")
                and (relative, constant) not in ALLOWED
            ):
                found.append(f"{relative}:{line}: {constant!r}")
    return found


def test_no_runner_is_named_outside_its_folder_and_the_registry() -> None:
    assert outside_their_folders() == []


def test_every_allowed_spelling_is_still_there() -> None:
    """An allow-list entry that no longer matches anything goes (the list stays short and true)."""
    present = {
        (relative, constant)
        for relative, spellings in package_spellings().items()
        for _l, _w, constant in spellings
    }
    assert ALLOWED - present == set()


def test_the_scan_finds_a_name_compared_or_spelled() -> None:
    words = folder_of()
    code = 'if runner == "go" or "cargo test" in command or name.startswith(("mvn",)):\n    x = {"jest": 1}\n'
    assert sorted(spelled(ast.parse(code), words)) == [
        (1, "cargo", "cargo test"),
        (1, "go", "go"),
        (1, "mvn", "mvn"),
        (2, "jest", "jest"),
    ]


def test_a_docstring_or_a_message_is_not_a_test_of_the_runner() -> None:
    code = '"""Runs go test."""\nprint("cargo test failed")\nlabel = "run vitest first"\nx = path.startswith("node:")\n'
    assert spelled(ast.parse(code), folder_of()) == []


def test_the_words_are_the_registry_s_and_their_programs() -> None:
    words = folder_of()
    assert sorted(words) == sorted([*runners.REGISTRY, *PROGRAMS])
    assert all((PACKAGE / "runners" / folder).is_dir() for folder in words.values())
