"""A jest run that dies before it writes its report (a test file calling `process.exit(3)`) keeps
what the files that finished said, plus the crash (issue #33, item 4: qs's 26 failures became "no
test ran")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidekit_hooks.runners.js import compact as js_compact
from testing import js

ADD = "const add = (a, b) => a - b\nmodule.exports = { add }\n"
FAILING = "const { add } = require('../add')\nfor (let i = 0; i < 5; i++) test('adds ' + i, () => { expect(add(i, 1)).toBe(i + 1) })\n"
EXITS = "test('exits', () => { process.exit(3) })\n"


def finished_file(root: Path) -> str:
    """One line of jest-reporter.cjs's `.partial` file: a.test.js with its 5 failures."""
    results = [
        {
            "ancestorTitles": [],
            "fullName": f"adds {i}",
            "status": "failed",
            "title": f"adds {i}",
            "failureMessages": [
                "Error: expect(received).toBe(expected)\n    at Object.toBe "
                f"({root}/test/a.test.js:2:73)"
            ],
        }
        for i in range(5)
    ]
    return json.dumps(
        {"name": str(root / "test" / "a.test.js"), "status": "failed", "assertionResults": results}
    )


def project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / "add.js").write_text(ADD)
    (root / "test").mkdir()
    (root / "test" / "a.test.js").write_text(FAILING)
    (root / ".sidekit" / "jest").mkdir(parents=True)
    return root


def test_the_files_that_finished_before_the_crash_are_read_with_the_crash(tmp_path: Path) -> None:
    root = project(tmp_path)
    report = root / ".sidekit" / "jest" / "report-x.json"  # never written: the process died first
    (root / ".sidekit" / "jest" / "report-x.json.partial").write_text(
        finished_file(root) + "\n" + '{"name": "cut'
    )
    raw = root / ".sidekit" / "jest" / "raw.txt"
    raw.write_text('  ●  process.exit called with "3"\n')
    found = js_compact.gather("jest", str(root), 0.0, 3, str(raw), str(report))
    assert found.capture is not None and not found.reported and found.covered == set()
    assert sorted(found.capture.tests) == [f"test/a.test.js::adds {i}" for i in range(5)]
    assert {e["o"] for e in found.capture.tests.values()} == {"failed"}
    assert found.capture.collect_errors["(exit 3)"]["message"] == 'process.exit called with "3"'


@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_a_partial_file_that_is_a_link_or_a_fifo_is_not_read(tmp_path: Path, kind: str) -> None:
    import os

    root = project(tmp_path / "p")
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text(finished_file(root) + "\n")
    partial = root / ".sidekit" / "jest" / "report-x.json.partial"
    partial.symlink_to(elsewhere) if kind == "link" else os.mkfifo(partial)
    assert js_compact.load_partial(str(root / ".sidekit" / "jest" / "report-x.json")) is None


@pytest.mark.slow
def test_a_real_jest_run_with_a_file_calling_process_exit_keeps_the_failures_that_ran(
    tmp_path: Path,
) -> None:
    root = js.base_project(tmp_path / "proj", "jest", script="jest")
    (root / "add.js").write_text(ADD)
    (root / "test").mkdir()
    (root / "test" / "a.test.js").write_text(FAILING)
    (root / "test" / "b.test.js").write_text(EXITS)
    words = ["npx", "jest", "--runInBand"]  # one process: a.test.js ends before b.test.js exits it
    raw = js.run(words, root)
    compact = js.run(js.compact_command("jest", words, root), root)
    head, _, body = compact.output.partition("\n")
    answer = json.loads(body)
    print(f"\njest crash: raw {raw.size} B exit {raw.exit}; compact {compact.size} B {answer}")
    assert raw.exit == compact.exit == 3 and answer["exit"] == 3
    assert answer["failed"] == 5 and "note" not in answer  # never "no test ran"
    top, crash = answer["clusters"]
    assert (top["at"], top["affected"]) == ("add.js:1", 5)
    assert crash["message"] == 'process.exit called with "3"'
