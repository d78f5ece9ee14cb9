"""Writes tests/scenarios/tests.jsonl (the output is committed).

    .venv/bin/python tests/scenarios/build_tests.py

The tests sidecar reads the shared test cache, so the cases carry a real one: this script builds a
small shop project, records its test-impact map with `sidekit map`, runs pytest on it with the
sidekit plugin (subprocesses, as a user would), and embeds the project's files, the
`.sidekit/status.json` + `status-tests.json` the plugin wrote and the map's digest
`.sidekit/code/covers.json` in every case's `files`. The cache holds only workspace-relative paths;
what changes from one run to the next (run times, durations, the pytest command line) is pinned, so
the output is byte-identical on every run. The "just finished" caches carry `${NOW}` for their run
times, which the scenario player fills with the time it writes the files: the sidecar speaks after a
raw pytest run only when the cache says that run just finished, and a scenario cannot run pytest at
play time.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/: the shared build helpers (testing/)
from testing.scenario_build import (  # noqa: E402
    JUST_FINISHED,
    Case,
    Expect,
    cache_texts,
    case,
    counted,
    map_then_pytest,
    pinned,
    said,
    write_cases,
    write_tree,
)

LONG_AGO = 1700000000.0  # 2023-11-14: a cache the last pytest run left long before this session

PROJECT = {
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0.1.0"\n',
    "shop/__init__.py": "",
    "shop/money.py": (
        'def format_cents(cents: int) -> str:\n    return "{:d}.{:02d} EUR".format(cents // 100, '
        "cents % 100)\n"
    ),
    "shop/pricing.py": (
        'PRICES = {"apple": 50, "pear": 70}\n\n\n'
        "def unit_price(sku: str) -> int:\n    return PRICES[sku]\n\n\n"
        "def apply_discount(cents: int, percent: int) -> int:\n"
        "    return cents * (100 - percent) / 100  # the bug: true division makes a float\n"
    ),
    "shop/cart.py": (
        "from shop.money import format_cents\n"
        "from shop.pricing import apply_discount, unit_price\n\n\n"
        "def cart_total(items: dict[str, int]) -> int:\n"
        "    return sum(unit_price(sku) * count for sku, count in items.items())\n\n\n"
        "def cart_label(items: dict[str, int], percent: int = 0) -> str:\n"
        "    return format_cents(apply_discount(cart_total(items), percent))\n"
    ),
    "shop/shipping.py": (
        "def shipping_cents(weight_grams: int) -> int:\n    return 500 if weight_grams <= 1000 "
        "else 900\n"
    ),
    "shop/tax.py": 'VAT = {"de": 19, "fr": 20}\n\n\ndef vat_rate(country: str) -> int:\n    '
    "return VAT[country]\n",
    "tests/__init__.py": "",
    "tests/test_cart.py": (
        "from shop.cart import cart_label, cart_total\n\n\n"
        'def test_total():\n    assert cart_total({"apple": 2, "pear": 1}) == 170\n\n\n'
        'def test_label():\n    assert cart_label({"apple": 2}) == "1.00 EUR"\n\n\n'
        'def test_label_with_discount():\n    assert cart_label({"apple": 2}, percent=10) == '
        '"0.90 EUR"\n'
    ),
    "tests/test_money.py": (
        "from shop.money import format_cents\n\n\n"
        'def test_format_cents():\n    assert format_cents(1234) == "12.34 EUR"\n'
    ),
    "tests/test_pricing.py": (
        "from shop.pricing import apply_discount, unit_price\n\n\n"
        'def test_unit_price():\n    assert unit_price("pear") == 70\n\n\n'
        "def test_discount_takes_off():\n    assert apply_discount(1000, 25) == 750\n"
    ),
    "tests/test_shipping.py": (
        "from shop.shipping import shipping_cents\n\n\n"
        "def test_light_parcel():\n    assert shipping_cents(800) == 500\n\n\n"
        "def test_heavy_parcel():\n    assert shipping_cents(1500) == 900\n"
    ),
    "tests/test_tax.py": (
        "from shop.tax import vat_rate\n\n\n"
        'def test_vat_germany():\n    assert vat_rate("de") == 19\n\n\n'
        'def test_vat_austria():\n    assert vat_rate("at") == 20\n'
    ),
}
# The same project once the division is fixed and Austria is added: a green run.
FIXED = {
    **PROJECT,
    "shop/pricing.py": PROJECT["shop/pricing.py"].replace(
        "cents * (100 - percent) / 100  # the bug: true division makes a float",
        "cents * (100 - percent) // 100",
    ),
    "shop/tax.py": PROJECT["shop/tax.py"].replace('"fr": 20}', '"fr": 20, "at": 20}'),
}


def run_pytest(files: dict[str, str]) -> tuple[dict[str, str], str]:
    """`sidekit map`, then pytest with the sidekit plugin, on `files`; the files they wrote and
    pytest's last line."""
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, files)
        done = map_then_pytest(tmp)
        return cache_texts(tmp), short_summary(done.stdout)


def short_summary(stdout: str) -> str:
    """pytest's closing lines (the FAILED list and the counts), with the duration pinned."""
    lines = stdout.strip().splitlines()
    start = next(
        (i + 1 for i, line in enumerate(lines) if "short test summary info" in line), len(lines) - 1
    )
    return re.sub(r" in \d+\.\d+s$", " in 0.05s", "\n".join(lines[start:]))


RED, RED_LAST = run_pytest(PROJECT)
GREEN, GREEN_LAST = run_pytest(FIXED)
print("red run:", RED_LAST.replace("\n", " | "))
print("green run:", GREEN_LAST)
RED_NOW, RED_OLD, GREEN_NOW = (
    pinned(RED, JUST_FINISHED),
    pinned(RED, LONG_AGO),
    pinned(GREEN, JUST_FINISHED),
)
RED_SUMMARY = json.loads(RED_OLD[".sidekit/status.json"])
print("red summary files:", RED_SUMMARY["files"])
print("red coverage digest:", RED[".sidekit/code/covers.json"])


def edit(
    name: str,
    path: str,
    old: str,
    new: str,
    expect: Expect,
    cache: dict[str, str] | None = None,
    project: dict[str, str] = PROJECT,
) -> Case:
    """An Edit in `project`, with the red cache that just finished unless another `cache` is
    given."""
    assert old in project[path], (name, old)
    files = {**project, **(RED_NOW if cache is None else cache)}
    return case(
        name, files, "Edit", {"file_path": path, "old_string": old, "new_string": new}, expect
    )


def bash(
    name: str,
    command: str,
    expect: Expect,
    cache: dict[str, str],
    error: str = "",
    stdout: str = "",
    project: dict[str, str] = PROJECT,
) -> Case:
    """A test run through Bash: it failed with `error`, or printed `stdout`."""
    tool_input = {"command": command, "description": "run the tests"}
    return case(
        name,
        {**project, **cache},
        "Bash",
        tool_input,
        expect,
        stdout=None if error else stdout,
        error=error,
    )


def tests_said(contains: str = "", text: str = "") -> Expect:
    return said("tests", contains, text)


def tools_said(contains: str) -> Expect:
    return said("tools", contains)


RED_ERROR = "Exit code 1\n" + RED_LAST
POSITIVE, NEAR_MISS = "positive", "near miss"
C: list[tuple[str, dict[str, object]]] = []
# --- positives: an edit where failing tests pass through or live; a raw pytest run that left
# failures
C.append(
    (
        POSITIVE,
        edit(
            "edit-helper-failing-tests-pass-through",
            "shop/money.py",
            "{:d}.{:02d}",
            "{:.0f}.{:02.0f}",
            tests_said(
                text="[sidecar:tests] 2 tests that failed in the last run pass through "
                "shop/money.py (3 failed, 7 passed; 2 root causes);"
                " details: sidekit failures tests/test_cart.py::test_label; re-run: sidekit test "
                "tests/test_cart.py"
            ),
        ),
    )
)
C.append(
    (
        POSITIVE,
        edit(
            "edit-caller-failing-tests-pass-through",
            "shop/cart.py",
            "    return format_cents(apply_discount(cart_total(items), percent))",
            "    return format_cents(int(apply_discount(cart_total(items), percent)))",
            tests_said("pass through shop/cart.py"),
        ),
    )
)
C.append(
    (
        POSITIVE,
        edit(
            "edit-module-the-failing-test-raises-in",
            "shop/tax.py",
            '"fr": 20}',
            '"fr": 20, "at": 20}',
            tests_said("1 test that failed in the last run passes through shop/tax.py"),
        ),
    )
)
C.append(
    (
        POSITIVE,
        edit(
            "edit-failing-test-file",
            "tests/test_tax.py",
            '    assert vat_rate("at") == 20',
            '    assert vat_rate("at") == 20  # Austria joined in 1995',
            tests_said("1 test that failed in the last run lives in tests/test_tax.py"),
        ),
    )
)
C.append(
    (
        POSITIVE,
        {
            "name": "rewrite-helper-with-write",
            "files": {**PROJECT, **RED_NOW},
            "tool": "Write",
            "input": {
                "file_path": "shop/money.py",
                "content": "def format_cents(cents: int) -> str:\n"
                '    cents = int(cents)\n    return f"{cents // 100}.{cents % 100:02d} EUR"\n',
            },
            "expect": tests_said("pass through shop/money.py"),
        },
    )
)
C.append(
    (
        POSITIVE,
        bash(
            "raw-pytest-failed",
            "pytest -q",
            tests_said(
                text="[sidecar:tests] pytest: 3 failed, 7 passed; 2 root causes; biggest: "
                "ValueError at shop/money.py:2 (2 tests): sidekit failures 293fb437."
                " Next time `sidekit test` answers in one JSON line"
            ),
            RED_NOW,
            error=RED_ERROR,
        ),
    )
)
C.append(
    (
        POSITIVE,
        bash(
            "raw-python-m-pytest-failed",
            "python -m pytest -q tests/",
            tests_said("pytest: 3 failed, 7 passed"),
            RED_NOW,
            error=RED_ERROR,
        ),
    )
)
C.append(
    (
        POSITIVE,
        bash(
            "raw-uv-pytest-failed-after-cd",
            "cd shop && uv run pytest -x ..",
            tests_said("pytest: 3 failed, 7 passed"),
            RED_NOW,
            error=RED_ERROR,
        ),
    )
)
# The division bug in shop/pricing.py is what the failing tests exercise, but it raises nowhere, so
# no frame of any traceback is in pricing.py: the map's coverage digest ties the file to them.
C.append(
    (
        POSITIVE,
        edit(
            "edit-helper-that-returns-the-wrong-value",
            "shop/pricing.py",
            "cents * (100 - percent) / 100",
            "cents * (100 - percent) // 100",
            tests_said(
                text="[sidecar:tests] shop/pricing.py is covered by 2 tests that failed in the "
                "last run (3 failed, 7 passed; 2 root causes);"
                " details: sidekit failures tests/test_cart.py::test_label; re-run: sidekit test "
                "tests/test_cart.py"
            ),
        ),
    )
)
C.append(
    (
        POSITIVE,
        {
            "name": "rewrite-wrong-value-helper-with-write",
            "files": {**PROJECT, **RED_NOW},
            "tool": "Write",
            "input": {
                "file_path": "shop/pricing.py",
                "content": PROJECT["shop/pricing.py"].replace(
                    "cents * (100 - percent) / 100  # the bug: true division makes a float",
                    "cents * (100 - percent) // 100",
                ),
            },
            "expect": tests_said(
                "shop/pricing.py is covered by 2 tests that failed in the last run"
            ),
        },
    )
)
# The same wrong-value bug without a map: only the import graph (tests/test_pricing.py and, through
# shop/cart.py, tests/test_cart.py import shop.pricing) ties the file to the failing tests.
NO_MAP = {name: text for name, text in RED_NOW.items() if name != ".sidekit/code/covers.json"}
WITHOUT_A_MAP = "no traceback passes through shop/pricing.py and without `sidekit map` the sidecar has no other basis; the import graph would give one (#10)"
C.append(
    (
        POSITIVE,
        {
            **edit(
                "edit-wrong-value-helper-without-a-map",
                "shop/pricing.py",
                "cents * (100 - percent) / 100",
                "cents * (100 - percent) // 100",
                tests_said("shop/pricing.py"),
                cache=NO_MAP,
            ),
            "xfail": WITHOUT_A_MAP,
        },
    )
)
C.append(
    (
        POSITIVE,
        {
            "name": "rewrite-wrong-value-helper-without-a-map",
            "files": {**PROJECT, **NO_MAP},
            "tool": "Write",
            "input": {"file_path": "shop/pricing.py", "content": FIXED["shop/pricing.py"]},
            "expect": tests_said("shop/pricing.py"),
            "xfail": WITHOUT_A_MAP,
        },
    )
)
# pytest behind a Makefile target: the plugin recorded the run that just ended, but only pytest
# command lines are recognised.
C.append(
    (
        POSITIVE,
        {
            **bash(
                "make-test-failed",
                "make test",
                tests_said("pytest: 3 failed, 7 passed"),
                RED_NOW,
                error="Exit code 2\npytest -q\n"
                + RED_LAST
                + "\nmake: *** [Makefile:4: test] Error 1",
            ),
            "xfail": "`make test` ran pytest and the cache says that run just ended with 3 "
            "failures, but the sidecar "
            "reads only pytest command lines (#13)",
        },
    )
)

# --- near misses
C.append(
    (
        NEAR_MISS,
        edit(
            "edit-unrelated-module",
            "shop/shipping.py",
            "    return 500 if weight_grams <= 1000 else 900",
            "    return 500 if weight_grams <= 1200 else 900",
            [],
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        edit(
            "edit-passing-test-file",
            "tests/test_shipping.py",
            "    assert shipping_cents(1500) == 900",
            "    assert shipping_cents(1500) == 900\n    assert shipping_cents(0) == 500",
            [],
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        edit(
            "edit-pyproject-version", "pyproject.toml", 'version = "0.1.0"', 'version = "0.1.1"', []
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        edit(
            "edit-helper-after-a-green-run",
            "shop/money.py",
            "def format_cents(cents: int) -> str:\n",
            'def format_cents(cents: int) -> str:\n    """12.34 EUR from 1234."""\n',
            [],
            cache=GREEN_NOW,
            project=FIXED,
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        edit(
            "edit-helper-no-cache", "shop/money.py", "{:d}.{:02d}", "{:.0f}.{:02.0f}", [], cache={}
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        {
            "name": "read-failing-helper",
            "files": {**PROJECT, **RED_NOW},
            "tool": "Read",
            "input": {"file_path": "shop/money.py"},
            "expect": [],
        },
    )
)
# A short green raw run: the tests sidecar stays silent, and so does the tools sidecar's raw-run
# hint (#18).
C.append(
    (
        NEAR_MISS,
        bash("raw-pytest-green", "pytest -q", [], GREEN_NOW, stdout=GREEN_LAST, project=FIXED),
    )
)
# Said once: the second edit to the same file in the session (same cache generation) stays silent.
REPEAT = edit(
    "repeat-first-edit",
    "shop/money.py",
    "{:d}.{:02d}",
    "{:.0f}.{:02.0f}",
    tests_said("pass through shop/money.py"),
)
C.append((POSITIVE, {"session": "tests-said-once", **REPEAT}))
C.append(
    (
        NEAR_MISS,
        {
            "name": "repeat-second-edit",
            "session": "tests-said-once",
            "tool": "Edit",
            "input": {"file_path": "shop/money.py", "old_string": " EUR", "new_string": " €"},
            "expect": [],
        },
    )
)
C.append((NEAR_MISS, bash("raw-pytest-failed-no-cache", "pytest -q", [], {}, error=RED_ERROR)))
C.append(
    (
        NEAR_MISS,
        bash(
            "raw-pytest-plugin-off-stale-cache",
            "pytest -q -p no:sidekit",
            [],
            RED_OLD,
            error=RED_ERROR,
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        bash(
            "sidekit-test-not-raw",
            "sidekit test",
            [],
            RED_NOW,
            error='Exit code 1\n{"state":"failed","failed":3,"passed":7}',
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        bash(
            "grep-for-pytest-in-config",
            "grep -n pytest pytest.ini pyproject.toml",
            [],
            RED_NOW,
            stdout="pytest.ini:1:[pytest]",
        ),
    )
)
C.append(
    (
        NEAR_MISS,
        bash(
            "pip-install-pytest",
            "python -m pip install pytest-xdist",
            [],
            RED_NOW,
            stdout="Successfully installed",
        ),
    )
)

assert all((label == POSITIVE) == bool(item["expect"]) for label, item in C), (
    "a case's label and its expect disagree"
)
write_cases(os.path.join(HERE, "tests.jsonl"), (item for _, item in C))
print(counted("tests", [item for _, item in C]))
