"""Load failures on a real project, as the agent runs it (issue #33, item 6): semver's own source,
re-tested by three test files that all import it, with a syntax error planted in one source file.
The compact answer's top cluster (and `status`'s) is the broken source file at the line the runner
gives, not a test file; the exit code is the raw run's; what reaches the model stays within 800 B.

Slow (real runners on the cached toolchains of tests/testing/js.py), but part of CI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from realproj import env_for, sidekit

from testing import js

pytestmark = pytest.mark.slow

MODEL_LIMIT = 800  # the output plus the client's `Exit code N` line
WORDS = {"vitest": ["npx", "vitest", "run"], "jest": ["npx", "jest"]}
AGENT = {"CLAUDECODE": "1"}  # the agent's session: vitest picks its agent reporter
# A raw output under 2 KB is shown as it was (about 1 KB here, under vitest's agent reporter): the
# compacted run is made to answer, as the matrix of test_js_real.py does, to check the answer.
COMPACT = dict(AGENT, SIDEKIT_COMPACT_SHORT="10")
# compare.js's one statement, given an extra `)`: a syntax error at that line (node, babel)
COMPARE = js.PLANTED
COMPARE_PLANT = (js.GOOD, js.GOOD + ")")
# index.js's `require` of compare.js, left open: vite's import analysis cannot parse index.js
INDEX = "lib/semver/index.js"
INDEX_PLANT = (
    "const compare = require('./functions/compare')",
    "const compare = require('./functions/compare'",
)
THIRD_TEST = """
test('compare 3.0.0 3.0.1', () => { expect(semver.compare('3.0.0', '3.0.1')).toBe(-1) })
"""


def _project(root: Path, runner: str, planted: str, old: str, new: str, jest: Any = None) -> Path:
    project = js.semver_project(root, runner, planted=False)
    header = (project / "test" / "parse.test.js").read_text().split("\n\n")[0]
    (project / "test" / "range.test.js").write_text(header + "\n" + THIRD_TEST)
    if jest is not None:
        manifest = json.loads((project / "package.json").read_text())
        manifest["jest"] = jest
        (project / "package.json").write_text(json.dumps(manifest))
    assert js.run(WORDS[runner], project).exit == 0  # green before the plant
    path = project / planted
    text = path.read_text()
    assert old in text, f"{old!r} not in {planted}"
    path.write_text(text.replace(old, new, 1))
    return project


def _line_of(project: Path, planted: str, new: str) -> int:
    lines = (project / planted).read_text().splitlines()
    return next(number for number, text in enumerate(lines, 1) if new in text)


def _top_cluster(runner: str, project: Path) -> tuple[dict[str, Any], int, str]:
    """The raw run's exit code against the compacted run's; the compact answer's top cluster (the
    same as status's), the raw exit code and the raw output."""
    raw = js.run(WORDS[runner], project, env=AGENT)
    compact = js.run(js.compact_command(runner, WORDS[runner], project), project, env=COMPACT)
    assert compact.exit == raw.exit == 1
    assert compact.size + len(f"Exit code {compact.exit}\n") <= MODEL_LIMIT, compact.output
    status = json.loads((project / ".sidekit" / "status.json").read_text())
    top = dict(status["clusters"][0])
    assert compact.output.startswith("sidekit: "), compact.output
    answer = json.loads(compact.output.split("\n")[1])
    assert answer["exit"] == raw.exit and answer["suiteErrors"] == 3
    [shown] = answer["clusters"]
    assert (shown["at"], shown["affected"]) == (top["at"], top["affected"])
    print(f"\n{runner}: raw {raw.size:,} B; model {compact.size} B; {compact.output}")
    return top, raw.exit, raw.output


def test_vitest_a_required_source_that_does_not_compile_is_the_top_cluster_at_its_line(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path / "proj", "vitest", COMPARE, *COMPARE_PLANT)
    top, _, _ = _top_cluster("vitest", project)
    line = _line_of(project, COMPARE, COMPARE_PLANT[1])
    assert (top["type"], top["at"], top["affected"]) == ("SyntaxError", f"{COMPARE}:{line}", 3)


def test_vitest_a_source_vite_cannot_parse_is_the_top_cluster_at_vite_s_file_line(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path / "proj", "vitest", INDEX, *INDEX_PLANT)
    top, _, raw = _top_cluster("vitest", project)
    said = re.search(r"File: (\S+?):(\d+):\d+", re.sub(r"\x1b\[[0-9;]*m", "", raw))
    assert said and said.group(1) == str(project / INDEX), raw  # vite names it in its own error
    assert (top["at"], top["affected"]) == (f"{INDEX}:{said.group(2)}", 3)


def test_jest_without_a_transform_a_source_that_does_not_compile_is_the_top_cluster_at_its_line(
    tmp_path: Path,
) -> None:
    # `"transform": {}`: node compiles the sources itself (babel off), as in projects without babel
    project = _project(tmp_path / "proj", "jest", COMPARE, *COMPARE_PLANT, jest={"transform": {}})
    top, _, _ = _top_cluster("jest", project)
    line = _line_of(project, COMPARE, COMPARE_PLANT[1])
    assert (top["type"], top["at"], top["affected"]) == ("SyntaxError", f"{COMPARE}:{line}", 3)


@pytest.mark.parametrize(
    ("planted", "plant", "at"),
    [
        (INDEX, INDEX_PLANT, "vite"),  # vite's `File:` line in the console
        (COMPARE, COMPARE_PLANT, f"{INDEX}:17"),  # the console's first project frame: the `require`
    ],
    ids=["vite", "require"],
)
def test_sidekit_test_runs_vitest_without_its_reporter_and_the_console_places_the_load_failure(
    planted: str, plant: tuple[str, str], at: str, tmp_path: Path
) -> None:
    project = _project(tmp_path / "proj", "vitest", planted, *plant)
    raw = js.run(WORDS["vitest"], project)
    found, code = sidekit(project, env_for(project), "test", timeout=300)
    assert code == found["exit"] == raw.exit == 1
    said = re.search(r"File: (\S+?):(\d+):\d+", re.sub(r"\x1b\[[0-9;]*m", "", raw.output))
    expected = f"{INDEX}:{said.group(2)}" if at == "vite" and said else at
    top = found["clusters"][0]
    assert (top["at"], top["affected"]) == (expected, 3), found
