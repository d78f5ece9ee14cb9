"""vitest and jest on real projects: a planted bug, the raw run against the rewritten one, and the
never-greener matrix (syntax error, crash, timeout, no tests, a filter matching none, a second
package).

Slow (npm installs once per machine, then each run is a real runner process), but part of CI.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from testing import js

pytestmark = pytest.mark.slow

COMPACT_LIMIT = 800
WORDS = {"vitest": ["npx", "vitest", "run"], "jest": ["npx", "jest"]}


def _answer(output: str) -> dict[str, object]:
    head, _, body = output.partition("\n")
    assert head.startswith("sidekit: "), output[:300]
    return dict(json.loads(body))


def _summary(project: Path) -> dict[str, object]:
    return dict(json.loads((project / ".sidekit" / "status.json").read_text()))


@pytest.mark.parametrize("runner", ["vitest", "jest"])
def test_planted_bug_reaches_the_model_compact_with_its_root_cause(
    runner: str, tmp_path: Path
) -> None:
    project = js.semver_project(tmp_path / "proj", runner, planted=True)
    raw = js.run(WORDS[runner], project)
    compact = js.run(js.compact_command(runner, WORDS[runner], project), project)

    assert raw.exit == compact.exit == 1
    assert raw.size > 2048
    assert compact.size <= COMPACT_LIMIT, compact.output
    answer = _answer(compact.output)
    assert (answer["runner"], answer["exit"], answer["failed"], answer["passed"]) == (
        runner,
        1,
        30,
        20,
    )
    clusters = answer["clusters"]
    assert isinstance(clusters, list) and len(clusters) == 1
    assert clusters[0]["at"] == js.PLANTED + ":5" and clusters[0]["affected"] == 30
    assert clusters[0]["type"] == "TypeError"
    saved = re.search(r"all of it: (\S+)", compact.output)
    assert (
        saved and (project / saved.group(1)).stat().st_size >= raw.size * 0.8
    )  # the raw output, kept
    summary = _summary(project)
    assert summary["runner"] == runner and summary["failing"] == 30


@pytest.mark.parametrize("runner", ["vitest", "jest"])
def test_a_green_run_over_two_kilobytes_is_compact_and_green(runner: str, tmp_path: Path) -> None:
    project = js.semver_project(tmp_path / "proj", runner, planted=False)
    compact = js.run(
        js.compact_command(runner, WORDS[runner], project),
        project,
        env={"SIDEKIT_COMPACT_SHORT": "10"},
    )
    assert compact.exit == 0
    answer = _answer(compact.output)
    assert (answer["exit"], answer["passed"], answer.get("failed")) == (0, 50, None)
    assert "clusters" not in answer


@pytest.mark.parametrize("runner", ["vitest", "jest"])
def test_npm_test_is_rewritten_after_a_double_dash_and_stays_within_budget(
    runner: str, tmp_path: Path
) -> None:
    project = js.semver_project(tmp_path / "proj", runner, planted=True)
    command = js.compact_command(runner, ["npm", "test"], project)
    assert command.startswith("npm test -- ")
    compact = js.run(command, project)
    assert compact.exit == 1
    assert compact.size <= COMPACT_LIMIT, compact.output
    answer = _answer(compact.output[compact.output.index("sidekit: ") :])
    assert (answer["failed"], answer["exit"]) == (30, 1)


@pytest.mark.parametrize("runner", ["vitest", "jest"])
def test_sidekit_raw_leaves_the_output_as_it_was(runner: str, tmp_path: Path) -> None:
    project = js.semver_project(tmp_path / "proj", runner, planted=True)
    ran = js.run(
        js.compact_command(runner, WORDS[runner], project), project, env={"SIDEKIT_RAW": "1"}
    )
    assert ran.exit == 1 and ran.size > 2048 and not ran.output.lstrip().startswith("sidekit:")


# The matrix: each case is (files, extra words); the expected exit code is the raw run's own.
SYNTAX = {
    "test/a.test.js": "test('a', () => { expect(1).toBe(1) })",
    "test/b.test.js": "test('b', () => { if ( })",
}
CRASH_VITEST = {
    "test/a.test.js": "test('a', () => { setTimeout(() => { throw new Error('boom later') }, 1);"
    " return new Promise(r => setTimeout(r, 30)) })"
}
CRASH_JEST = {
    "test/a.test.js": "test('a', () => { process.exit(3) }); test('b', () => {})",
    "test/c.test.js": "test('c', () => {})",
}
TIMEOUT = {
    "test/a.test.js": "test('slow', () => new Promise(r => setTimeout(r, 3000)), 100); test('ok', "
    "() => {})"
}
ONE = {"test/a.test.js": "test('ok', () => {})"}
SECOND = {
    "packages/a/test/a.test.js": "test('a ok', () => { expect(1).toBe(1) })",
    "packages/b/test/b.test.js": "test('b bad', () => { expect(1).toBe(2) })",
    "packages/a/package.json": '{"name":"a"}',
    "packages/b/package.json": '{"name":"b"}',
}


def _matrix_project(root: Path, runner: str, files: dict[str, str]) -> Path:
    js.base_project(root, runner)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        prefix = (
            "import { test, expect } from 'vitest'; "
            if runner == "vitest" and name.endswith(".js")
            else ""
        )
        path.write_text(prefix + text + "\n")
    if files is SECOND:
        if runner == "vitest":
            (root / "vitest.config.mjs").write_text(
                "export default { test: { projects: ['packages/*'] } }\n"
            )
        else:
            package = json.loads((root / "package.json").read_text())
            package["jest"] = {"projects": ["<rootDir>/packages/*"]}
            (root / "package.json").write_text(json.dumps(package))
    return root


MATRIX = [
    ("vitest", "syntax", SYNTAX, [], {"collectErrors": 1, "passed": 1}),
    ("vitest", "crash", CRASH_VITEST, [], {"collectErrors": 1, "passed": 1}),
    (
        "vitest",
        "timeout",
        TIMEOUT,
        [],
        {"failed": 1, "passed": 1, "message": "Test timed out in 100ms."},
    ),
    ("vitest", "no-tests", {}, [], {"says": "No test files found, exiting with code 1"}),
    (
        "vitest",
        "filter-none",
        ONE,
        ["nomatch"],
        {"says": "No test files found, exiting with code 1"},
    ),
    ("vitest", "filter-t-none", ONE, ["-t", "nomatch"], {"skipped": 1}),
    (
        "vitest",
        "second-package",
        SECOND,
        [],
        {"failed": 1, "passed": 1, "at": "packages/b/test/b.test.js:1"},
    ),
    ("jest", "syntax", SYNTAX, [], {"collectErrors": 1, "passed": 1, "at": "test/b.test.js:1"}),
    ("jest", "crash", CRASH_JEST, [], {"says": 'process.exit called with "3"'}),
    ("jest", "timeout", TIMEOUT, [], {"failed": 1, "passed": 1}),
    ("jest", "no-tests", {}, [], {"says": "No tests found, exiting with code 1"}),
    ("jest", "filter-none", ONE, ["nomatch"], {"says": "No tests found, exiting with code 1"}),
    ("jest", "filter-t-none", ONE, ["-t", "nomatch"], {"skipped": 1}),
    (
        "jest",
        "second-package",
        SECOND,
        [],
        {"failed": 1, "passed": 1, "at": "packages/b/test/b.test.js:1"},
    ),
]


@pytest.mark.parametrize(
    ("runner", "case", "files", "extra", "expect"), MATRIX, ids=[f"{m[0]}-{m[1]}" for m in MATRIX]
)
def test_never_greener_than_the_raw_run(
    runner: str,
    case: str,
    files: dict[str, str],
    extra: list[str],
    expect: dict[str, object],
    tmp_path: Path,
) -> None:
    project = _matrix_project(tmp_path / "proj", runner, files)
    words = WORDS[runner] + extra
    raw = js.run(words, project)
    compact = js.run(
        js.compact_command(runner, words, project), project, env={"SIDEKIT_COMPACT_SHORT": "10"}
    )

    assert compact.exit == raw.exit
    assert raw.exit != 0 or case == "filter-t-none"
    if (
        "says" in expect
    ):  # the runner stopped before (or without) a report: its own words reach the model
        said = (
            str(_answer(compact.output).get(runner))
            if compact.output.startswith("sidekit: ")
            else compact.output
        )
        assert str(expect["says"]) in said, compact.output
        return
    answer = _answer(compact.output)
    assert answer["exit"] == raw.exit
    assert answer.get("passed", 0) == expect.get("passed", 0)
    assert answer.get("failed", 0) == expect.get("failed", 0)
    assert answer.get("skipped", 0) == expect.get("skipped", 0)
    summary = _summary(project)
    assert summary["collectErrors"] == expect.get("collectErrors", 0)
    clusters = summary["clusters"]
    assert isinstance(clusters, list)
    if "at" in expect:
        assert clusters[0]["at"] == expect["at"]
    if "message" in expect:
        assert clusters[0]["message"] == expect["message"]
    if raw.exit and not answer.get("failed"):
        assert answer.get(runner), "a red run without failed tests says why, in the runner's words"


def test_a_typescript_source_is_clustered_at_its_own_line(tmp_path: Path) -> None:
    project = js.base_project(tmp_path / "proj", "vitest")
    (project / "src").mkdir()
    (project / "src" / "math.ts").write_text(
        "export interface Pair { a: number; b: number }\n\n"
        "export function add(p: Pair): number {\n"
        "  const total: number = (p as any).c.value + p.b\n  return total\n}\n"
    )
    (project / "test").mkdir()
    (project / "test" / "math.test.ts").write_text(
        "import { test, expect } from 'vitest'\nimport { add } from '../src/math'\n"
        "for (let i = 0; i < 25; i++) test(`add ${i}`, () => { expect(add({ a: i, b: 1 })).toBe(i "
        "+ 1) })\n"
    )
    command = js.compact_command("vitest", WORDS["vitest"], project)
    compact = js.run(command, project, env={"SIDEKIT_COMPACT_SHORT": "10"})
    answer = _answer(compact.output)
    assert (compact.exit, answer["failed"]) == (1, 25)
    clusters = answer["clusters"]
    assert isinstance(clusters, list)
    assert (clusters[0]["at"], clusters[0]["affected"], clusters[0]["type"]) == (
        "src/math.ts:4",
        25,
        "TypeError",
    )
