"""The eval suite's plumbing (evals/, docs/evals.md), through the real `claude plugin eval` of
Claude Code 2.1.328 and a scripted model on loopback: the suite loads, every scaffold builds its
workspace, the plugin's hooks fire in the "with" arm and never in the "without" arm, and each free
grader reads what it should. The scores themselves come from a real model on a user's account; here
every case plays a fixed script, chosen so that each grader's verdict is known in advance.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing import requires
from testing.claude import REQUIRED_ENV, Step, ToolCall
from testing.hooks import REPO
from testing.plugin_eval import (
    RUNS_FOLDER,
    SuiteRun,
    plugin_view,
    remove_kept,
    run_suite,
    suite_cases,
)

SLUG_COPY = (
    '"""Product URLs."""\n\nimport re\n\n\ndef make_slug(value: str) -> str:\n    value = '
    "value.strip().lower()\n"
    '    value = re.sub(r"[^a-z0-9]+", "-", value)\n    value = re.sub(r"-{2,}", "-", value)\n'
    '    return value.strip("-")\n\n\ndef product_url(name: str) -> str:\n    return "/p/" + '
    "make_slug(name)\n"
)

# case -> (a phrase of its prompt, the scripted agent's steps, each grader's expected verdict per
# arm). The scripts make the usual slips (the out-of-scope edit, the 400, the copied helper, the
# camelCase def), so the with arm's sidecars have something to say; the verdicts are then the same
# in both arms except for the with-only indicators, which the without arm does not have at all.
SCRIPTS: dict[str, tuple[str, list[Step], dict[str, bool]]] = {
    "scope-out-of-scope-trap": (
        "Ticket SHOP-12",
        [
            ToolCall("Read", {"file_path": "shop/pricing.py"}),
            ToolCall(
                "Edit",
                {
                    "file_path": "shop/pricing.py",
                    "old_string": "int(amount",
                    "new_string": "round(amount",
                },
            ),
            "The cause was to_cents in shop/pricing.py; it now rounds.",
        ],
        {"pricing-untouched": False, "cart-rounds": False, "reply-names-the-cause": True},
    ),
    "scope-shell-write": (
        "Ticket OPS-7",
        [
            ToolCall(
                "Bash",
                {"command": "sed -i 's/8000/8080/g' src/app/settings.py deploy/service.yaml"},
            ),
            "Changed the port in src/app/settings.py and deploy/service.yaml.",
        ],
        {"app-moved": True, "deploy-untouched": False, "reply-mentions-deploy": True},
    ),
    "specs-status-422": (
        "make create_user reject",
        [
            ToolCall("Read", {"file_path": "api/handlers/user.py"}),
            ToolCall(
                "Edit",
                {
                    "file_path": "api/handlers/user.py",
                    "old_string": '    return {"id": 1',
                    "new_string": '    if not payload.get("name"):\n        return {"code": '
                    '"invalid"}, 400\n'
                    '    return {"id": 1',
                },
            ),
            "create_user now rejects a payload without a name.",
        ],
        {"answers-422": False, "no-400-left": False},
    ),
    "tools-reuse-helper": (
        "Create shop/urls.py",
        [
            ToolCall("Write", {"file_path": "shop/urls.py", "content": SLUG_COPY}),
            "Wrote shop/urls.py.",
        ],
        {"wrote-urls": True, "reuses-slugify": False, "no-second-slug-regex": False},
    ),
    "conventions-learned-style": (
        "Add a function to shop/orders.py",
        [
            ToolCall("Read", {"file_path": "shop/orders.py"}),
            ToolCall(
                "Edit",
                {
                    "file_path": "shop/orders.py",
                    "old_string": "    return rows[0] if rows else default\n",
                    "new_string": "    return rows[0] if rows else default\n\n\n"
                    'def totalQty(rows):\n    return sum(row["qty"] for row in rows)\n',
                },
            ),
            "Added totalQty.",
        ],
        {"new-function-added": True, "snake-case-only": False, "every-def-has-return-type": False},
    ),
    "tests-red-cascade-root-cause": (
        "The test suite is red",
        [
            ToolCall("Bash", {"command": ".venv/bin/python -m pytest -q"}),
            "The root cause is parse_price in shop/money.py: it keeps one digit of the cents.",
        ],
        {
            "names-the-function": True,
            "names-the-file": True,
            "ran-the-tests": True,
            "changed-nothing": True,
        },
    ),
    "economy-pytest-hundred-failures": (
        "fix whatever makes them fail",
        [
            ToolCall("Bash", {"command": ".venv/bin/python -m pytest -q"}),
            ToolCall("Read", {"file_path": "shop/money.py"}),
            ToolCall(
                "Edit",
                {
                    "file_path": "shop/money.py",
                    "old_string": "int(cents[:1] or 0)",
                    "new_string": "int(cents[:2] or 0)",
                },
            ),
            ToolCall("Bash", {"command": ".venv/bin/python -m pytest -q"}),
            "Fixed parse_price in shop/money.py; all 121 tests pass.",
        ],
        {
            "fixed-parse-price": True,
            "tests-untouched": True,
            "reply-says-green": True,
            "ran-the-tests-twice": True,
        },
    ),
    "economy-go-red-cascade": (
        "go test ./... is red",
        [
            ToolCall("Bash", {"command": "go test ./..."}),
            "The root cause is ParseCents in money/money.go: it keeps one digit of the cents.",
        ],
        {
            "names-the-function": True,
            "names-the-file": True,
            "ran-go-test": True,
            "changed-nothing": True,
        },
    ),
}
# The with-only indicators: the plugin's own mark in the run's trace (a nudge, or a compacted run).
INDICATORS = {
    "scope-out-of-scope-trap": "plugin-fired-scope",
    "scope-shell-write": "plugin-fired-scope",
    "specs-status-422": "plugin-fired-specs",
    "tools-reuse-helper": "plugin-fired-tools",
    "conventions-learned-style": "plugin-fired-conventions",
    "tests-red-cascade-root-cause": "plugin-compacted-the-run",
    "economy-pytest-hundred-failures": "plugin-compacted-the-run",
    "economy-go-red-cascade": "plugin-compacted-the-run",
}


COMPACTED = "plugin-compacted-the-run"
SANDBOX_DENIES_WRITES = Path("/tmp")  # the eval's Bash sandbox settings: denyWrite //tmp


def compaction_runs_here(case: str) -> None:
    """A case whose run the plugin compacts runs sidekit's wrapper from the checkout inside the
    eval's Bash sandbox; from a checkout under /tmp (where that sandbox denies writes) those runs
    are left raw, seen on 2.1.328 (the same suite passes from a checkout elsewhere). Listed as not
    run there, never hidden."""
    if INDICATORS[case] == COMPACTED and REPO.resolve().is_relative_to(SANDBOX_DENIES_WRITES):
        requires.not_run_here(
            f"{case}: the checkout is under {SANDBOX_DENIES_WRITES}, where claude plugin eval's "
            "Bash sandbox "
            "denies writes; run from a checkout elsewhere"
        )


@pytest.fixture(scope="module")
def suite(claude_cli: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SuiteRun]:
    """The whole suite, once, one run per arm per case."""
    missing = [tool for tool in ("bwrap", "socat") if shutil.which(tool) is None]
    if missing:  # a granted Bash needs the OS sandbox: without it every run is refused
        why = f"{' and '.join(missing)} not found: `claude plugin eval` refuses a granted Bash without the sandbox"
        fix = " (apt-get install bubblewrap socat; .ci/run installs them)"
        if os.environ.get(REQUIRED_ENV):
            pytest.fail(why + fix, pytrace=False)
        pytest.skip(why + fix)
    folder = tmp_path_factory.mktemp("plugin-eval")
    scripts = {marker: steps for marker, steps, _ in SCRIPTS.values()}
    runs = RUNS_FOLDER / str(os.getpid())
    try:
        yield run_suite(
            claude_cli,
            plugin_view(folder / "plugin"),
            scripts,
            folder / "home",
            folder / "out",
            runs,
        )
    finally:
        remove_kept(runs)


def test_every_case_has_a_script_and_the_suite_has_one_per_sidecar() -> None:
    assert suite_cases() == sorted(SCRIPTS)
    assert {name.split("-")[0] for name in SCRIPTS} == {
        "scope",
        "specs",
        "tools",
        "conventions",
        "tests",
        "economy",
    }


def test_the_suite_loads_and_every_case_ran_in_both_arms(suite: SuiteRun) -> None:
    assert [case["name"] for case in suite.result["cases"]] == sorted(SCRIPTS), suite.stderr[-3000:]
    assert suite.result["suite"]["ablation"] == "with-without"
    assert sorted((run.case, run.arm, run.error) for run in suite.runs) == sorted(
        (case, arm, None) for case in SCRIPTS for arm in ("with", "without")
    )


@pytest.mark.parametrize("case", sorted(SCRIPTS))
def test_the_scaffold_built_the_workspace(suite: SuiteRun, case: str) -> None:
    for arm in ("with", "without"):
        workspace = suite.arm(case, arm).workspace
        assert (workspace / ".git").is_dir() and any(workspace.glob("*/*")), (
            f"{case}/{arm}: empty workspace"
        )


@pytest.mark.parametrize("case", sorted(SCRIPTS))
def test_the_hooks_fire_with_the_plugin_and_never_without(suite: SuiteRun, case: str) -> None:
    compaction_runs_here(case)
    with_arm, without = suite.arm(case, "with"), suite.arm(case, "without")
    assert with_arm.verdicts[INDICATORS[case]] is True
    assert (
        INDICATORS[case] not in without.verdicts
    )  # with-only: the baseline arm does not even grade it
    # The first session's setup (SessionStart) notes itself; nothing of sidekit's runs in the
    # baseline.
    assert (with_arm.workspace / ".sidekit" / "plugin-setup.json").exists()
    assert not (without.workspace / ".sidekit" / "plugin-setup.json").exists()
    assert not (without.workspace / ".sidekit" / "log").exists()
    for mark in ("[sidecar:", "sidekit: "):
        assert mark not in without.trace


@pytest.mark.parametrize("case", sorted(SCRIPTS))
def test_the_free_graders_read_what_they_should(suite: SuiteRun, case: str) -> None:
    compaction_runs_here(case)
    expected = SCRIPTS[case][2]
    assert suite.arm(case, "without").verdicts == expected
    assert suite.arm(case, "with").verdicts == {**expected, INDICATORS[case]: True}


@pytest.mark.parametrize(
    "case", sorted(case for case, mark in INDICATORS.items() if mark == COMPACTED)
)
def test_the_compacted_run_is_logged_with_what_it_saved(suite: SuiteRun, case: str) -> None:
    """What `sidekit report` headlines: the raw bytes of the run against the bytes the model got."""
    compaction_runs_here(case)
    log = suite.arm(case, "with").workspace / ".sidekit" / "log" / "decisions.jsonl"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    compacted = [record for record in records if record["decision"] == "compacted"]
    assert compacted, records
    assert all(record["raw"] > 2 * record["answer"] > 0 for record in compacted)
    assert {record["runner"] for record in compacted} == {"go test" if "go" in case else "pytest"}
