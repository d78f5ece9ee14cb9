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
# both lines of a compacted run; the client adds "Exit code N\n", the model gets <= 800
ANSWER_BUDGET = 780
LATER_FIELDS = (
    "id",
    "type",
    "at",
    "message",
    "affected",
)  # a later package's top cluster: the handle, where, what
LATER_MESSAGE = 60  # characters of its message


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
        **(
            {"generation": summary["generation"]} if "generation" in summary else {}
        ),  # none before a merge
        "runner": result.runner,
        **(extra or {}),
        "exit": result.exit,
        **shape.counts(run.get("counts") or {}),
    }
    if not run.get("ran") and not result.errors:
        answer["state"] = "noTests"
    answer["buildErrors"] = len(
        result.errors
    )  # packages, crates or reports that failed outside any test
    if result.exit and not failing:
        answer["said"] = render.clip(result.last_words, 140)
    answer["secs"] = round(float(run.get("finished", 0)) - float(run.get("started", 0)), 2)
    answer["interrupted"] = bool(run.get("interrupted"))
    answer["newFailures"] = sum(int(c.get("new", 0)) for c in found)
    return shape.with_clusters(shape.drop_zeros(answer), found, 0, failing, budget, 80)


def compacted(runner: str, raw: str, saved: str, exit_code: int, answer: dict[str, Any]) -> str:
    """The two lines a compacted raw run prints: what happened and where the raw output is; the
    answer."""
    head = (
        f"sidekit: {runner} output ({len(raw.encode('utf-8', 'replace')):,} B) compacted; exit "
        f"code {exit_code}; "
        f"all of it: {saved} (prefix the command with SIDEKIT_RAW=1 to see it raw)\n"
    )
    return head + render.dumps(answer) + "\n"


def later_package(
    runner: str,
    package: str,
    raw: str,
    saved: str,
    exit_code: int,
    summary: dict[str, Any],
    table: dict[str, Any],
    result: Result,
) -> str:
    """What a red package prints when another package of the same run already printed a compact
    answer (go runs its packages' binaries side by side): its counts and its top cluster in one
    short line, under a head that names the package and its raw output; the first answer said the
    rest."""
    run = summary.get("run") or {}
    found = record.run_clusters(summary, table)
    body: dict[str, Any] = {
        "package": package,
        "exit": exit_code,
        **shape.counts(run.get("counts") or {}),
    }
    body["buildErrors"] = len(result.errors)
    if exit_code and not any(int(c.get("affected", 1)) for c in found):
        body["said"] = render.clip(result.last_words, 100)
    if found:
        top = shape.brief(found[0], LATER_MESSAGE)
        body["clusters"] = [{key: top[key] for key in LATER_FIELDS if key in top}]
        body["moreClusters"] = len(found) - 1
    head = (
        f"sidekit: {runner} output of {package} ({len(raw.encode('utf-8', 'replace')):,} B) "
        "compacted; "
        f"exit code {exit_code}; all of it: {saved}\n"
    )
    return head + render.dumps(shape.drop_zeros(body)) + "\n"


def head_budget(runner: str, raw: str, saved: str, exit_code: int) -> int:
    return ANSWER_BUDGET - len(compacted(runner, raw, saved, exit_code, {}).encode("utf-8")) + 3


def none() -> dict[str, Any]:
    """No runner found for the project: that, and nothing else."""
    return {"runner": "none"}
