"""runners/go/goexec.py on recorded test binaries' output: what it prints and what the cache holds,
byte for byte as recorded (tests/runners/goexec_cases/expected.json, written by the code before the
red path's CPU work). The binaries' `-test.v=test2json` output was recorded from the Go module in
goexec_cases/module (table-driven t.Errorf, a bare t.Fail, helpers, methods, an external test
package, non-ASCII names and messages, a panic, a timeout, a long passing package); `@ROOT@` stands
for the module's folder.

SIDEKIT_WRITE_REPLAY=1 rewrites expected.json from the code as it is (only when a change is meant).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.runners import spool
from sidekit_hooks.runners.go import goexec as goexec
from sidekit_hooks.status import cache

CASES = Path(__file__).parent / "goexec_cases"
EXPECTED = CASES / "expected.json"
NOW = 1_700_000_000.0
RAW_NAME = re.compile(r"\S*raw-\d{8}-\d{6}-\d+-")


def recorded(name: str, root: Path) -> str:
    return (
        (CASES / "outputs" / f"{name}.out").read_text(encoding="utf-8").replace("@ROOT@", str(root))
    )


def short_output(root: Path) -> str:
    """A passing binary whose output stays short: printed as it is, its tests left for the run's
    writer."""
    lines = recorded("calc", root).splitlines(keepends=True)[:6]
    return "".join(lines) + "\x16PASS\n"


# (step, package, output, exit code, -v, bytes the run's other binaries printed before): run one
# after another in one project, so later steps merge into what earlier ones left (new failures,
# generations, tests of other packages). A short output is printed as it is unless the run printed 2
# KB before it.
STEPS: list[tuple[str, str, str, int, bool, int]] = [
    ("calc red", "calc", "calc", 1, False, 0),
    ("boom panic", "boom", "boom", 2, False, 0),
    ("boom panic compacted", "boom", "boom", 2, False, 2048),
    ("slow timeout", "slow", "slow", 2, False, 0),
    ("slow timeout compacted", "slow", "slow", 2, False, 2048),
    ("loud long green", "loud", "loud", 0, False, 0),
    ("calc red again", "calc", "calc", 1, False, 0),
    ("calc red -v", "calc", "calc", 1, True, 0),
    ("calc short green", "calc", "short", 0, False, 0),
    ("calc short green compacted", "calc", "short", 0, False, 2048),
]


def replay(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, str]]:
    """Each step's printed text and cache files (the raw output's file name without its time and
    pid)."""
    shutil.copytree(CASES / "module", root)
    (root / ".git").mkdir()
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    monkeypatch.delenv("SIDEKIT_RUN_ID", raising=False)
    spooled: list[tuple[list[str], str]] = []
    monkeypatch.setattr(
        spool, "spool", lambda root, runner, fields, text: spooled.append((fields, text))
    )
    found: dict[str, dict[str, str]] = {}
    for index, (step, package, output, code, verbose, before) in enumerate(STEPS):
        monkeypatch.setattr(cache, "now", lambda index=index: NOW + 10 * index)
        monkeypatch.chdir(root / package)
        (root / ".sidekit" / "go").mkdir(parents=True, exist_ok=True)
        for name in os.listdir(root / ".sidekit" / "go"):
            if name.startswith("printed-"):  # each step is a binary of its own run
                os.unlink(root / ".sidekit" / "go" / name)
        (root / ".sidekit" / "go" / f"printed-{spool.run_key()}").write_text(str(before))
        text = short_output(root) if output == "short" else recorded(output, root)
        _root, printed, later = goexec.render(text, verbose, NOW + 10 * index - 0.25, code)
        if later is not None:  # what the detached child does once the answer is out
            later()
        for fields, kept in spooled:  # what the run's writer does with a short run's output
            goexec.save_spooled(fields, kept)
        spooled.clear()
        raws = sorted((root / ".sidekit" / "go").glob("raw-*"))
        found[step] = {
            "printed": RAW_NAME.sub("RAW-", printed),
            "raw": raws[-1].read_text(encoding="utf-8") if raws and "compacted" in printed else "",
            "summary": (root / ".sidekit" / "status.json").read_text(encoding="utf-8"),
            "table": (root / ".sidekit" / "status-tests.json").read_text(encoding="utf-8"),
        }
        for raw in raws:
            raw.unlink()
    replayed: dict[str, dict[str, str]] = json.loads(json.dumps(found).replace(str(root), "@ROOT@"))
    return replayed


def test_recorded_outputs_print_and_cache_as_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    # a root of one length wherever the suite runs: the goroutine dumps name it, and the byte counts
    # printed count it (pytest's tmp_path varies in length with the test's name and the run's
    # number)
    base = Path(tempfile.mkdtemp(prefix="sidekit-replay-", dir="/tmp"))
    try:
        found = replay(base / "m", monkeypatch)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    if os.environ.get("SIDEKIT_WRITE_REPLAY") == "1":
        EXPECTED.write_text(
            json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    expected: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert list(found) == list(expected)
    for step, parts in expected.items():
        for part, text in parts.items():
            assert found[step][part] == text, f"{step}: {part}"


def test_the_recording_covers_what_the_red_path_meets() -> None:
    """The steps print compact answers and text as it is, and cluster at project functions and
    frames."""
    expected: dict[str, Any] = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert [
        s for s, p in expected.items() if not p["printed"].startswith("sidekit: go test output")
    ] == [
        "boom panic",
        "slow timeout",
        "calc short green",
    ]
    assert expected["calc short green"]["printed"] == "PASS\n"
    table = json.loads(expected["calc short green"]["table"])["tests"]
    spots = {
        str(e["f"].get("at")) + " " + str(e["f"].get("checks", ""))
        for e in table.values()
        if "f" in e
    }
    assert (
        "calc/calc.go:7 Double, asserted at calc/calc_test.go:19" in spots
    )  # the checked function
    assert "calc/calc_test.go:36 " in spots  # a helper handed t: the test's own line
    assert "boom/boom.go:5 " in spots  # a panic: its innermost project frame
    assert (
        "calc/calc.go:24 Ratio, asserted at calc/calc_test.go:26" in spots
    )  # non-ASCII name and message


def test_the_runs_later_red_packages_print_one_line_each_after_its_first_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """go runs its packages' binaries side by side: the first red one to answer prints the run's
    answer, each later one its counts and top cluster (go-cmp with a planted bug: one answer per
    package)."""
    root = tmp_path / "m"
    shutil.copytree(CASES / "module", root)
    (root / ".git").mkdir()
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(root))
    monkeypatch.setattr(spool, "spool", lambda *args: None)
    printed = []
    for package, code in (("calc", 1), ("boom", 2), ("calc", 1)):
        monkeypatch.chdir(root / package)
        _root, out, _later = goexec.render(recorded(package, root), False, NOW, code)
        printed.append(
            re.sub(r"\([\d,]+ B\)", "(N B)", RAW_NAME.sub("RAW-", out))
        )  # its size holds the root's path
    first, boom, calc = printed
    assert (
        first.startswith("sidekit: go test output (N B)")
        and '"runner":"go","package":"calc"' in first
    )
    assert boom == (
        "sidekit: go test output of boom (N B) compacted; exit code 1; all of it: RAW-boom.txt\n"
        '{"package":"boom","exit":1,"passed":1,"failed":1,"clusters":[{"id":"ea1ceefd","type":"runtime error",'
        '"at":"boom/boom.go:5","message":"index out of range [5] with length 2"}]}\n'
    )
    assert calc.startswith(
        "sidekit: go test output of calc (N B) compacted; exit code 1; all of it: RAW-calc.txt\n"
    )
    line = json.loads(calc.splitlines()[1])
    assert (
        line["failed"],
        line["moreClusters"],
        line["clusters"][0]["at"],
        line["clusters"][0]["affected"],
    ) == (
        42,
        5,
        "calc/calc.go:7",
        37,
    )
    assert len(calc.encode()) < len(first.encode()) * 0.6
