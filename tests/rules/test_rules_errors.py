"""The exact text of every kind of pack mistake: file, line, key path, what is wrong, and the
fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from sidekit_hooks import __version__
from sidekit_hooks.rules import snapshot
from sidekit_hooks.rules.authoring import lint

GOOD_RULE = """
[[rules]]
id = "acme.ok"
message = "fine"
[rules.when]
added = 'x'
"""


def lint_pack(project: Path, body: str) -> list[str]:
    folder = project / "sidecar_rules"
    folder.mkdir(exist_ok=True)
    path = folder / "acme.toml"
    path.write_text(textwrap.dedent(body).lstrip())
    return lint.check_file(str(path), str(project), "project").rendered()


def test_missing_required_key(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"

        [[rules]]
        id = "acme.a"
        [rules.when]
        added = 'x'
    """,
    ) == [
        "sidecar_rules/acme.toml:4: rules[0].message: required key is missing\n"
        '  fix: add message = "Spec 4.1: validation errors return HTTP 422, not 400." under '
        "[[rules]]"
    ]


def test_missing_pack_name(project: Path) -> None:
    assert lint_pack(project, '[pack]\nversion = "1.0"\n' + GOOD_RULE) == [
        "sidecar_rules/acme.toml:1: pack.name: required key is missing\n  fix: add name = "
        '"acme-api" under [pack]'
    ]


def test_wrong_types(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"

        [[rules]]
        id = "acme.a"
        message = "m"
        severity = "critical"
        enabled = "yes"

        [rules.when]
        tools = "Edit"
        paths = ["api/*.py", 3]
    """,
    ) == [
        "sidecar_rules/acme.toml:7: rules[0].severity: expected one of low, medium, high, got a "
        'string ("critical")\n'
        '  fix: write severity = "high"',
        "sidecar_rules/acme.toml:8: rules[0].enabled: expected true or false, got a string "
        '("yes")\n'
        "  fix: write enabled = false",
        "sidecar_rules/acme.toml:11: rules[0].when.tools: expected an array, got a string "
        '("Edit")\n'
        '  fix: write tools = ["Edit", "Write"]',
        "sidecar_rules/acme.toml:12: rules[0].when.paths[1]: expected a string, got an integer "
        "(3)\n"
        '  fix: write paths = ["api/**/*.py"]',
    ]


def test_duplicate_id_in_a_pack(project: Path) -> None:
    assert lint_pack(project, '[pack]\nname = "acme"\n' + GOOD_RULE + GOOD_RULE) == [
        'sidecar_rules/acme.toml:11: rules[1].id: duplicate id "acme.ok" (also rules[0])\n'
        "  fix: give each rule in a pack its own id"
    ]


def test_regex_that_does_not_compile(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"
        [[rules]]
        id = "acme.a"
        message = "m"
        [rules.when]
        tools = ["Edit"]
        added = 'status_code=(400'
    """,
    ) == [
        "sidecar_rules/acme.toml:8: rules[0].when.added: regex does not compile: missing ), "
        "unterminated subpattern at position 12\n"
        "  fix: fix the pattern; in TOML write it in single quotes ('...') so backslashes stay as "
        "written"
    ]


def test_globs_that_cannot_match(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"
        [[rules]]
        id = "acme.a"
        message = "m"
        [rules.when]
        paths = [
          "api/**/*.py",
          "../shared/*.py",
        ]
        added = 'x'
        [[rules]]
        id = "acme.b"
        message = "m"
        [rules.when]
        command = '^pytest'
        paths = ["tests/**"]
    """,
    ) == [
        'sidecar_rules/acme.toml:9: rules[0].when.paths[1]: glob "../shared/*.py" cannot match: '
        "project-relative paths hold no . or .. segments\n"
        '  fix: write a project-relative glob such as "src/**/*.py"',
        "sidecar_rules/acme.toml:17: rules[1].when.paths: cannot match: the tools this rule sees "
        "carry no file path\n"
        "  fix: drop paths, or add a file tool (Edit, Write, Read, ...) to tools",
    ]


def test_conditions_no_tool_call_can_meet(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"
        [[rules]]
        id = "acme.a"
        message = "m"
        when = { tools = ["Bash"], added = 'x' }
    """,
    ) == [
        "sidecar_rules/acme.toml:6: rules[0].when.added: cannot match: the text a call added "
        "comes only from "
        "Edit, Write, NotebookEdit, MultiEdit, and tools leaves them out\n"
        "  fix: add one of Edit, Write, NotebookEdit, MultiEdit to tools, or drop added"
    ]


def test_see_target_missing_in_the_project(project: Path) -> None:
    body = '[pack]\nname = "acme"\n' + GOOD_RULE.replace(
        'message = "fine"', 'message = "fine"\nsee = "docs/api-spec.md#errors"'
    )
    assert lint_pack(project, body) == [
        'sidecar_rules/acme.toml:7: rules[0].see: "docs/api-spec.md" does not exist in the '
        "project\n"
        "  fix: create docs/api-spec.md, or point see at an existing project file (path#anchor) "
        "or a URL"
    ]
    (project / "docs").mkdir()
    (project / "docs" / "api-spec.md").write_text("# errors\n")
    assert lint_pack(project, body) == []


def test_requires_not_satisfied(project: Path) -> None:
    assert lint_pack(project, '[pack]\nname = "acme"\nrequires = ">=9.0"\n' + GOOD_RULE) == [
        "sidecar_rules/acme.toml:3: pack.requires: this pack needs sidekit >=9.0; this is "
        f"sidekit {__version__}\n"
        "  fix: upgrade sidekit-hooks (pip install -U sidekit-hooks), or relax requires"
    ]


def test_requires_unreadable(project: Path) -> None:
    assert lint_pack(project, '[pack]\nname = "acme"\nrequires = "0.1"\n' + GOOD_RULE) == [
        'sidecar_rules/acme.toml:3: pack.requires: cannot read "0.1"\n'
        '  fix: write a version range such as ">=0.1" or ">=0.1,<1"'
    ]


def test_toml_syntax_error_names_its_line(project: Path) -> None:
    assert lint_pack(
        project, '[pack]\nname = "acme"\n\n[[rules]]\nid = "a"\nmessage = "unclosed\n'
    ) == [
        "sidecar_rules/acme.toml:6: TOML syntax: Illegal character '\\n' (column 20)\n"
        "  fix: fix the TOML syntax on that line"
    ]


def test_rule_without_conditions(project: Path) -> None:
    assert lint_pack(
        project, '[pack]\nname = "acme"\n[[rules]]\nid = "acme.a"\nmessage = "m"\n'
    ) == [
        "sidecar_rules/acme.toml:3: rules[0].when: no condition: the rule would fire on every "
        "tool call\n"
        "  fix: add at least one of tools, paths, languages, added, absent, command or output "
        "under [rules.when]"
    ]


def test_unknown_keys_are_warnings_with_a_suggestion(project: Path) -> None:
    checked_lines = lint_pack(
        project,
        '[pack]\nname = "acme"\ncolour = "red"\n'
        + GOOD_RULE.replace("added", "path = ['x']\nadded"),
    )
    assert checked_lines == [
        "sidecar_rules/acme.toml:3: warning: pack.colour: unknown key (ignored)\n"
        "  fix: known keys here: name, version, requires, description",
        "sidecar_rules/acme.toml:9: warning: rules[0].when.path: unknown key (ignored)\n  fix: "
        "did you mean paths?",
    ]


def test_metadata_and_policy_tables_are_accepted_without_warnings(project: Path) -> None:
    body = (
        '[pack]\nname = "acme"\n[policy]\ncooldown = 300\ncooldowns = { scope = 0, tools = 60.5 '
        '}\nthreshold = "low"\n'
        'thresholds = { conventions = "medium" }\nmax_nudges = 5\nmax_chars = 200\ndedup = false\n'
        'mute = ["tools"]\norder = ["scope", "specs"]\n'
        + GOOD_RULE
        + "[rules.metadata]\nprevalence = 0.93\n"
    )
    assert lint_pack(project, body) == []


def test_policy_keys_and_values_the_policy_would_not_use_are_errors(project: Path) -> None:
    body = (
        '[pack]\nname = "acme"\n[policy]\nmax_nudges_per_turn = 2\ncooldown = "10m"\nthresholds = '
        '{ tools = "urgent" }\n'
        'max_chars = 20\nmute = "tools"\n' + GOOD_RULE
    )
    keys = "cooldown, cooldowns, threshold, thresholds, max_nudges, max_chars, dedup, mute, order, remind, remind_threshold"
    assert lint_pack(project, body) == [
        "sidecar_rules/acme.toml:4: policy.max_nudges_per_turn: unknown [policy] key "
        '"max_nudges_per_turn"\n'
        f"  fix: use one of {keys} (docs/policy.md)",
        "sidecar_rules/acme.toml:5: policy.cooldown: expected a number of seconds >= 0, got a "
        'string ("10m")\n'
        "  fix: write cooldown = 30",
        "sidecar_rules/acme.toml:6: policy.thresholds: expected a table of sidecar = low | medium "
        "| high, got a table\n"
        '  fix: write thresholds = { conventions = "medium" }',
        "sidecar_rules/acme.toml:7: policy.max_chars: expected a whole number from 80 to 300, got "
        "an integer (20)\n"
        "  fix: write max_chars = 300",
        "sidecar_rules/acme.toml:8: policy.mute: expected an array of sidecar names or rule ids, "
        'got a string ("tools")\n'
        '  fix: write mute = ["tools.grep-for-name"]',
    ]


def test_the_hook_refuses_a_pack_whose_policy_would_be_silently_replaced(project: Path) -> None:
    path = project / "sidecar_rules" / "acme.toml"
    path.parent.mkdir()
    path.write_text('[pack]\nname = "acme"\n[policy]\ncooldown = "10m"\n' + GOOD_RULE)
    record = snapshot.build_pack(
        str(path), "project", snapshot.fingerprint(str(path)), str(project)
    )
    assert record["error"] == (
        "sidecar_rules/acme.toml:4: policy.cooldown: expected a number of seconds >= 0, "
        'got a string ("10m")\n  fix: write cooldown = 30'
    )


def test_nested_quantifiers_warn(project: Path) -> None:
    assert lint_pack(
        project, '[pack]\nname = "acme"\n' + GOOD_RULE.replace("added = 'x'", "added = '^(a+)+$'")
    ) == [
        "sidecar_rules/acme.toml:8: warning: rules[0].when.added: nested quantifiers can "
        "backtrack for a very long time; "
        "the hook gives up on this regex after 50 ms\n"
        "  fix: rewrite without a repeated group of repeats, e.g. (ab)+ not (a+b?)+"
    ]


def test_the_hook_names_the_same_place_without_pydantic(project: Path) -> None:
    path = project / "sidecar_rules" / "acme.toml"
    path.parent.mkdir()
    path.write_text(
        '[pack]\nname = "acme"\n[[rules]]\nid = "a"\nmessage = "m"\n[rules.when]\nadded = "("\n'
    )
    record = snapshot.build_pack(
        str(path), "project", snapshot.fingerprint(str(path)), str(project)
    )
    assert record["error"] == (
        "sidecar_rules/acme.toml:7: rules[0].when.added: regex does not compile: missing ), "
        "unterminated subpattern at position 0\n"
        "  fix: fix the pattern; in TOML write it in single quotes ('...') so backslashes stay as "
        "written"
    )


@pytest.mark.parametrize("size", [300 * 1024])
def test_oversized_pack_is_refused(project: Path, size: int) -> None:
    assert lint_pack(project, '[pack]\nname = "acme"\n#' + "x" * size) == [
        "sidecar_rules/acme.toml: the file is over 256 KB\n  fix: split it into smaller packs"
    ]


def test_too_many_rules(project: Path) -> None:
    rules = "".join(GOOD_RULE.replace("acme.ok", f"acme.r{i}") for i in range(201))
    assert lint_pack(project, '[pack]\nname = "acme"\n' + rules) == [
        "sidecar_rules/acme.toml:4: rules: 201 rules; a pack holds at most 200\n  fix: split the "
        "pack in two"
    ]


def test_too_long_message_counts_the_tag_and_the_see_citation(project: Path) -> None:
    long = GOOD_RULE.replace(
        '"fine"', '"' + "m" * 250 + '"\nsee = "https://example.invalid/a/very/long/path"'
    )
    assert lint_pack(project, '[pack]\nname = "acme"\n' + long) == [
        "sidecar_rules/acme.toml:6: rules[0].message: the nudge would be 312 characters "
        "([sidecar:...] tag, message, see); "
        "it must stay under 300\n"
        "  fix: shorten the message and put the details in the file `see` points at"
    ]
    assert (
        lint_pack(
            project, '[pack]\nname = "acme"\n' + GOOD_RULE.replace('"fine"', '"' + "m" * 284 + '"')
        )
        == []
    )
    assert lint_pack(
        project, '[pack]\nname = "acme"\n' + GOOD_RULE.replace('"fine"', '"' + "m" * 285 + '"')
    ) == [
        "sidecar_rules/acme.toml:6: rules[0].message: the nudge would be 300 characters "
        "([sidecar:...] tag, message); "
        "it must stay under 300\n"
        "  fix: shorten the message and put the details in the file `see` points at"
    ]


def test_unknown_language(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"

        [[rules]]
        id = "acme.a"
        message = "m"
        [rules.when]
        languages = ["ts", "typescript"]
        added = 'x'
    """,
    ) == [
        'sidecar_rules/acme.toml:8: rules[0].when.languages[1]: unknown language "typescript"\n'
        "  fix: write one of py, ts, js, go, rust, java (TSX is ts, JSX is js)"
    ]


def test_languages_with_a_command_cannot_match(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"

        [[rules]]
        id = "acme.a"
        message = "m"
        [rules.when]
        languages = ["go"]
        command = 'go test'
    """,
    ) == [
        "sidecar_rules/acme.toml:8: rules[0].when.languages: cannot match: the tools this rule "
        "sees carry no file path\n"
        "  fix: drop languages, or add a file tool (Edit, Write, Read, ...) to tools"
    ]


def test_languages_must_be_an_array_of_strings(project: Path) -> None:
    assert lint_pack(
        project,
        """
        [pack]
        name = "acme"

        [[rules]]
        id = "acme.a"
        message = "m"
        [rules.when]
        languages = "go"
        added = 'x'
    """,
    )[0].startswith("sidecar_rules/acme.toml:8: rules[0].when.languages: ")
