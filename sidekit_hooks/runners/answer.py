"""The compact answer of one runner's run, for `sidekit test` and for a compacted raw run.

Never greener than the run: the exit code is the process's own and always stated; a red run with
no failing test to show (a build error, a crash, a timeout outside any test) carries the runner's
own last words; zero tests run is `noTests`, not a pass.
"""

from __future__ import annotations

from sidekit_hooks.answers import render, shape
from sidekit_hooks.runners import Result
from sidekit_hooks.status import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SHORT = 2048  # bytes of raw output printed as they are
ANSWER_BUDGET = 780  # both lines of a compacted run; the client adds "Exit code N\n", the model gets <= 800


def run_answer(
    summary: dict[str, Any],
    table: dict[str, Any],
    result: Result,
    budget: int = shape.TEST_BUDGET,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`sidekit test`'s answer for a run `result` just written into the cache."""
    run = summary.get("run") or {}
    found = record.run_clusters(summary, table)
    failing = sum(int(c.get("affected", 1)) for c in found)
    answer: dict[str, Any] = {
        **({"generation": summary["generation"]} if "generation" in summary else {}),  # none before a merge
        "runner": result.runner,
        **(extra or {}),
        "exit": result.exit,
        **shape.counts(run.get("counts") or {}),
    }
    if not run.get("ran") and not result.errors:
        answer["state"] = "noTests"
    answer["buildErrors"] = len(result.errors)  # packages, crates or reports that failed outside any test
    if result.exit and not failing:
        answer["said"] = render.clip(result.last_words, 140)
    answer["secs"] = round(float(run.get("finished", 0)) - float(run.get("started", 0)), 2)
    answer["interrupted"] = bool(run.get("interrupted"))
    answer["newFailures"] = sum(int(c.get("new", 0)) for c in found)
    return shape.with_clusters(shape.drop_zeros(answer), found, 0, failing, budget, 80)


def compacted(runner: str, raw: str, saved: str, exit_code: int, answer: dict[str, Any]) -> str:
    """The two lines a compacted raw run prints: what happened and where the raw output is; the answer."""
    head = (
        f"sidekit: {runner} output ({len(raw.encode('utf-8', 'replace')):,} B) compacted; exit code {exit_code}; "
        f"all of it: {saved} (prefix the command with SIDEKIT_RAW=1 to see it raw)\n"
    )
    return head + render.dumps(answer) + "\n"


def head_budget(runner: str, raw: str, saved: str, exit_code: int) -> int:
    return ANSWER_BUDGET - len(compacted(runner, raw, saved, exit_code, {}).encode("utf-8")) + 3


def none() -> dict[str, Any]:
    """No runner found for the project: that, and nothing else."""
    return {"runner": "none"}
