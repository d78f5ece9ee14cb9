"""`sidekit symbol` and `sidekit usages` through the real command, with their budgets
(docs/usage.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from testing.code import answer, commit_all, settle, sidekit, write
from testing.hooks import HookRunner, bash

FIXTURE = {
    "pkg/__init__.py": "",
    "pkg/parser.py": """
        import re

        PATTERN = re.compile("parse")


        class Parser:
            def parse(self, text):
                # parse in a comment does not count
                return PATTERN.findall(text)


        def parse(text, strict=False):
            return Parser().parse(text)
        """,
    "pkg/cli.py": """
        from pkg.parser import parse as run_parse, Parser


        def main(argv):
            print("parse")
            return run_parse(argv[0]) or Parser().parse(argv[1])
        """,
    "tests/test_parser.py": """
        from pkg.parser import parse


        def parse_helper():
            return parse("x")
        """,
}


def test_symbol_ranks_exact_qualified_names_first(project: Path) -> None:
    write(project, FIXTURE)
    assert answer(project, "symbol", "Parser.parse")[0] == {
        "matches": [{"kind": "method", "at": "pkg/parser.py:7", "sig": "(self, text)"}],
        "searched": 4,
    }
    assert answer(project, "symbol", "parse")[0] == {
        "matches": [
            {"kind": "function", "at": "pkg/parser.py:12", "sig": "(text, strict=False)"},
            {
                "name": "Parser.parse",
                "kind": "method",
                "at": "pkg/parser.py:7",
                "sig": "(self, text)",
            },
        ],
        "searched": 4,
    }
    assert answer(project, "symbol", "pkg.parser:Parser")[0] == {
        "matches": [{"kind": "class", "at": "pkg/parser.py:6"}],
        "searched": 4,
    }
    assert answer(project, "symbol", "Nothing.here")[0] == {"found": 0, "searched": 4}
    # A near miss is offered (rapidfuzz), bare or qualified; what only resembles nothing gets
    # nothing.
    assert answer(project, "symbol", "Parser.parze")[0] == {
        "found": 0,
        "close": ["Parser.parse"],
        "searched": 4,
    }
    assert answer(project, "symbol", "PATERN")[0] == {
        "found": 0,
        "close": ["PATTERN"],
        "searched": 4,
    }


def test_usages_are_ast_references_only(project: Path) -> None:
    write(project, FIXTURE)
    write(project, {"broken.py": "def (:\n"})
    found, _ = answer(project, "usages", "parse")
    # cli: the import (1), the aliased call and the method call (6); parser: the method call (13);
    # tests: the import (1) and the call (5). Not the comment, the strings or the definitions.
    assert found == {
        "uses": 5,
        "at": [
            "pkg/cli.py:1",
            "pkg/cli.py:6",
            "pkg/parser.py:13",
            "tests/test_parser.py:1",
            "tests/test_parser.py:5",
        ],
        "searched": 5,
        "unparsable": 1,
    }
    assert answer(project, "usages", "PATTERN")[0] == {
        "uses": 1,
        "at": ["pkg/parser.py:9"],
        "searched": 5,
        "unparsable": 1,
    }
    assert answer(project, "usages", "absent_name")[0] == {
        "uses": 0,
        "searched": 5,
        "unparsable": 1,
    }


def test_text_format_is_for_people(project: Path) -> None:
    write(project, FIXTURE)
    out = sidekit(project, "usages", "PATTERN", "--format", "text").stdout
    assert out == "uses: 1\nat:\n  - pkg/parser.py:9\nsearched: 4\n"


def long_dir(depth: int, tag: str) -> str:
    return "/".join(f"a_rather_long_folder_name_{tag}_{level}" for level in range(depth))


def test_symbol_one_match_fits_170_bytes_with_a_very_long_path(project: Path) -> None:
    folder = long_dir(8, "s")
    args = ", ".join(f"argument_number_{i}=None" for i in range(12))
    write(
        project,
        {
            f"{folder}/module_with_a_long_name.py": f"def one_unique_function_name({args}):\n    "
            "pass\n"
        },
    )
    found, size = answer(project, "symbol", "one_unique_function_name")
    assert size <= 170
    (match,) = found["matches"]
    assert match["at"].startswith("a_rather_long_folder_name_s_0/…/") and match["at"].endswith(
        "/module_with_a_long_name.py:1"
    )


def test_usages_under_ten_uses_fit_360_bytes_flat_with_very_long_paths(project: Path) -> None:
    write(
        project,
        {
            f"{long_dir(6, str(i))}/user_module_{i}.py": "import lib\nlib.common()\n"
            for i in range(9)
        },
    )
    found, size = answer(project, "usages", "common")
    assert size <= 360
    assert (
        found["uses"] == 9 and len(found["at"]) + found["more"] == 9
    )  # flat: one site in each of nine files
    assert found["at"][0] == "a_rather_long_folder_name_0_0/…/user_module_0.py:2"


def test_usages_under_ten_uses_in_one_long_path_group_and_fit_360_bytes(project: Path) -> None:
    write(project, {f"{long_dir(6, 'g')}/user_module.py": "import lib\n" + "lib.common()\n" * 9})
    found, size = answer(project, "usages", "common")
    assert size <= 360
    assert found == {
        "uses": 9,
        "files": 1,
        "in": [{"file": found["in"][0]["file"], "uses": 9, "lines": [2, 3, 4, 5, 6]}],
        "searched": 1,
    }


def test_usages_of_a_very_common_name_stop_growing(project: Path) -> None:
    def spread(uses_per_file: int) -> dict[str, str]:
        body = "from lib import common\n" + "common()\n" * (uses_per_file - 1)
        return {f"{long_dir(2, 'u')}/module_number_{i:02}.py": body for i in range(60)}

    write(project, spread(8))  # 480 uses across 60 files
    found, size_480 = answer(project, "usages", "common")
    assert found["uses"] == 480 and found["files"] == 60 and size_480 <= 900
    assert found["in"][0] == {"file": found["in"][0]["file"], "uses": 8, "lines": [1, 2, 3, 4, 5]}
    assert len(found["in"]) + found["moreFiles"] == 60
    write(project, spread(64))  # 3,840 uses, eight times as many
    found, size_3840 = answer(project, "usages", "common")
    assert found["uses"] == 3840 and size_3840 <= 900
    assert abs(size_3840 - size_480) <= 30  # a few digits more, not eight times the bytes


def test_a_warm_query_reads_its_few_arguments_without_argparse() -> None:
    from types import SimpleNamespace

    from sidekit_hooks.cli.commands._code import fast_arguments

    assert fast_arguments(["Parser.parse", "--project", "/p", "--format=text"]) == SimpleNamespace(
        name="Parser.parse", project="/p", format="text"
    )
    assert fast_arguments(["--project=/p", "f"]) == SimpleNamespace(
        name="f", project="/p", format="json"
    )
    # anything else is argparse's to read, and to explain
    for argv in (
        [],
        ["-h"],
        ["a", "b"],
        ["a", "--format", "xml"],
        ["a", "--project"],
        ["a", "--project="],
        ["a", "--bogus"],
        [""],
    ):
        assert fast_arguments(argv) is None, argv


def test_answers_follow_edits_in_place_sed_and_new_files_where_no_python_was(
    project: Path, run_hook: HookRunner
) -> None:
    write(project, {**FIXTURE, "docs/guide.md": "# Guide\n"})
    commit_all(project)

    def warm_uses() -> list[str]:
        """The answer once the tree is settled and a first query recorded it (the next one is
        warm)."""
        settle(project)
        first = answer(project, "usages", "parse")[0]["at"]
        assert answer(project, "usages", "parse")[0]["at"] == first
        return list(first)

    sites = [
        "pkg/cli.py:1",
        "pkg/cli.py:6",
        "pkg/parser.py:13",
        "tests/test_parser.py:1",
        "tests/test_parser.py:5",
    ]
    assert warm_uses() == sites

    with open(
        project / "pkg" / "cli.py", "a", encoding="utf-8"
    ) as handle:  # an editor saving in place
        handle.write("\n\ndef again():\n    return run_parse('y')\n")
    sites[2:2] = ["pkg/cli.py:10"]
    assert answer(project, "usages", "parse")[0]["at"] == sites

    assert warm_uses() == sites
    command = "sed -i 's/return parse(\"x\")/return 0/' tests/test_parser.py"
    subprocess.run(["sh", "-c", command], cwd=project, check=True)
    run_hook("PostToolUse", bash(project, command))
    assert answer(project, "usages", "parse")[0]["at"] == sites[:-1]

    assert warm_uses() == sites[:-1]
    command = "mkdir docs/ext && printf 'from pkg.parser import parse\\n' > docs/ext/conf.py"
    subprocess.run(["sh", "-c", command], cwd=project, check=True)  # docs/ held no Python
    run_hook("PostToolUse", bash(project, command))  # the agent's Bash call moves the write stamp
    assert answer(project, "usages", "parse")[0]["at"] == ["docs/ext/conf.py:1", *sites[:-1]]
