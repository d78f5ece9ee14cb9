"""Writes tests/scenarios/tools.jsonl and conventions.jsonl (the output is committed).

    .venv/bin/python tests/scenarios/build_tools_conventions.py

The cases are written here because some carry generated files: a function index
(`.sidekit/index/functions.json`) built from the case's own files, and a conventions pack learned
from the fixture repo of tests/code/test_conventions.py.
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, "tests", "code"))
import tomli_w

from sidekit_hooks.code import function_index
from sidekit_hooks.rules.authoring import conventions


def index_for(files):
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in files.items():
            p = os.path.join(tmp, rel); os.makedirs(os.path.dirname(p), exist_ok=True); open(p, "w").write(text)
        index = function_index.build(tmp)
        index.pop("project", None)  # a temp path: meaningless in the corpus
        index["built"] = 0
        for record in index["files"].values():
            record["m"] = 0  # mtimes of the generator's temp files: keep the corpus byte-stable
        return json.dumps(index, separators=(",", ":"))

PYPROJECT = '[project]\nname = "shop"\ndependencies = ["requests"]\n'
def pyproject(*deps): return '[project]\nname = "shop"\ndependencies = [%s]\n' % ", ".join(f'"{d}"' for d in deps)
BASE = {"pyproject.toml": PYPROJECT, "shop/__init__.py": "", "shop/pricing.py": "PRICES = {\"apple\": 50}\n\n\ndef unit_price(sku: str) -> int:\n    return PRICES[sku]\n"}

SLUGIFY = 'import re\nimport unicodedata\n\n\ndef slugify(value):\n    """Lower-case, ASCII, dash-separated."""\n    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()\n    value = re.sub(r"[^\\w\\s-]", "", value).strip().lower()\n    value = re.sub(r"[-\\s]+", "-", value)\n    return value\n'
NEW_SLUG = 'def new_slug(text):\n    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()\n    text = re.sub(r"[^\\w\\s-]", "", text).strip().lower()\n    text = re.sub(r"[-\\s]+", "-", text)\n    return text\n'
CHUNKED = 'def chunked(items, size):\n    out = []\n    for start in range(0, len(items), size):\n        out.append(items[start:start + size])\n    return out\n'
BATCHES = 'def batches(seq, n):\n    result = []\n    for i in range(0, len(seq), n):\n        result.append(seq[i:i + n])\n    return result\n'
DURATION = 'def parse_duration(text):\n    units = {"s": 1, "m": 60, "h": 3600}\n    text = text.strip()\n    if text[-1] in units:\n        return float(text[:-1]) * units[text[-1]]\n    return float(text)\n'
SIZE = 'def parse_size(text):\n    units = {"k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}\n    text = text.strip().lower()\n    if text[-1] in units:\n        return int(float(text[:-1]) * units[text[-1]])\n    return int(text)\n'
RETRY = '\n\ndef fetch(url):\n    for attempt in range(5):\n        try:\n            return requests.get(url, timeout=5)\n        except requests.RequestException:\n            time.sleep(2 ** attempt)\n    raise RuntimeError("gave up")\n'
THROTTLE = '\n\ndef crawl(urls):\n    results = []\n    for url in urls:\n        response = requests.get(url, timeout=5)\n        results.append(response.text)\n        time.sleep(1)\n    return results\n'
POLL_PW = 'from playwright.sync_api import Page\nimport time\n\n\ndef test_checkout(page: Page):\n    page.goto("/checkout")\n    page.click("#pay")\n    deadline = time.time() + 10\n    while time.time() < deadline:\n        if page.locator("#done").is_visible():\n            break\n        time.sleep(0.5)\n    else:\n        raise AssertionError("never paid")\n'
JS_POLL = "import { test } from '@playwright/test';\n\ntest('cart', async ({ page }) => {\n  await page.goto('/cart');\n  while (true) {\n    const el = await page.$('#total');\n    if (el) break;\n    await page.waitForTimeout(500);\n  }\n});\n"
WAIT_HELPER = 'import time\n\n\ndef wait_until(predicate, timeout=10.0):\n    end = time.time() + timeout\n    while time.time() < end:\n        if predicate():\n            return True\n        time.sleep(0.1)\n    return False\n'
POLL_PLAIN = '\n\ndef test_worker_finishes(worker):\n    worker.start()\n    deadline = time.time() + 5\n    while time.time() < deadline:\n        if worker.done:\n            break\n        time.sleep(0.1)\n    assert worker.done\n'

def bash(name, command, expect, files=None, error=None, index=False):
    all_files = {**BASE, **(files or {})}
    if index:  # the grep hint speaks only for a name an index knows as a definition
        all_files[".sidekit/index/functions.json"] = index_for({k: v for k, v in all_files.items() if k.endswith(".py")})
    case = {"name": name, "files": all_files, "tool": "Bash", "input": {"command": command, "description": "run"}}
    if error:
        case["error"] = error
    case["expect"] = expect
    return case

def tools_exp(contains=None, text=None):
    e = {"sidecar": "tools"}
    if text: e["text"] = text
    if contains: e["contains"] = contains
    return [e]

T = []
# --- catalog: true positives
T.append(bash("raw-pytest", "python -m pytest -q", tools_exp("`sidekit test` runs pytest")))
T.append(bash("raw-pytest-uv-one-file", "uv run pytest -x tests/test_cart.py", tools_exp("`sidekit test tests/test_cart.py`")))
T.append(bash("raw-pytest-failed-is-the-tests-sidecars", "pytest -q tests/test_cart.py", [], error="Exit code 1\nFAILED tests/test_cart.py::test_total - assert 90 == 100\n1 failed, 3 passed in 0.05s"))
T.append(bash("grep-identifier", "grep -rn unit_price .", tools_exp("`sidekit usages unit_price`"), index=True))
T.append(bash("git-grep-identifier", "git grep -n unit_price -- '*.py'", tools_exp("`sidekit usages unit_price`"), index=True))
T.append(bash("rg-def", 'rg -n "def unit_price" shop', tools_exp("`sidekit symbol unit_price`"), index=True))
# near misses: `sidekit usages` would not answer what the grep asks (a parameter), or nothing is indexed yet
T.append(bash("grep-parameter-not-a-definition", "grep -rn sku .", [], index=True))
T.append(bash("grep-identifier-before-any-index", "grep -rn unit_price .", []))
T.append(bash("cat-source", "cat shop/pricing.py", tools_exp(text="[sidecar:tools] `cat` of shop/pricing.py: use the Read tool instead; it shows line numbers and pages long files without the shell.")))
T.append(bash("tail-log", "tail -n 100 logs/app.log", tools_exp("Read tool with offset/limit")))
T.append(bash("find-name", 'find . -name "*.toml"', tools_exp("the Glob tool does this (pattern `**/*.toml`)")))
T.append(bash("sed-print-range", "sed -n '1,40p' shop/pricing.py", tools_exp("`sed -n 1,40p` of shop/pricing.py: use the Read tool with offset/limit")))
# --- catalog: near misses
for name, command in [
    ("pytest-version", "pytest --version"), ("sidekit-test", "sidekit test tests/"), ("grep-todo", 'grep -rn "TODO" .'),
    ("grep-one-file", "grep -n unit_price shop/pricing.py"), ("grep-phrase-in-logs", 'grep -rn "connection refused" logs/'),
    ("rg-js-only", "rg -t js unit_price"), ("cat-heredoc-write", "cat > notes.md <<'EOF'\n# notes\nEOF"),
    ("cat-piped", "cat shop/pricing.py | grep def"), ("tail-follow", "tail -f logs/app.log"),
    ("find-delete", 'find . -name "*.pyc" -delete'), ("find-dirs", "find . -type d -name __pycache__"),
    ("git-log-head", "git log --oneline | head -5"), ("head-bytes", "head -c 100 data.bin"),
    ("pip-install", "python -m pip install -e ."), ("sed-in-place", "sed -i 's/50/55/' shop/pricing.py"), ("cat-substitution", 'echo "version $(cat VERSION)"'),
]:
    T.append(bash(name, command, []))

# --- hand-written waits
def edit(name, files, path, old, new, expect, index=False):
    all_files = {**BASE, **files}
    if path not in all_files:
        all_files[path] = old + "\n"
    if index:
        all_files[".sidekit/index/functions.json"] = index_for({k: v for k, v in all_files.items() if k.endswith(".py")})
    return {"name": name, "files": all_files, "tool": "Edit", "input": {"file_path": path, "old_string": old, "new_string": new}, "expect": expect}

def write(name, files, path, content, expect, index=False):
    all_files = {**BASE, **files}
    if index:
        all_files[".sidekit/index/functions.json"] = index_for({k: v for k, v in all_files.items() if k.endswith(".py")})
    return {"name": name, "files": all_files, "tool": "Write", "input": {"file_path": path, "content": content}, "expect": expect}

T.append(edit("retry-loop-tenacity", {"pyproject.toml": pyproject("requests", "tenacity>=8")}, "shop/client.py", "import requests\nimport time", "import requests\nimport time" + RETRY,
              tools_exp("tenacity is a dependency: `@retry(stop=stop_after_attempt(n)")))
T.append(edit("retry-loop-backoff", {"pyproject.toml": pyproject("requests", "backoff")}, "shop/client.py", "import requests\nimport time", "import requests\nimport time" + RETRY,
              tools_exp("backoff is a dependency")))
T.append(write("poll-loop-playwright-py", {"pyproject.toml": pyproject("pytest-playwright")}, "tests/e2e/test_checkout.py", POLL_PW,
               tools_exp("Playwright already waits: `page.wait_for_selector(sel)`")))
T.append(write("poll-loop-playwright-js", {"package.json": '{"devDependencies": {"@playwright/test": "^1.50.0"}}'}, "e2e/cart.spec.ts", JS_POLL,
               tools_exp("`await page.waitForSelector(sel)`")))
T.append(edit("poll-loop-project-helper", {"tests/helpers.py": WAIT_HELPER}, "tests/test_worker.py", "import time", "import time" + POLL_PLAIN,
              tools_exp("tests/helpers.py:4 wait_until(predicate, timeout) already does this; use it."), index=True))
T.append(edit("retry-loop-no-library", {}, "shop/client.py", "import requests\nimport time", "import requests\nimport time" + RETRY, []))
T.append(edit("throttle-loop-with-tenacity", {"pyproject.toml": pyproject("requests", "tenacity")}, "shop/crawl.py", "import requests\nimport time", "import requests\nimport time" + THROTTLE, []))
T.append(edit("poll-loop-no-helper", {}, "tests/test_worker.py", "import time", "import time" + POLL_PLAIN, []))
T.append(edit("retry-loop-in-docs", {"pyproject.toml": pyproject("requests", "tenacity")}, "docs/retries.md", "# Retries", "# Retries\n\nWithout tenacity it looks like this:\n\n```python" + RETRY + "```\n", []))

# --- helper reinvention
T.append(edit("reinvent-slugify", {"utils/__init__.py": "", "utils/text.py": SLUGIFY}, "app/views.py", "import re\nimport unicodedata", "import re\nimport unicodedata\n\n\n" + NEW_SLUG,
              tools_exp(text="[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of new_slug()."), index=True))
T.append(write("reinvent-chunked-new-module", {"shop/util.py": CHUNKED}, "shop/batching.py", "\"\"\"Batching.\"\"\"\n\n\n" + BATCHES,
               tools_exp(text="[sidecar:tools] shop/util.py:1 chunked(items, size) already does this; reuse it instead of batches()."), index=True))
T.append(edit("reinvent-in-same-file", {"shop/units.py": DURATION}, "shop/units.py", DURATION, DURATION + "\n\n" + DURATION.replace("parse_duration(text)", "duration_seconds(value)").replace("text", "value"),
              tools_exp(text="[sidecar:tools] shop/units.py:1 parse_duration(text) already does this; reuse it instead of duration_seconds()."), index=True))
T.append(edit("edit-the-helper-itself", {"utils/__init__.py": "", "utils/text.py": SLUGIFY}, "utils/text.py", "    return value\n", "    return value or \"n-a\"\n", [], index=True))
T.append(edit("similar-shape-other-work", {"shop/units.py": DURATION}, "shop/sizes.py", '"""Sizes."""', '"""Sizes."""\n\n\n' + SIZE, [], index=True))
T.append(edit("short-duplicate-below-five-lines", {"shop/util.py": "def double(x):\n    y = x * 2\n    return y\n"}, "shop/other.py", '"""Other."""', '"""Other."""\n\n\ndef twice(v):\n    w = v * 2\n    return w\n', [], index=True))
T.append(edit("new-function-no-match", {"utils/__init__.py": "", "utils/text.py": SLUGIFY}, "shop/cart.py", '"""Cart."""', '"""Cart."""\n\n\ndef cart_total(items, prices):\n    total = 0\n    for sku, count in items.items():\n        total += prices[sku] * count\n    return total\n', [], index=True))

GET_USER = 'from django.http import JsonResponse\n\nfrom shop.models import Order, User\n\n\ndef get_user(request, user_id):\n    obj = User.objects.filter(id=user_id).first()\n    if obj is None:\n        return JsonResponse({"error": "not found"}, status=404)\n    data = obj.to_dict()\n    return JsonResponse(data)\n'
GET_ORDER = '\n\ndef get_order(request, order_id):\n    obj = Order.objects.filter(id=order_id).first()\n    if obj is None:\n        return JsonResponse({"error": "not found"}, status=404)\n    data = obj.to_dict()\n    return JsonResponse(data)\n'
DEDUPE = 'def dedupe(items):\n    seen = set()\n    out = []\n    for item in items:\n        if item not in seen:\n            seen.add(item)\n            out.append(item)\n    return out\n'
UNIQUE = 'def unique_in_order(values):\n    """Drop repeats, keep the first of each."""\n    seen_values = set()\n    result = []\n    for value in values:\n        if value not in seen_values:\n            seen_values.add(value)\n            result.append(value)\n    return result\n'
DUPS = 'def duplicates(items):\n    seen = set()\n    out = []\n    for item in items:\n        if item in seen:\n            out.append(item)\n        seen.add(item)\n    return out\n'
T.append(edit("same-handler-other-model", {"shop/views.py": GET_USER}, "shop/views.py", "    return JsonResponse(data)\n", "    return JsonResponse(data)\n" + GET_ORDER, [], index=True))
T.append(write("reinvent-dedupe", {"shop/util.py": DEDUPE}, "shop/report.py", '"""Reports."""\n\n\n' + UNIQUE,
               tools_exp(text="[sidecar:tools] shop/util.py:1 dedupe(items) already does this; reuse it instead of unique_in_order()."), index=True))
T.append(write("opposite-of-dedupe", {"shop/util.py": DEDUPE}, "shop/report.py", '"""Reports."""\n\n\n' + DUPS, [], index=True))

with open(os.path.join(HERE, "tools.jsonl"), "w") as out:
    for case in T:
        out.write(json.dumps(case) + "\n")
print("tools cases", len(T))

# ---------------- conventions
from pathlib import Path

from test_conventions import typed_repo  # the fixture repo of the unit tests

with tempfile.TemporaryDirectory() as tmp:
    typed_repo(Path(tmp))
    rules, _ = conventions.learn(tmp)
    document = conventions.pack(rules)
    for rule in document["rules"]:
        del rule["examples"]  # kept short here: the scenarios exercise matching, `sidekit rules test` the examples
    PACK = "# Learned by `sidekit conventions learn` from the typed fixture repo (examples left out).\n\n" + tomli_w.dumps(document, multiline_strings=True)
FILES = {"pyproject.toml": "[project]\nname = 'shop'\n", "shop/__init__.py": "", "shop/mod0.py": "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef helper_0(value: int) -> int:\n    return value\n", "sidecar_rules/conventions.toml": PACK}
C = []
def cwrite(name, path, content, expect):
    C.append({"name": name, "files": FILES, "tool": "Write", "input": {"file_path": path, "content": content}, "expect": expect})
def cedit(name, path, old, new, expect):
    files = dict(FILES)
    files.setdefault(path, old + "\n")
    C.append({"name": name, "files": files, "tool": "Edit", "input": {"file_path": path, "old_string": old, "new_string": new}, "expect": expect})
def conv(contains): return [{"sidecar": "conventions", "contains": contains}]
cwrite("camel-case-def", "shop/users.py", "def fetchUser(user_id: int) -> dict:\n    return {\"id\": user_id}\n", conv("Functions here are snake_case"))
cwrite("lower-case-class", "shop/store.py", "class user_store:\n    def get(self, key: str) -> int:\n        return 0\n", conv("Classes here are CapWords"))
cedit("bare-except", "shop/mod0.py", "def helper_0(value: int) -> int:\n    return value", "def helper_0(value: int) -> int:\n    try:\n        return int(value)\n    except:\n        return 0", conv("No bare `except:` here"))
cedit("print-in-library", "shop/mod0.py", "def helper_0(value: int) -> int:\n    return value", "def helper_0(value: int) -> int:\n    print(\"helper\", value)\n    return value", conv("Library modules here do not print"))
cwrite("relative-import", "shop/orders.py", "from .mod0 import helper_0\n\n\ndef order_total(count: int) -> int:\n    return helper_0(count)\n", conv("Imports inside shop are absolute"))
cwrite("untyped-public-def", "shop/orders.py", "from shop.mod0 import helper_0\n\n\ndef order_total(count):\n    return helper_0(count)\n", conv("fully type-hinted"))
cwrite("unittest-class", "tests/test_orders.py", "import unittest\n\n\nclass OrdersTest(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(1, 1)\n", conv("plain pytest functions"))
cwrite("test-outside-tests", "shop/test_inline.py", "def test_inline():\n    assert True\n", conv("Test files here live in tests/"))
cwrite("camel-test-name", "tests/test_orders.py", "def testOrderTotal():\n    assert True\n", conv("test_snake_case"))
cwrite("untyped-multiline-def", "shop/orders.py", "from shop.mod0 import helper_0\n\n\ndef order_total(\n    count,\n    scale=1,\n):\n    return helper_0(count) * scale\n", conv("fully type-hinted"))
# near misses
cwrite("typed-multiline-def", "shop/orders.py", "from shop.mod0 import helper_0\n\n\ndef order_total(\n    count: int,\n    scale: int = 1,\n) -> int:\n    return helper_0(count) * scale\n", [])
cwrite("typed-snake-def", "shop/users.py", "def fetch_user(user_id: int) -> dict:\n    return {\"id\": user_id}\n", [])
cwrite("private-untyped-helper", "shop/users.py", "from shop.mod0 import helper_0\n\n\ndef _cache_key(user_id):\n    return f\"user:{user_id}\"\n", [])
cedit("specific-except", "shop/mod0.py", "def helper_0(value: int) -> int:\n    return value", "def helper_0(value: int) -> int:\n    try:\n        return int(value)\n    except ValueError:\n        return 0", [])
cwrite("print-in-script", "scripts/release.py", "def main() -> None:\n    print(\"released\")\n", [])
cwrite("print-in-test", "tests/test_debug.py", "def test_debug():\n    print(\"debugging\")\n    assert True\n", [])
cwrite("absolute-import", "shop/orders.py", "from shop.mod0 import helper_0\n\n\ndef order_total(count: int) -> int:\n    return helper_0(count)\n", [])
cwrite("pytest-test-in-tests", "tests/test_orders.py", "from shop.mod0 import helper_0\n\n\ndef test_order_total():\n    assert helper_0(2) == 2\n", [])
cwrite("pytest-class-without-testcase", "tests/test_orders.py", "class TestOrders:\n    def test_total(self):\n        assert True\n", [])
cwrite("setup-method-camel-ok", "tests/test_orders.py", "class TestOrders:\n    def setUp(self):\n        self.n = 1\n\n    def test_total(self):\n        assert self.n\n", [])
cwrite("readme-edit", "README.md", "# shop\n\nprint(\"hello\") in a code sample, except: too.\n", [])
with open(os.path.join(HERE, "conventions.jsonl"), "w") as out:
    for case in C:
        out.write(json.dumps(case) + "\n")
print("conventions cases", len(C))
