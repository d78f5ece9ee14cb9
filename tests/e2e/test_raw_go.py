"""Raw `go test ./...` through Bash in the real Claude Code CLI (2.1.328): what reached the model
(#20).

The project is wired the README's way (`sidekit install --project`); the scripted model runs go test
itself. One planted bug fails 30 table-driven subtests.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from testing import requires
from testing.bash_runs import answer, bash_session
from testing.code import write

CALC = (
    "package calc\n\n// Clamp keeps n within [lo, hi].\nfunc Clamp(n, lo, hi int) int {\n\tif n < "
    "lo {\n"
    "\t\treturn lo\n\t}\n\tif n > hi {\n\t\treturn hi - 1 // the planted bug\n\t}\n\treturn n\n}\n"
)
CALC_TEST = """package calc

import (
\t"fmt"
\t"testing"
)

func TestClamp(t *testing.T) {
\tfor n := 100; n < 130; n++ {
\t\tt.Run(fmt.Sprint(n), func(t *testing.T) {
\t\t\tif got := Clamp(n, 0, 10); got != 10 {
\t\t\t\tt.Errorf("Clamp(%d, 0, 10) = %d, want 10", n, got)
\t\t\t}
\t\t})
\t}
}

func TestInside(t *testing.T) {
\tif Clamp(5, 0, 10) != 5 {
\t\tt.Fatal("inside")
\t}
}
"""


@pytest.fixture
def wired(project: Path, sidekit: Callable[..., str]) -> Path:
    requires.program("go", "install Go")
    write(
        project,
        {
            "go.mod": "module example.com/calc\n\ngo 1.21\n",
            "calc/calc.go": CALC,
            "calc/calc_test.go": CALC_TEST,
        },
    )
    sidekit("install", "--project", str(project))
    return project


def go_env() -> dict[str, str]:
    """The agent's go shares this machine's build cache (its HOME is a fresh folder)."""
    cache = subprocess.run(
        ["go", "env", "GOCACHE"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return {"GOCACHE": cache, "GOFLAGS": "-count=1", "PATH": os.environ.get("PATH", "")}


def test_a_red_go_test_reaches_the_model_compact_and_still_failed(
    claude_cli: Path, wired: Path, tmp_path: Path
) -> None:
    run = bash_session(
        claude_cli,
        wired,
        tmp_path / "home",
        ["go test ./...", "SIDEKIT_RAW=1 go test ./..."],
        env=go_env(),
    )
    (compact, body, reminders), (raw, raw_body, _) = answer(run, 0), answer(run, 1)
    print(
        f"\nmodel received {len(raw_body.encode())} B raw, {len(body.encode())} B compact:\n{body}"
    )
    assert compact["is_error"] is True and reminders == []
    assert len(body.encode()) <= 800, body
    assert body.startswith("Exit code 1\nsidekit: go test output (") and "exit code 1" in body
    assert (
        '"runner":"go"' in body
        and '"exit":1' in body
        and '"failed":30' in body
        and '"passed":1' in body
    )
    assert (
        '"at":"calc/calc.go:4","checks":"Clamp, asserted at calc/calc_test.go:12"' in body
    )  # the function
    assert ".sidekit/go/raw-" in body
    assert body.rstrip().endswith("FAIL")  # go's own verdict follows
    assert (
        raw["is_error"] is True
        and "sidekit:" not in raw_body
        and len(raw_body.encode()) > 2 * len(body.encode())
    )
