"""Raw pytest through Bash: the `sidekit test` hint, after a long red run only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from testing.hooks import bash, context_of

PYTEST_LINE = "[sidecar:tools] `sidekit test{}` runs pytest and answers in one compact line; `sidekit failures` has the details."

CASES = [
    ("pytest -q tests/test_api.py", PYTEST_LINE.format(" tests/test_api.py")),
    ("python3 -m pytest -x", PYTEST_LINE.format("")),
    (
        "cd app && uv run pytest tests/test_a.py::test_b -q",
        PYTEST_LINE.format(" tests/test_a.py::test_b"),
    ),
    ("PYTHONPATH=. .venv/bin/pytest", PYTEST_LINE.format("")),
    ("pytest --version", None),
    ("pytest --collect-only -q", None),
    ("sidekit test tests/test_api.py", None),
    ("pytest -q 2>&1 | tail -20", PYTEST_LINE.format("")),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_raw_pytest(
    command: str, expected: str | None, catalog: Callable[[str], list[str]]
) -> None:
    assert catalog(command) == ([expected] if expected else [])


LONG_RED = "".join(
    f"tests/test_api.py:{n}: AssertionError: assert {n} == {n + 1}\n" for n in range(60)
) + ("FAILED tests/test_api.py::test_x - AssertionError\n60 failed, 2 passed in 0.31s\n")


def test_hook_catalog_on_a_long_red_raw_pytest_run(project: Path, run_hook: Any) -> None:
    # Piped through `tail`, a red run exits 0: PostToolUse, and pages of tracebacks reached the
    # model.
    piped = "python -m pytest tests/test_api.py -q 2>&1 | tail -80"
    done = run_hook("PostToolUse", bash(project, piped, stdout=LONG_RED))
    assert done.returncode == 0
    assert context_of(done.stdout) == PYTEST_LINE.format(" tests/test_api.py")


@pytest.mark.parametrize(
    "output",
    [
        "",
        # short: it cost next to nothing
        "..F\nFAILED tests/test_api.py::test_x\n1 failed, 2 passed in 0.05s\n",
        "." * 4000 + "\n4000 passed in 3.10s\n",  # green: the last line said it all
    ],
)
def test_no_raw_run_hint_after_a_short_or_green_run(
    project: Path, run_hook: Any, output: str
) -> None:
    done = run_hook(
        "PostToolUse", bash(project, "python -m pytest tests/test_api.py -q", stdout=output)
    )
    assert (done.returncode, done.stdout) == (0, "")


def test_failed_raw_pytest_is_left_to_the_tests_sidecar_and_rules(
    project: Path, run_hook: Any
) -> None:
    done = run_hook(
        "PostToolUseFailure",
        bash(
            project,
            "python -m pytest tests/test_api.py -q",
            error="Exit code 1\n1 failed, 3 passed",
        ),
    )
    assert (done.returncode, context_of(done.stdout)) == (0, "")
