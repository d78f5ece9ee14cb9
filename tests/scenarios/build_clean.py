"""Writes tests/scenarios/clean.jsonl (the output is committed).

    .venv/bin/python tests/scenarios/build_clean.py

Clean sessions are ordinary work that must yield no nudge, with every sidecar armed, so that a
silence means something: a task scope (set through the real `sidekit scope set`), a team rule pack
(`sidecar_rules/shop-team.toml`), conventions learned from the project itself
(`sidecar_rules/conventions.toml`, by `sidekit conventions learn`'s learner), a red test cache from
a real pytest run with the sidekit plugin (one test fails, in shipping, which the work never
touches) plus the map's coverage digest, and a function index of the project
(`.sidekit/index/functions.json`). Whatever fires here is a false positive and stays counted: a case
that nudges is marked `xfail` with the reason, never tuned away.

Run times in the cache are written as `${NOW}` (the player fills in the time of play), as in
build_tests.py; the index carries no mtimes or temp paths, so the output is byte-identical per run.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.dirname(HERE))  # tests/: the shared build helpers (testing/)
import tomli_w  # noqa: E402

from sidekit_hooks.rules.authoring import learn  # noqa: E402
from testing.scenario_build import (  # noqa: E402
    JUST_FINISHED,
    cache_texts,
    function_index_text,
    map_then_pytest,
    pinned,
    write_tree,
)

PROJECT = {
    "pyproject.toml": '[project]\nname = "shop"\nversion = "0.3.0"\ndependencies = []\n',
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "README.md": "# shop\n\nA small shop.\n",
    "shop/__init__.py": '"""A small shop."""\n\n__version__ = "0.3.0"\n',
    "shop/cart.py": (
        '"""Shopping carts."""\n\nfrom __future__ import annotations\n\nimport logging\n'
        "from dataclasses import dataclass, field\n\nfrom shop.pricing import unit_price\n\n"
        "log = logging.getLogger(__name__)\n\n\n@dataclass\nclass Cart:\n"
        "    items: dict[str, int] = field(default_factory=dict)\n\n"
        "    def add(self, sku: str, quantity: int = 1) -> None:\n"
        "        if quantity <= 0:\n"
        '            raise ValueError(f"quantity must be positive, got {quantity}")\n'
        "        self.items[sku] = self.items.get(sku, 0) + quantity\n"
        '        log.debug("added %s x%d", sku, quantity)\n\n'
        "    def total(self) -> int:\n"
        "        return sum(unit_price(sku) * count for sku, count in self.items.items())\n"
    ),
    "shop/pricing.py": (
        '"""Prices in cents."""\n\nfrom __future__ import annotations\n\n'
        'PRICES = {"apple": 50, "pear": 70, "plum": 40}\n\n\n'
        "def unit_price(sku: str) -> int:\n    return PRICES[sku]\n\n\n"
        "def known_skus() -> list[str]:\n    return sorted(PRICES)\n"
    ),
    "shop/money.py": (
        '"""Amounts in cents, shown in euros."""\n\nfrom __future__ import annotations\n\n\n'
        "def format_cents(cents: int) -> str:\n"
        '    return f"{cents // 100}.{cents % 100:02d} EUR"\n\n\n'
        "def parse_euros(text: str) -> int:\n"
        '    euros, _, cents = text.strip().removesuffix(" EUR").partition(".")\n'
        '    return int(euros) * 100 + int(cents.ljust(2, "0")[:2] or 0)\n'
    ),
    "shop/shipping.py": (
        '"""Shipping costs."""\n\nfrom __future__ import annotations\n\n'
        "FREE_FROM_CENTS = 5000\n\n\n"
        "def shipping_cents(order_cents: int, weight_grams: int) -> int:\n"
        "    if order_cents > FREE_FROM_CENTS:  # the open bug: an order of exactly 50 EUR should "
        "ship free\n"
        "        return 0\n"
        "    return 490 if weight_grams <= 2000 else 990\n"
    ),
    "shop/inventory.py": (
        '"""Stock levels."""\n\nfrom __future__ import annotations\n\nimport logging\n\n'
        "log = logging.getLogger(__name__)\n\n\n"
        "class OutOfStock(Exception):\n    pass\n\n\n"
        "class Inventory:\n"
        "    def __init__(self, stock: dict[str, int] | None = None) -> None:\n"
        "        self.stock = dict(stock or {})\n\n"
        "    def reserve(self, sku: str, quantity: int) -> None:\n"
        "        try:\n            left = self.stock[sku] - quantity\n"
        "        except KeyError:\n            raise OutOfStock(sku) from None\n"
        "        if left < 0:\n            raise OutOfStock(sku)\n"
        "        self.stock[sku] = left\n"
        '        log.info("reserved %s x%d", sku, quantity)\n\n'
        "    def available(self, sku: str) -> int:\n        return self.stock.get(sku, 0)\n"
    ),
    "shop/util.py": (
        '"""Small helpers."""\n\nfrom __future__ import annotations\n\nimport re\n'
        "from collections.abc import Iterator, Sequence\nfrom typing import TypeVar\n\n"
        'T = TypeVar("T")\n\n\n'
        "def slugify(text: str) -> str:\n"
        '    text = re.sub(r"[^\\w\\s-]", "", text).strip().lower()\n'
        '    return re.sub(r"[-\\s]+", "-", text)\n\n\n'
        "def chunked(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:\n"
        "    for start in range(0, len(items), size):\n"
        "        yield items[start:start + size]\n\n\n"
        "def read_int(text: str, default: int = 0) -> int:\n"
        "    try:\n        return int(text)\n    except ValueError:\n        return default\n"
    ),
    "tests/__init__.py": "",
    "tests/test_cart.py": (
        "import pytest\n\nfrom shop.cart import Cart\n\n\n"
        'def test_total_sums_items():\n    cart = Cart()\n    cart.add("apple", 2)\n    assert '
        "cart.total() == 100\n\n\n"
        "def test_add_rejects_zero():\n    with pytest.raises(ValueError):\n        "
        'Cart().add("apple", 0)\n'
    ),
    "tests/test_pricing.py": (
        "from shop.pricing import known_skus, unit_price\n\n\n"
        'def test_unit_price():\n    assert unit_price("pear") == 70\n\n\n'
        'def test_known_skus_are_sorted():\n    assert known_skus() == ["apple", "pear", "plum"]\n'
    ),
    "tests/test_money.py": (
        "from shop.money import format_cents, parse_euros\n\n\n"
        'def test_format_cents():\n    assert format_cents(1234) == "12.34 EUR"\n\n\n'
        'def test_parse_euros():\n    assert parse_euros("12.3 EUR") == 1230\n'
    ),
    "tests/test_shipping.py": (
        "from shop.shipping import shipping_cents\n\n\n"
        "def test_small_order_pays_shipping():\n    assert shipping_cents(1000, 500) == 490\n\n\n"
        "def test_fifty_euros_ship_free():\n    assert shipping_cents(5000, 500) == 0\n"
    ),
    "tests/test_inventory.py": (
        "import pytest\n\nfrom shop.inventory import Inventory, OutOfStock\n\n\n"
        'def test_reserve_takes_from_stock():\n    inventory = Inventory({"apple": 3})\n    '
        'inventory.reserve("apple", 2)\n'
        '    assert inventory.available("apple") == 1\n\n\n'
        "def test_reserve_unknown_sku():\n    with pytest.raises(OutOfStock):\n        "
        'Inventory().reserve("kiwi", 1)\n'
    ),
    "tests/test_util.py": (
        "from shop.util import chunked, read_int, slugify\n\n\n"
        'def test_slugify():\n    assert slugify("Green Apples!") == "green-apples"\n\n\n'
        "def test_chunked():\n    assert list(chunked([1, 2, 3], 2)) == [[1, 2], [3]]\n\n\n"
        'def test_read_int_default():\n    assert read_int("x", 7) == 7\n'
    ),
}

with open(os.path.join(HERE, "packs", "shop-team.toml"), encoding="utf-8") as handle:
    TEAM_PACK = handle.read()  # the team's pack, as the team keeps it


def red_cache() -> dict[str, str]:
    """`sidekit map`, then plain pytest with the plugin: the cache and digest, times pinned to
    ${NOW}."""
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, PROJECT)
        done = map_then_pytest(tmp)
        print("red run:", done.stdout.strip().splitlines()[-1])
        texts = cache_texts(tmp)
    counts = json.loads(texts[".sidekit/status.json"])["counts"]
    assert counts["failed"] == 1, counts
    return pinned(texts, JUST_FINISHED)


def index_of_project() -> str:
    return function_index_text({k: v for k, v in PROJECT.items() if k.endswith(".py")})


def learned_pack() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, PROJECT)
        rules, _ = learn.learn(tmp)
    document = learn.pack(rules)
    for rule in document["rules"]:
        del rule["examples"]  # kept short: `sidekit rules test` exercises the examples
    print("learned:", ", ".join(rule["id"] for rule in document["rules"]))
    return (
        "# Learned by `sidekit conventions learn` from this project (examples left out).\n\n"
        + tomli_w.dumps(document, multiline_strings=True)
    )


ARMED = {
    **PROJECT,
    **red_cache(),
    ".sidekit/index/functions.json": index_of_project(),
    "sidecar_rules/conventions.toml": learned_pack(),
    "sidecar_rules/shop-team.toml": TEAM_PACK,
}
SCOPES: dict[str, object] = {
    # through the real `sidekit scope set`, --allow given twice
    "clean-feature": ["--issue", "SHOP-41", "--allow", "shop/**", "--allow", "tests/**"],
    "clean-scoped": {"issue": "shop-12", "allow": ["shop/**", "tests/**"]},
    "clean-other-tools": [
        "--issue",
        "SHOP-7",
        "--allow",
        "shop/**",
        "--allow",
        "*.md",
        "--deny",
        "shop/shipping.py",
    ],
    "clean-refactor": [
        "--issue",
        "SHOP-44",
        "--allow",
        "shop/**",
        "tests/**",
        "--deny",
        "shop/shipping.py",
    ],
}
# Known false positives: {(session, step name): why (#issue)}. Filled from what the player showed,
# never tuned away.
KNOWN: dict[tuple[str, str], str] = {
    (
        "clean-refactor",
        "write-cli",
    ): "a command-line module prints by design; the learned 'library modules do not print' "
    "rule cannot tell shop/cli.py from library code (#13)",
}

# one tool call each, in session order; the first step of a session gets the files and the scope
STEPS = [
    '{"name": "prompt", "session": "clean-feature", "prompt": "Add a remove() method to Cart, '
    'with a test.", "expect": []}',
    '{"name": "read-cart", "session": "clean-feature", "tool": "Read", "input": {"file_path": '
    '"shop/cart.py"}, "expect": []}',
    '{"name": "grep-add", "session": "clean-feature", "tool": "Grep", "input": {"pattern": "def '
    'add", "path": "shop", "output_mode": "content", "-n": true}, "response": {"mode": "content", "numFiles": 1, "filenames": [], "content": "shop/cart.py:18:    def add(self, sku: str, quantity: int = 1) -> None:", "numLines": 1}, "expect": []}',
    '{"name": "edit-cart-remove", "session": "clean-feature", "tool": "Edit", "input": '
    '{"file_path": "shop/cart.py", "old_string": "    def total(self) -> int:", "new_string": "    def remove(self, sku: str) -> None:\\n        self.items.pop(sku, None)\\n        log.debug(\\"removed %s\\", sku)\\n\\n    def total(self) -> int:"}, "expect": []}',
    '{"name": "read-tests", "session": "clean-feature", "tool": "Read", "input": {"file_path": '
    '"tests/test_cart.py"}, "expect": []}',
    '{"name": "edit-tests", "session": "clean-feature", "tool": "Edit", "input": {"file_path": '
    '"tests/test_cart.py", "old_string": "def test_add_rejects_zero():", "new_string": "def test_remove_drops_the_item():\\n    cart = Cart()\\n    cart.add(\\"pear\\")\\n    cart.remove(\\"pear\\")\\n    assert cart.total() == 0\\n\\n\\ndef test_add_rejects_zero():"}, "expect": []}',
    '{"name": "write-discounts", "session": "clean-feature", "tool": "Write", "input": '
    '{"file_path": "shop/discounts.py", "content": "\\"\\"\\"Percentage discounts, in whole cents.\\"\\"\\"\\n\\nfrom __future__ import annotations\\n\\n\\ndef percent_off(cents: int, percent: int) -> int:\\n    if not 0 <= percent <= 100:\\n        raise ValueError(f\\"percent must be 0-100, got {percent}\\")\\n    return cents * (100 - percent) // 100\\n"}, "expect": []}',
    '{"name": "edit-inventory-release", "session": "clean-feature", "tool": "Edit", "input": '
    '{"file_path": "shop/inventory.py", "old_string": "    def available(self, sku: str) -> int:", "new_string": "    def release(self, sku: str, quantity: int) -> None:\\n        self.stock[sku] = self.stock.get(sku, 0) + quantity\\n        log.info(\\"released %s x%d\\", sku, quantity)\\n\\n    def available(self, sku: str) -> int:"}, "expect": []}',
    '{"name": "tests-for-cart", "session": "clean-feature", "tool": "Bash", "input": {"command": '
    '"sidekit tests-for shop/cart.py"}, "response": {"stdout": "{\\"tests\\":[\\"tests/test_cart.py\\"],\\"basis\\":\\"coverage\\"}\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "git-status", "session": "clean-feature", "tool": "Bash", "input": {"command": "git '
    'status --short", "description": "Show changed files"}, "response": {"stdout": " M shop/cart.py\\n M tests/test_cart.py\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "git-diff", "session": "clean-feature", "tool": "Bash", "input": {"command": "git '
    'diff --stat"}, "response": {"stdout": " shop/cart.py       | 4 ++++\\n tests/test_cart.py | 7 +++++++\\n 2 files changed, 11 insertions(+)\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "sidekit-test", "session": "clean-feature", "tool": "Bash", "input": {"command": '
    '"sidekit test tests/test_cart.py"}, "response": {"stdout": "{\\"runner\\":\\"pytest\\",\\"passed\\":3}\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "prompt-thanks", "session": "clean-feature", "prompt": "Looks good, commit it.", '
    '"expect": []}',
    '{"name": "git-commit", "session": "clean-feature", "tool": "Bash", "input": {"command": "git '
    'add shop/cart.py tests/test_cart.py && git commit -qm \'Cart.remove\'"}, "expect": []}',
    '{"name": "prompt", "session": "clean-scoped", "prompt": "Add CSV export of a cart '
    '(shop-12).", "expect": []}',
    '{"name": "glob-shop", "session": "clean-scoped", "tool": "Glob", "input": {"pattern": '
    '"shop/**/*.py"}, "response": {"durationMs": 3, "numFiles": 3, "filenames": ["shop/__init__.py", "shop/cart.py", "shop/pricing.py"], "truncated": false}, "expect": []}',
    '{"name": "read-pricing", "session": "clean-scoped", "tool": "Read", "input": {"file_path": '
    '"shop/pricing.py"}, "expect": []}',
    '{"name": "read-util", "session": "clean-scoped", "tool": "Read", "input": {"file_path": '
    '"shop/util.py"}, "expect": []}',
    '{"name": "mkdir-in-scope", "session": "clean-scoped", "tool": "Bash", "input": {"command": '
    '"mkdir -p shop/io && touch shop/io/__init__.py"}, "expect": []}',
    '{"name": "write-export", "session": "clean-scoped", "tool": "Write", "input": {"file_path": '
    '"shop/io/csv_export.py", "content": "\\"\\"\\"Carts as CSV.\\"\\"\\"\\n\\nfrom __future__ import annotations\\n\\nimport csv\\nimport io\\n\\nfrom shop.cart import Cart\\n\\n\\ndef cart_to_csv(cart: Cart) -> str:\\n    buffer = io.StringIO()\\n    writer = csv.writer(buffer)\\n    writer.writerow([\\"sku\\", \\"quantity\\"])\\n    for sku, quantity in sorted(cart.items.items()):\\n        writer.writerow([sku, quantity])\\n    return buffer.getvalue()\\n"}, "expect": []}',
    '{"name": "write-export-test", "session": "clean-scoped", "tool": "Write", "input": '
    '{"file_path": "tests/test_csv_export.py", "content": "from shop.cart import Cart\\nfrom shop.io.csv_export import cart_to_csv\\n\\n\\ndef test_cart_to_csv_lists_items():\\n    cart = Cart()\\n    cart.add(\\"apple\\", 3)\\n    assert cart_to_csv(cart).splitlines() == [\\"sku,quantity\\", \\"apple,3\\"]\\n"}, "expect": []}',
    '{"name": "grep-in-scope", "session": "clean-scoped", "tool": "Grep", "input": {"pattern": '
    '"cart_to_csv", "path": "shop"}, "response": {"mode": "files_with_matches", "numFiles": 1, "filenames": ["shop/io/csv_export.py"]}, "expect": []}',
    '{"name": "ls", "session": "clean-scoped", "tool": "Bash", "input": {"command": "ls shop '
    'shop/io"}, "response": {"stdout": "__init__.py\\ncart.py\\nio\\npricing.py\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "sidekit-status", "session": "clean-scoped", "tool": "Bash", "input": {"command": '
    '"sidekit status"}, "response": {"stdout": "{\\"runner\\":\\"none\\"}\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "prompt", "session": "clean-other-tools", "prompt": "What does the pricing module '
    'do? Look up how others price pears.", "expect": []}',
    '{"name": "todo", "session": "clean-other-tools", "tool": "TodoWrite", "input": {"todos": '
    '[{"content": "Read pricing", "status": "in_progress", "activeForm": "Reading pricing"}]}, "response": {"oldTodos": [], "newTodos": [{"content": "Read pricing", "status": "in_progress", "activeForm": "Reading pricing"}]}, "expect": []}',
    '{"name": "web-search", "session": "clean-other-tools", "tool": "WebSearch", "input": '
    '{"query": "pear price per kilo"}, "response": {"query": "pear price per kilo", "results": ["Pears cost about 2 EUR per kilo."], "durationSeconds": 1.2}, "expect": []}',
    '{"name": "web-fetch", "session": "clean-other-tools", "tool": "WebFetch", "input": {"url": '
    '"https://example.org/pears", "prompt": "price?"}, "response": {"bytes": 120, "code": 200, "codeText": "OK", "result": "About 2 EUR.", "durationMs": 300, "url": "https://example.org/pears"}, "expect": []}',
    '{"name": "agent", "session": "clean-other-tools", "tool": "Agent", "input": {"description": '
    '"Survey pricing", "prompt": "Summarize shop/pricing.py", "subagent_type": "Explore"}, "response": {"status": "async_launched", "agentId": "ag1", "description": "Survey pricing", "prompt": "Summarize", "outputFile": "/tmp/out"}, "expect": []}',
    '{"name": "subagent-read", "session": "clean-other-tools", "tool": "Read", "input": '
    '{"file_path": "shop/pricing.py"}, "agent_id": "ag1", "expect": []}',
    '{"name": "mcp-call", "session": "clean-other-tools", "tool": "mcp__github__search_issues", '
    '"input": {"query": "pricing"}, "response": [{"type": "text", "text": "No issues."}], "expect": []}',
    '{"name": "unknown-tool", "session": "clean-other-tools", "tool": "FutureTool", "input": '
    '{"x": 1}, "response": {"ok": true}, "expect": []}',
    '{"name": "python-one-liner", "session": "clean-other-tools", "tool": "Bash", "input": '
    '{"command": "python -c \'import shop; print(shop.__version__)\'"}, "response": {"stdout": "0.3.0\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "edit-readme", "session": "clean-other-tools", "tool": "Edit", "input": '
    '{"file_path": "README.md", "old_string": "A small shop.", "new_string": "A small shop. Prices are in cents."}, "expect": []}',
    '{"name": "prompt", "session": "clean-refactor", "prompt": "Rename Cart.total to '
    'Cart.total_cents, add a receipt module and a `python -m shop.cli prices` command.", "expect": []}',
    '{"name": "usages-total", "session": "clean-refactor", "tool": "Bash", "input": {"command": '
    '"sidekit usages total"}, "response": {"stdout": "{\\"name\\":\\"total\\",\\"uses\\":[\\"shop/cart.py:24\\",\\"tests/test_cart.py:9\\"]}\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "grep-tool-total", "session": "clean-refactor", "tool": "Grep", "input": '
    '{"pattern": "\\\\.total\\\\(", "path": "tests", "output_mode": "content", "-n": true}, "response": {"mode": "content", "numFiles": 1, "filenames": [], "content": "tests/test_cart.py:9:    assert cart.total() == 100", "numLines": 1}, "expect": []}',
    '{"name": "rename-in-cart", "session": "clean-refactor", "tool": "Edit", "input": '
    '{"file_path": "shop/cart.py", "old_string": "    def total(self) -> int:", "new_string": "    def total_cents(self) -> int:"}, "expect": []}',
    '{"name": "rename-in-tests", "session": "clean-refactor", "tool": "Edit", "input": '
    '{"file_path": "tests/test_cart.py", "old_string": "    assert cart.total() == 100", "new_string": "    assert cart.total_cents() == 100"}, "expect": []}',
    '{"name": "read-money", "session": "clean-refactor", "tool": "Read", "input": {"file_path": '
    '"shop/money.py"}, "expect": []}',
    '{"name": "write-receipt", "session": "clean-refactor", "tool": "Write", "input": '
    '{"file_path": "shop/receipt.py", "content": "\\"\\"\\"Printable receipts.\\"\\"\\"\\n\\nfrom __future__ import annotations\\n\\nfrom shop.cart import Cart\\nfrom shop.money import format_cents\\nfrom shop.pricing import unit_price\\n\\n\\ndef receipt_lines(cart: Cart) -> list[str]:\\n    lines = []\\n    for sku, count in sorted(cart.items.items()):\\n        lines.append(f\\"{sku} x{count}  {format_cents(unit_price(sku) * count)}\\")\\n    lines.append(f\\"total  {format_cents(cart.total_cents())}\\")\\n    return lines\\n"}, "expect": []}',
    '{"name": "write-receipt-test", "session": "clean-refactor", "tool": "Write", "input": '
    '{"file_path": "tests/test_receipt.py", "content": "from shop.cart import Cart\\nfrom shop.receipt import receipt_lines\\n\\n\\ndef test_receipt_ends_with_the_total():\\n    cart = Cart()\\n    cart.add(\\"pear\\", 2)\\n    assert receipt_lines(cart) == [\\"pear x2  1.40 EUR\\", \\"total  1.40 EUR\\"]\\n"}, "expect": []}',
    '{"name": "write-cli", "session": "clean-refactor", "tool": "Write", "input": {"file_path": '
    '"shop/cli.py", "content": "\\"\\"\\"`python -m shop.cli prices`: the price list.\\"\\"\\"\\n\\nfrom __future__ import annotations\\n\\nimport argparse\\n\\nfrom shop.money import format_cents\\nfrom shop.pricing import PRICES\\n\\n\\ndef main(argv: list[str] | None = None) -> int:\\n    parser = argparse.ArgumentParser(prog=\\"shop\\")\\n    parser.add_argument(\\"command\\", choices=[\\"prices\\"])\\n    parser.parse_args(argv)\\n    for sku, cents in sorted(PRICES.items()):\\n        print(f\\"{sku:10} {format_cents(cents)}\\")\\n    return 0\\n\\n\\nif __name__ == \\"__main__\\":\\n    raise SystemExit(main())\\n"}, "expect": []}',
    '{"name": "sidekit-test-selected", "session": "clean-refactor", "tool": "Bash", "input": '
    '{"command": "sidekit test tests/test_cart.py tests/test_receipt.py"}, "response": {"stdout": "{\\"runner\\":\\"pytest\\",\\"passed\\":3}\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "mypy", "session": "clean-refactor", "tool": "Bash", "input": {"command": "mypy '
    'shop"}, "response": {"stdout": "Success: no issues found in 9 source files\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "ruff-check", "session": "clean-refactor", "tool": "Bash", "input": {"command": '
    '"ruff check shop tests"}, "response": {"stdout": "All checks passed!\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
    '{"name": "git-diff", "session": "clean-refactor", "tool": "Bash", "input": {"command": "git '
    'diff --stat"}, "response": {"stdout": " shop/cart.py       | 2 +-\\n tests/test_cart.py | 2 +-\\n 2 files changed, 2 insertions(+), 2 deletions(-)\\n", "stderr": "", "interrupted": false, "isImage": false}, "expect": []}',
]


def cases() -> list[dict[str, object]]:
    out, seen = [], set()
    for line in STEPS:
        step = json.loads(line)
        session = step["session"]
        if session not in seen:
            seen.add(session)
            step = {
                "name": step.pop("name"),
                "session": session,
                "files": ARMED,
                "scope": SCOPES[session],
                **step,
            }
        why = KNOWN.get((session, str(step["name"])))
        if why:
            step["xfail"] = why
        out.append(step)
    return out


with open(os.path.join(HERE, "clean.jsonl"), "w", encoding="utf-8") as handle:
    for case in cases():
        handle.write(json.dumps(case) + "\n")
print("clean cases", len(STEPS), "sessions", len(SCOPES))
