"""The byte budgets of docs/usage.md on worst cases: 1,000 failures, 200 clusters, long non-ASCII
messages, deep paths."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.answers import render, shape
from sidekit_hooks.cli.commands.test import run_clusters
from sidekit_hooks.status import cache, record
from testing.status import Suite, suite  # noqa: F401 - the fixture

DEEP = "/".join(f"level_{i:02d}_of_a_deeply_nested_package" for i in range(6))
LONG = "значение «ключ» 漢字テスト é " * 40  # ~1,200 characters of non-ASCII (the plugin keeps 300)


def fake_run(finished: float) -> dict[str, Any]:
    return {
        "id": "r",
        "started": finished - 3,
        "finished": finished,
        "exit": 1,
        "args": [],
        "selected": 0,
        "ran": 0,
        "interrupted": False,
        "complete": True,
    }


def worst_cache(
    root: Path, failures: int, distinct: int, passed: int = 0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A cache on disk as a run of `failures` failing tests from `distinct` causes would leave
    it."""
    files = max(1, min(distinct, 200))
    for index in range(files):
        path = root / DEEP / f"test_module_{index:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    tests: dict[str, dict[str, Any]] = {}
    for index in range(failures):
        cause = index % distinct
        file = f"{DEEP}/test_module_{cause % files:03d}.py"
        node = f"{file}::TestSomethingRatherLong::test_case[{LONG[:40]}-{index}-{'x' * 30}]"
        tests[node] = {
            "o": "failed",
            "p": "call",
            "d": 0.01,
            "f": {
                "type": "VeryLongCustomExceptionNameForTestingBudgetsError",
                "module": "pkg.errors",
                "message": f"{index} {LONG}",
                "at": f"{DEEP}/helpers_{cause}.py:{1000 + cause}",
                "frame": f"{file}:{cause + 1}",
                "frames": [f"{file}:{cause + 1} in test_case"],
                "cause": f"UnicodeDecodeError: {LONG[:300]}",
            },
        }
    for index in range(passed):
        tests[f"{DEEP}/test_module_000.py::test_ok[{index}]"] = {"o": "passed", "d": 0.001}
    run = fake_run(time.time())
    summary, table = record.merge(str(root), run, tests, {}, None)
    summary["runner"] = "pytest"
    summary["plugins"] = ["xdist", "cov", "timeout", "randomly", "asyncio", "benchmark"]
    cache.write(cache.summary_path(str(root)), summary)
    cache.write(cache.table_path(str(root)), table)
    return dict(summary), dict(table)  # as the renderers read them


@pytest.mark.parametrize(("failures", "distinct"), [(1000, 200), (1000, 1), (100, 100), (1, 1)])
def test_full_status_fits_400_bytes_and_counts_what_it_cut(
    project: Path, failures: int, distinct: int
) -> None:
    summary, _ = worst_cache(project, failures, distinct)
    answer = shape.status(summary, (["a/" * 80 + "x.py"], 5000, True), time.time())
    assert render.size(answer) <= shape.STATUS_BUDGET
    shown = sum(c.get("affected", 1) for c in answer.get("clusters", []))
    assert shown + answer.get("moreFailures", 0) == failures
    assert len(answer.get("clusters", [])) + answer.get("moreClusters", 0) == distinct


@pytest.mark.parametrize(("failures", "distinct"), [(100, 100), (1000, 200), (1000, 3)])
def test_test_answer_with_many_distinct_failures_fits_800_bytes(
    project: Path, failures: int, distinct: int
) -> None:
    summary, table = worst_cache(project, failures, distinct)
    found = run_clusters(summary, table)
    answer = shape.test_run(summary, found, {"selected": 1000, "basis": "coverage map"})
    text = render.dumps(answer)
    assert render.size(answer) <= shape.TEST_BUDGET, text
    assert answer["clusters"], "at least the biggest cluster is shown"
    shown = sum(c.get("affected", 1) for c in answer["clusters"])
    assert shown + answer.get("moreFailures", 0) == failures
    assert len(answer["clusters"]) + answer.get("moreClusters", 0) == distinct


def test_green_test_answer_fits_200_bytes(project: Path) -> None:
    summary, table = worst_cache(project, 0, 1, passed=5000)
    summary["generation"] = 9_999_999
    summary["run"]["counts"] = {"passed": 99999, "skipped": 9999, "xfailed": 999, "xpassed": 99}
    answer = shape.test_run(
        summary, run_clusters(summary, table), {"selected": 99999, "basis": "all"}
    )
    assert render.size(answer) <= 200, render.dumps(answer)
    assert answer["passed"] == 99999 and "clusters" not in render.compact(answer)


def test_unchanged_fits_40_bytes() -> None:
    answer = shape.unchanged(99_999_999)  # eight digits: a hundred million changes of the cache
    assert render.dumps(answer) == '{"generation":99999999,"unchanged":true}'
    assert render.size(answer) <= shape.UNCHANGED_BUDGET


def test_cli_status_on_the_worst_cache_is_one_line_within_budget(suite: Suite) -> None:
    worst_cache(suite.root, 1000, 200)
    answer, line, code = suite.answer("status")
    assert code == 0 and len(line.encode()) <= shape.STATUS_BUDGET
    assert answer["failed"] == 1000 and answer["moreClusters"] >= 199
    again, line, _ = suite.answer("status", "--since", str(answer["generation"]))
    assert again.get("unchanged") is not True  # pytest.ini was written after the (fake) run: stale
    assert again["stale"] is True and line.encode().__len__() <= shape.STATUS_BUDGET
    json.dumps(again)


DOTNET_LONG = (
    "Expected the ledger «значение» to balance after the transfer of " + "漢字テスト é " * 60
)


def dotnet_run(root: Path, failures: int, distinct: int, passed: int = 0) -> dict[str, Any]:
    """`dotnet test`'s answer for a TRX of `failures` failing tests from `distinct` causes (deep
    namespaces, long non-ASCII messages, a frame each in a deep project file), as `sidekit test`
    gives it."""
    from sidekit_hooks.runners import compact, store
    from sidekit_hooks.runners.dotnet import adapter
    from testing import trx

    namespace = ".".join(f"Level{i:02d}OfADeeplyNestedNamespace" for i in range(6))
    folder = root / DEEP
    for cause in range(distinct):
        (folder / f"Helpers{cause}.cs").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"Helpers{cause}.cs").write_text("")
    results = [
        (
            f"{namespace}.LedgerTests{index % distinct}",
            f"{namespace}.LedgerTests{index % distinct}.Transfers_balance(amount: {index}, note: "
            f'"{"x" * 30}")',
            "Failed",
            f"System.InvalidOperationException : {index} {DOTNET_LONG}",
            f"   at {namespace}.Helpers{index % distinct}.Check() in "
            f"{folder}/Helpers{index % distinct}.cs:line {1000 + index % distinct}",
        )
        for index in range(failures)
    ]
    results += [
        (f"{namespace}.Green", f"Passes{index}", "Passed", "", "") for index in range(passed)
    ]
    report = trx.write(root / "tests" / "TestResults" / "budget.trx", results)
    result = adapter.from_run(
        str(root), time.time() - 3, 1 if failures else 0, "", [str(report)], "vstest"
    )
    summary, table = store.save(str(root), result)
    return compact.run_answer(dict(summary), dict(table), result)


@pytest.mark.parametrize(("failures", "distinct"), [(100, 100), (1000, 200), (1000, 3)])
def test_dotnet_red_run_answer_fits_800_bytes(project: Path, failures: int, distinct: int) -> None:
    found = dotnet_run(project, failures, distinct)
    assert render.size(found) <= shape.TEST_BUDGET, render.dumps(found)
    assert found["runner"] == "vstest" and found["exit"] == 1 and found["failed"] == failures
    shown = sum(c.get("affected", 1) for c in found["clusters"])
    assert shown + found.get("moreFailures", 0) == failures
    assert len(found["clusters"]) + found.get("moreClusters", 0) == distinct


def test_dotnet_green_run_answer_fits_200_bytes(project: Path) -> None:
    found = dotnet_run(project, 0, 1, passed=5000)
    assert render.size(found) <= 200, render.dumps(found)
    assert found["passed"] == 5000 and "clusters" not in render.compact(found)


RICH_MESSAGE = (
    "expected Decimal(1.5) to equal Decimal(15) after NewFromString parsed the fractional part " * 3
)


def rich_cluster(index: int, affected: int) -> dict[str, Any]:
    """A cluster whose every part is long: a place, a frame, `checks`, a message, an example
    test."""
    folder = "pkg/very/deep/folder"
    return {
        "id": f"c{index}",
        "type": "AssertionError",
        "phase": "call",
        "at": f"{folder}/number_{index}.go:{500 + index}",
        "frame": f"{folder}/number_{index}_test.go:{320 + index}",
        "checks": f"TrimDecimal{index}, asserted at {folder}/number_{index}_test.go:{320 + index} "
        * 2,
        "message": RICH_MESSAGE,
        "tests": [
            f"{folder}::TestNumberFormatting{index}/case_with_a_long_name_{j}" for j in range(3)
        ],
        "variants": [["a", 1], ["b", 2]],
        "affected": affected,
    }


def test_status_names_the_top_clusters_place_when_its_whole_summary_does_not_fit() -> None:
    summary = {
        "generation": 7,
        "runner": "go",
        "counts": {"failed": 41, "passed": 400},
        "failing": 41,
        "run": {"finished": 100.0, "ran": 441},
        "clusters": [rich_cluster(1, 41)],
    }
    answer = shape.status(summary, None, 100.0)
    assert render.dumps(answer) == (
        '{"generation":7,"runner":"go","state":"failed","passed":400,"failed":41,"clusters":[{"id":"c1",'
        '"type":"AssertionError","at":"pkg/very/deep/folder/number_1.go:501","checks":"TrimDecimal1, asserted at '
        'pkg/very/deep/folder/…","message":"expected Decimal(1.5) to '
        'eq…","variants":2,"affected":41}]}'
    )


def test_a_run_with_three_failures_names_each_trimming_the_others_parts_first() -> None:
    summary = {
        "generation": 3,
        "runner": "go",
        "run": {"exit": 1, "counts": {"failed": 3, "passed": 9}, "started": 1.0, "finished": 2.0},
    }
    answer = shape.test_run(
        summary, [rich_cluster(1, 1), rich_cluster(2, 1), rich_cluster(3, 1)], {}
    )
    assert render.size(answer) <= shape.TEST_BUDGET
    assert render.dumps(answer) == (
        '{"generation":3,"runner":"go","exit":1,"passed":9,"failed":3,"secs":1.0,"clusters":[{"id":"c1",'
        '"type":"AssertionError","at":"pkg/very/deep/folder/number_1.go:501",'
        '"frame":"pkg/very/deep/folder/number_1_test.go:321","checks":"TrimDecimal1, asserted at '
        'pkg/very/deep/folder/number_1_test.go:321 TrimDecimal1, asserte…","message":"expected '
        "Decimal(1.5) to "
        'equal Decimal(15) after NewFromString parsed the fract…","variants":2,'
        '"first":"pkg/very/deep/folder::TestNumberFormatting1/case_with_a_long_name_0"},{"id":"c2",'
        '"type":"AssertionError","at":"pkg/very/deep/folder/number_2.go:502","message":"expected '
        'Decimal(1.5) t…"},'
        '{"id":"c3","type":"AssertionError","at":"pkg/very/deep/folder/number_3.go:503",'
        '"message":"expected Decimal(1.5) t…"}]}'
    )


def test_the_top_cluster_is_named_even_when_only_its_place_fits() -> None:
    head = {"runner": "go", "note": "x" * 300}
    answer = shape.with_clusters(head, [rich_cluster(1, 5), rich_cluster(2, 5)], 0, 10, 400, 80)
    assert render.dumps(answer) == (
        '{"runner":"go","note":"' + "x" * 300 + '","clusters":[{"id":"c1","type":"AssertionError",'
        '"at":"pkg/very/deep/folder/number_1.go:501","affected":5}],"moreClusters":1,"moreFailures":5}'
    )


def test_failures_without_arguments_stays_within_its_budget_and_says_how_to_get_more(
    project: Path,
) -> None:
    from sidekit_hooks.cli.commands import failures

    worst_cache(project, 1000, 200)
    answer = failures.answer(str(project), [])
    assert render.size(answer) <= shape.FAILURES_BUDGET, render.size(answer)
    listed = answer["clusters"]
    assert {k: v for k, v in answer.items() if k != "clusters"} == {
        "generation": answer["generation"],
        "runner": "pytest",
        "plugins": ["xdist", "cov", "timeout", "randomly", "+2"],
        "failing": 1000,
        "moreClusters": 200 - len(listed),
        "moreFailures": 1000 - sum(c["affected"] for c in listed),
        "hint": failures.HINT,
    }
    assert len(listed) >= shape.FEW and [len(c["tests"]) for c in listed] == [1] * len(listed)
    assert all(c["moreTests"] == c["affected"] - 1 for c in listed)


def test_failures_of_a_small_run_lists_every_test_without_a_hint(project: Path) -> None:
    from sidekit_hooks.cli.commands import failures

    worst_cache(project, 4, 2)
    answer = failures.answer(str(project), [])
    assert "hint" not in answer and "moreClusters" not in answer
    assert [len(c["tests"]) for c in answer["clusters"]] == [2, 2]
