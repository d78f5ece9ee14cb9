"""Writes tests/scenarios/tools.jsonl, tools-heldout.jsonl and conventions.jsonl (the output is
committed).

    .venv/bin/python tests/scenarios/build_tools_conventions.py

The cases are written here because some carry generated files: a function index
(`.sidekit/index/functions.json`) built from the case's own files, and a conventions pack learned
from the fixture repo of tests/code/test_conventions.py.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, "tests", "rules"))
sys.path.insert(0, os.path.join(REPO, "tests"))  # the shared test helpers (testing/)
import tomli_w

from sidekit_hooks.rules.authoring import learn
from testing import scenario_build
from testing.near_copy import NEW_SLUG, SLUGIFY
from testing.scenario_build import Case, Expect, counted, function_index_text, said, write_cases


def with_index(files: dict[str, str]) -> dict[str, str]:
    """`files` and the function index of their Python files, as a project has it once a session
    started."""
    return {
        **files,
        ".sidekit/index/functions.json": function_index_text(
            {k: v for k, v in files.items() if k.endswith(".py")}
        ),
    }


PYPROJECT = '[project]\nname = "shop"\ndependencies = ["requests"]\n'


def pyproject(*deps: str) -> str:
    listed = ", ".join(f'"{d}"' for d in deps)
    return f'[project]\nname = "shop"\ndependencies = [{listed}]\n'


BASE = {
    "pyproject.toml": PYPROJECT,
    "shop/__init__.py": "",
    "shop/pricing.py": 'PRICES = {"apple": 50}\n\n\ndef unit_price(sku: str) -> int:\n    return '
    "PRICES[sku]\n",
}

CHUNKED = "def chunked(items, size):\n    out = []\n    for start in range(0, len(items), size):\n        out.append(items[start:start + size])\n    return out\n"
BATCHES = "def batches(seq, n):\n    result = []\n    for i in range(0, len(seq), n):\n        result.append(seq[i:i + n])\n    return result\n"
DURATION = 'def parse_duration(text):\n    units = {"s": 1, "m": 60, "h": 3600}\n    text = text.strip()\n    if text[-1] in units:\n        return float(text[:-1]) * units[text[-1]]\n    return float(text)\n'
SIZE = 'def parse_size(text):\n    units = {"k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}\n    text = text.strip().lower()\n    if text[-1] in units:\n        return int(float(text[:-1]) * units[text[-1]])\n    return int(text)\n'
RETRY = '\n\ndef fetch(url):\n    for attempt in range(5):\n        try:\n            return requests.get(url, timeout=5)\n        except requests.RequestException:\n            time.sleep(2 ** attempt)\n    raise RuntimeError("gave up")\n'
THROTTLE = "\n\ndef crawl(urls):\n    results = []\n    for url in urls:\n        response = requests.get(url, timeout=5)\n        results.append(response.text)\n        time.sleep(1)\n    return results\n"
POLL_PW = 'from playwright.sync_api import Page\nimport time\n\n\ndef test_checkout(page: Page):\n    page.goto("/checkout")\n    page.click("#pay")\n    deadline = time.time() + 10\n    while time.time() < deadline:\n        if page.locator("#done").is_visible():\n            break\n        time.sleep(0.5)\n    else:\n        raise AssertionError("never paid")\n'
JS_POLL = "import { test } from '@playwright/test';\n\ntest('cart', async ({ page }) => {\n  await page.goto('/cart');\n  while (true) {\n    const el = await page.$('#total');\n    if (el) break;\n    await page.waitForTimeout(500);\n  }\n});\n"
WAIT_HELPER = "import time\n\n\ndef wait_until(predicate, timeout=10.0):\n    end = time.time() + timeout\n    while time.time() < end:\n        if predicate():\n            return True\n        time.sleep(0.1)\n    return False\n"
POLL_PLAIN = "\n\ndef test_worker_finishes(worker):\n    worker.start()\n    deadline = time.time() + 5\n    while time.time() < deadline:\n        if worker.done:\n            break\n        time.sleep(0.1)\n    assert worker.done\n"


def bash(
    name: str,
    command: str,
    expect: Expect,
    files: dict[str, str] | None = None,
    error: str | None = None,
    index: bool = False,
    stdout: str | None = None,
) -> Case:
    all_files = {**BASE, **(files or {})}
    if index:  # the grep hint speaks only for a name an index knows as a definition
        all_files = with_index(all_files)
    tool_input = {"command": command, "description": "run"}
    return scenario_build.case(
        name, all_files, "Bash", tool_input, expect, stdout=stdout, error=error or ""
    )


def tools_exp(contains: str = "", text: str = "") -> Expect:
    return said("tools", contains, text)


T: list[Case] = []
# --- catalog: true positives The raw-run hint is for pages of red output that reached the model
# (piped, the run exits 0); a short or green run cost next to nothing and gets no hint (#18).
LONG_RED = (
    "".join(f"tests/test_cart.py:{n}: AssertionError: assert {n} == {n + 1}\n" for n in range(60))
    + "FAILED tests/test_cart.py::test_total - AssertionError\n60 failed, 3 passed in 0.41s\n"
)
T.append(
    bash(
        "raw-pytest",
        "python -m pytest -q 2>&1 | tail -80",
        tools_exp("`sidekit test` runs pytest"),
        stdout=LONG_RED,
    )
)
T.append(
    bash(
        "raw-pytest-uv-one-file",
        "uv run pytest -x tests/test_cart.py 2>&1 | tail -80",
        tools_exp("`sidekit test tests/test_cart.py`"),
        stdout=LONG_RED,
    )
)
T.append(
    bash(
        "raw-pytest-failed-is-the-tests-sidecars",
        "pytest -q tests/test_cart.py",
        [],
        error="Exit code 1\nFAILED tests/test_cart.py::test_total - assert 90 == 100\n1 failed, 3 "
        "passed in 0.05s",
    )
)
# A habit hint speaks only when the command's output was long (>= 2 KB): a read or search that
# answered in a few lines cost the model nothing (the independent reviewer labelled those noise,
# #18).
LONG = "".join(
    f"shop/pricing.py:{n}:    return PRICES[sku]  # line {n} of a long listing\n"
    for n in range(1, 60)
)
T.append(
    bash(
        "grep-identifier-short-answer",
        "grep -rn unit_price .",
        [],
        index=True,
        stdout="shop/pricing.py:4:def unit_price(sku: str) -> int:\n",
    )
)
T.append(
    bash(
        "grep-identifier",
        "grep -rn unit_price .",
        tools_exp("`sidekit usages unit_price`"),
        index=True,
        stdout=LONG,
    )
)
T.append(
    bash(
        "git-grep-identifier",
        "git grep -n unit_price -- '*.py'",
        tools_exp("`sidekit usages unit_price`"),
        index=True,
        stdout=LONG,
    )
)
T.append(
    bash(
        "rg-def",
        'rg -n "def unit_price" shop',
        tools_exp("`sidekit symbol unit_price`"),
        index=True,
        stdout=LONG,
    )
)
# near misses: `sidekit usages` would not answer what the grep asks (a parameter), or nothing is
# indexed yet
T.append(bash("grep-parameter-not-a-definition", "grep -rn sku .", [], index=True))
T.append(bash("grep-identifier-before-any-index", "grep -rn unit_price .", []))
T.append(
    bash(
        "cat-source",
        "cat shop/pricing.py",
        tools_exp(
            text="[sidecar:tools] `cat` of shop/pricing.py: use the Read tool instead; it shows "
            "line numbers and pages long files without the shell."
        ),
        stdout=LONG,
    )
)
T.append(
    bash(
        "tail-log",
        "tail -n 100 logs/app.log",
        tools_exp("Read tool with offset/limit"),
        stdout=LONG,
    )
)
# Claude Code can run without the Glob tool ("Glob is not available in this session"): the find hint
# waits until the Glob tool has answered in the session (the reviewer labelled it wrong otherwise,
# #18).
T.append(bash("find-name", 'find . -name "*.toml"', []))
T.append(
    {
        "name": "glob-answers",
        "files": BASE,
        "tool": "Glob",
        "input": {"pattern": "**/*.py"},
        "response": {
            "filenames": ["shop/pricing.py"],
            "durationMs": 3,
            "numFiles": 1,
            "truncated": False,
        },
        "expect": [],
        "session": "find-after-glob",
    }
)
T.append(
    {
        **bash(
            "find-name-after-glob",
            'find . -name "*.toml"',
            tools_exp("the Glob tool does this (pattern `**/*.toml`)"),
            stdout=LONG,
        ),
        "session": "find-after-glob",
    }
)
T.append(
    bash(
        "sed-print-range",
        "sed -n '1,40p' shop/pricing.py",
        tools_exp("`sed -n 1,40p` of shop/pricing.py: use the Read tool with offset/limit"),
        stdout=LONG,
    )
)
# --- catalog: near misses
for name, command in [
    ("pytest-version", "pytest --version"),
    ("sidekit-test", "sidekit test tests/"),
    ("grep-todo", 'grep -rn "TODO" .'),
    ("grep-one-file", "grep -n unit_price shop/pricing.py"),
    ("grep-phrase-in-logs", 'grep -rn "connection refused" logs/'),
    ("rg-js-only", "rg -t js unit_price"),
    ("cat-heredoc-write", "cat > notes.md <<'EOF'\n# notes\nEOF"),
    ("cat-piped", "cat shop/pricing.py | grep def"),
    ("tail-follow", "tail -f logs/app.log"),
    ("find-delete", 'find . -name "*.pyc" -delete'),
    ("find-dirs", "find . -type d -name __pycache__"),
    ("git-log-head", "git log --oneline | head -5"),
    ("head-bytes", "head -c 100 data.bin"),
    ("pip-install", "python -m pip install -e ."),
    ("sed-in-place", "sed -i 's/50/55/' shop/pricing.py"),
    ("cat-substitution", 'echo "version $(cat VERSION)"'),
]:
    T.append(bash(name, command, []))


# --- hand-written waits
def edit(
    name: str,
    files: dict[str, str],
    path: str,
    old: str,
    new: str,
    expect: Expect,
    index: bool = False,
) -> Case:
    all_files = {**BASE, **files}
    if path not in all_files:
        all_files[path] = old + "\n"
    if index:
        all_files = with_index(all_files)
    return scenario_build.case(
        name, all_files, "Edit", {"file_path": path, "old_string": old, "new_string": new}, expect
    )


def write(
    name: str, files: dict[str, str], path: str, content: str, expect: Expect, index: bool = False
) -> Case:
    all_files = {**BASE, **files}
    if index:
        all_files = with_index(all_files)
    return scenario_build.case(
        name, all_files, "Write", {"file_path": path, "content": content}, expect
    )


T.append(
    edit(
        "retry-loop-tenacity",
        {"pyproject.toml": pyproject("requests", "tenacity>=8")},
        "shop/client.py",
        "import requests\nimport time",
        "import requests\nimport time" + RETRY,
        tools_exp("tenacity is a dependency: `@retry(stop=stop_after_attempt(n)"),
    )
)
T.append(
    edit(
        "retry-loop-backoff",
        {"pyproject.toml": pyproject("requests", "backoff")},
        "shop/client.py",
        "import requests\nimport time",
        "import requests\nimport time" + RETRY,
        tools_exp("backoff is a dependency"),
    )
)
T.append(
    write(
        "poll-loop-playwright-py",
        {"pyproject.toml": pyproject("pytest-playwright")},
        "tests/e2e/test_checkout.py",
        POLL_PW,
        tools_exp("Playwright already waits: `page.wait_for_selector(sel)`"),
    )
)
T.append(
    write(
        "poll-loop-playwright-js",
        {"package.json": '{"devDependencies": {"@playwright/test": "^1.50.0"}}'},
        "e2e/cart.spec.ts",
        JS_POLL,
        tools_exp("`await page.waitForSelector(sel)`"),
    )
)
T.append(
    edit(
        "poll-loop-project-helper",
        {"tests/helpers.py": WAIT_HELPER},
        "tests/test_worker.py",
        "import time",
        "import time" + POLL_PLAIN,
        tools_exp("tests/helpers.py:4 wait_until(predicate, timeout) already does this; use it."),
        index=True,
    )
)
T.append(
    edit(
        "retry-loop-no-library",
        {},
        "shop/client.py",
        "import requests\nimport time",
        "import requests\nimport time" + RETRY,
        [],
    )
)
T.append(
    edit(
        "throttle-loop-with-tenacity",
        {"pyproject.toml": pyproject("requests", "tenacity")},
        "shop/crawl.py",
        "import requests\nimport time",
        "import requests\nimport time" + THROTTLE,
        [],
    )
)
T.append(
    edit(
        "poll-loop-no-helper",
        {},
        "tests/test_worker.py",
        "import time",
        "import time" + POLL_PLAIN,
        [],
    )
)
T.append(
    edit(
        "retry-loop-in-docs",
        {"pyproject.toml": pyproject("requests", "tenacity")},
        "docs/retries.md",
        "# Retries",
        "# Retries\n\nWithout tenacity it looks like this:\n\n```python" + RETRY + "```\n",
        [],
    )
)

# --- helper reinvention
SLUGIFY_UTILS = {
    "utils/__init__.py": "",
    "utils/text.py": SLUGIFY,
}  # a project with slugify in its utils
T.append(
    edit(
        "reinvent-slugify",
        SLUGIFY_UTILS,
        "app/views.py",
        "import re\nimport unicodedata",
        "import re\nimport unicodedata\n\n\n" + NEW_SLUG,
        tools_exp(
            text="[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it "
            "instead of new_slug()."
        ),
        index=True,
    )
)
T.append(
    write(
        "reinvent-chunked-new-module",
        {"shop/util.py": CHUNKED},
        "shop/batching.py",
        '"""Batching."""\n\n\n' + BATCHES,
        tools_exp(
            text="[sidecar:tools] shop/util.py:1 chunked(items, size) already does this; reuse it "
            "instead of batches()."
        ),
        index=True,
    )
)
T.append(
    edit(
        "reinvent-in-same-file",
        {"shop/units.py": DURATION},
        "shop/units.py",
        DURATION,
        DURATION
        + "\n\n"
        + DURATION.replace("parse_duration(text)", "duration_seconds(value)").replace(
            "text", "value"
        ),
        tools_exp(
            text="[sidecar:tools] shop/units.py:1 parse_duration(text) already does this; reuse "
            "it instead of duration_seconds()."
        ),
        index=True,
    )
)
T.append(
    edit(
        "edit-the-helper-itself",
        SLUGIFY_UTILS,
        "utils/text.py",
        "    return value\n",
        '    return value or "n-a"\n',
        [],
        index=True,
    )
)
T.append(
    edit(
        "similar-shape-other-work",
        {"shop/units.py": DURATION},
        "shop/sizes.py",
        '"""Sizes."""',
        '"""Sizes."""\n\n\n' + SIZE,
        [],
        index=True,
    )
)
T.append(
    edit(
        "short-duplicate-below-five-lines",
        {"shop/util.py": "def double(x):\n    y = x * 2\n    return y\n"},
        "shop/other.py",
        '"""Other."""',
        '"""Other."""\n\n\ndef twice(v):\n    w = v * 2\n    return w\n',
        [],
        index=True,
    )
)
T.append(
    edit(
        "new-function-no-match",
        SLUGIFY_UTILS,
        "shop/cart.py",
        '"""Cart."""',
        '"""Cart."""\n\n\ndef cart_total(items, prices):\n    total = 0\n    for sku, count in '
        "items.items():\n        total += prices[sku] * count\n    return total\n",
        [],
        index=True,
    )
)

GET_USER = 'from django.http import JsonResponse\n\nfrom shop.models import Order, User\n\n\ndef get_user(request, user_id):\n    obj = User.objects.filter(id=user_id).first()\n    if obj is None:\n        return JsonResponse({"error": "not found"}, status=404)\n    data = obj.to_dict()\n    return JsonResponse(data)\n'
GET_ORDER = '\n\ndef get_order(request, order_id):\n    obj = Order.objects.filter(id=order_id).first()\n    if obj is None:\n        return JsonResponse({"error": "not found"}, status=404)\n    data = obj.to_dict()\n    return JsonResponse(data)\n'
DEDUPE = "def dedupe(items):\n    seen = set()\n    out = []\n    for item in items:\n        if item not in seen:\n            seen.add(item)\n            out.append(item)\n    return out\n"
UNIQUE = 'def unique_in_order(values):\n    """Drop repeats, keep the first of each."""\n    seen_values = set()\n    result = []\n    for value in values:\n        if value not in seen_values:\n            seen_values.add(value)\n            result.append(value)\n    return result\n'
DUPS = "def duplicates(items):\n    seen = set()\n    out = []\n    for item in items:\n        if item in seen:\n            out.append(item)\n        seen.add(item)\n    return out\n"
T.append(
    edit(
        "same-handler-other-model",
        {"shop/views.py": GET_USER},
        "shop/views.py",
        "    return JsonResponse(data)\n",
        "    return JsonResponse(data)\n" + GET_ORDER,
        [],
        index=True,
    )
)
T.append(
    write(
        "reinvent-dedupe",
        {"shop/util.py": DEDUPE},
        "shop/report.py",
        '"""Reports."""\n\n\n' + UNIQUE,
        tools_exp(
            text="[sidecar:tools] shop/util.py:1 dedupe(items) already does this; reuse it "
            "instead of unique_in_order()."
        ),
        index=True,
    )
)
T.append(
    write(
        "opposite-of-dedupe",
        {"shop/util.py": DEDUPE},
        "shop/report.py",
        '"""Reports."""\n\n\n' + DUPS,
        [],
        index=True,
    )
)

write_cases(os.path.join(HERE, "tools.jsonl"), T)
print("tools cases", len(T))

# ---------------- tools, held out (tools-heldout.jsonl) Written after the thresholds were set, from
# the way helpers look in ordinary projects, and never used to tune anything: scored apart ("tools
# (held out)"), and a miss here is reported, not fixed by tuning. A case the sidecar gets wrong
# carries `xfail` with what went wrong, so the suite stays green and the row shows it.
HB = {
    "pyproject.toml": '[project]\nname = "notes"\ndependencies = ["flask", "requests"]\n',
    "app/__init__.py": "",
}
ENSURE_DIR = 'import os\n\n\ndef ensure_dir(path):\n    """Create `path` (and parents) if missing; return it."""\n    if not os.path.isdir(path):\n        os.makedirs(path, exist_ok=True)\n    return path\n'
FLATTEN = "def flatten(items):\n    result = []\n    for item in items:\n        if isinstance(item, (list, tuple)):\n            result.extend(flatten(item))\n        else:\n            result.append(item)\n    return result\n"
HUMAN_SIZE = 'def human_size(num_bytes):\n    for unit in ["B", "KB", "MB", "GB", "TB"]:\n        if abs(num_bytes) < 1024:\n            return f"{num_bytes:.1f} {unit}"\n        num_bytes /= 1024\n    return f"{num_bytes:.1f} PB"\n'
CAMEL = 'import re\n\n_first = re.compile(r"(.)([A-Z][a-z]+)")\n_rest = re.compile(r"([a-z0-9])([A-Z])")\n\n\ndef camel_to_snake(name):\n    name = _first.sub(r"\\1_\\2", name)\n    return _rest.sub(r"\\1_\\2", name).lower()\n'
MERGE = 'def deep_merge(base, override):\n    """A new dict: `override` on top of `base`, nested dicts merged."""\n    merged = dict(base)\n    for key, value in override.items():\n        if isinstance(value, dict) and isinstance(merged.get(key), dict):\n            merged[key] = deep_merge(merged[key], value)\n        else:\n            merged[key] = value\n    return merged\n'
DIGEST = 'import hashlib\n\n\ndef sha256_of(path, chunk_size=65536):\n    digest = hashlib.sha256()\n    with open(path, "rb") as handle:\n        for chunk in iter(lambda: handle.read(chunk_size), b""):\n            digest.update(chunk)\n    return digest.hexdigest()\n'
BOOL = 'def parse_bool(value):\n    if isinstance(value, bool):\n        return value\n    text = str(value).strip().lower()\n    if text in ("1", "true", "yes", "on"):\n        return True\n    if text in ("0", "false", "no", "off", ""):\n        return False\n    raise ValueError(f"not a boolean: {value!r}")\n'
TRUNC = 'def truncate(text, length=80, suffix="..."):\n    if len(text) <= length:\n        return text\n    return text[: length - len(suffix)].rstrip() + suffix\n'
PAGE = 'def paginate(items, page, per_page=20):\n    start = (page - 1) * per_page\n    end = start + per_page\n    pages = (len(items) + per_page - 1) // per_page\n    return {"items": items[start:end], "page": page, "pages": pages, "total": len(items)}\n'
LOAD_JSON = 'import json\n\n\ndef load_json(path, default=None):\n    try:\n        with open(path, encoding="utf-8") as handle:\n            return json.load(handle)\n    except FileNotFoundError:\n        return default\n'
UTILS = {
    "app/utils/__init__.py": "",
    "app/utils/files.py": ENSURE_DIR
    + "\n\n"
    + DIGEST.replace("import hashlib\n\n\n", "")
    + "\n\n"
    + LOAD_JSON.replace("import json\n\n\n", ""),
    "app/utils/text.py": CAMEL + "\n\n" + TRUNC,
    "app/utils/data.py": FLATTEN + "\n\n" + MERGE + "\n\n" + PAGE,
    "app/utils/units.py": HUMAN_SIZE,
    "app/config.py": BOOL,
}
UTILS["app/utils/files.py"] = "import hashlib\nimport json\n" + UTILS["app/utils/files.py"]


def where(path: str, name: str) -> str:
    """`path:line name(` of a helper, as the tools sidecar names it."""
    line = next(
        i for i, text in enumerate(UTILS[path].splitlines(), 1) if text.startswith(f"def {name}(")
    )
    return f"{path}:{line} {name}("


# What the first run of these cases showed (2026-12-01), recorded as known misses, thresholds
# untouched.
HELD_OUT_MISSES = {
    "reinvent-ensure-dir": "held out: a renamed copy of ensure_dir (a three-line body) gets no "
    "nudge (#13)",
    "reinvent-camel-to-snake": "held out: camel_to_snake with its two regexes inlined instead of "
    "precompiled gets no nudge (#13)",
    "reinvent-file-digest": "held out: sha256_of with a `while True` read loop instead of "
    "iter(lambda) gets no nudge (#13)",
    "reinvent-truncate": "held out: a renamed copy of truncate (a three-line body) gets no nudge "
    "(#13)",
}
H: list[Case] = []


def hwrite(name: str, path: str, content: str, expect: Expect, xfail: str = "") -> None:
    files = {**HB, **UTILS}
    files = with_index(files)
    case: Case = {
        "name": name,
        "files": files,
        "tool": "Write",
        "input": {"file_path": path, "content": content},
        "expect": expect,
    }
    xfail = xfail or HELD_OUT_MISSES.get(name, "")
    if xfail:
        case["xfail"] = xfail
    H.append(case)


def reuse(path: str, name: str) -> Expect:
    return tools_exp(where(path, name))


# reinventions: an existing helper written again elsewhere, renamed, sometimes reshaped
hwrite(
    "reinvent-ensure-dir",
    "app/export.py",
    "import os\n\n\ndef make_output_dir(directory):\n    if not os.path.isdir(directory):\n       "
    " os.makedirs(directory, exist_ok=True)\n    return directory\n",
    reuse("app/utils/files.py", "ensure_dir"),
)
hwrite(
    "reinvent-flatten",
    "app/search.py",
    '"""Search."""\n\n\ndef flatten_list(data):\n    out = []\n    for element in data:\n        '
    "if isinstance(element, (list, tuple)):\n            out.extend(flatten_list(element))\n        else:\n            out.append(element)\n    return out\n",
    reuse("app/utils/data.py", "flatten"),
)
hwrite(
    "reinvent-human-size-as-while",
    "app/views.py",
    '"""Views."""\n\n\ndef format_bytes(size):\n    units = ["B", "KB", "MB", "GB", "TB"]\n    '
    'index = 0\n    while abs(size) >= 1024 and index < len(units) - 1:\n        size /= 1024\n        index += 1\n    return f"{size:.1f} {units[index]}"\n',
    reuse("app/utils/units.py", "human_size"),
)
hwrite(
    "reinvent-camel-to-snake",
    "app/api/serializers.py",
    'import re\n\n\ndef to_snake_case(value):\n    value = re.sub(r"(.)([A-Z][a-z]+)", '
    'r"\\1_\\2", value)\n    return re.sub(r"([a-z0-9])([A-Z])", r"\\1_\\2", value).lower()\n',
    reuse("app/utils/text.py", "camel_to_snake"),
)
hwrite(
    "reinvent-deep-merge",
    "app/settings.py",
    '"""Settings."""\n\n\ndef merge_dicts(defaults, overrides):\n    result = dict(defaults)\n    '
    "for k, v in overrides.items():\n        if isinstance(v, dict) and isinstance(result.get(k), dict):\n            result[k] = merge_dicts(result[k], v)\n        else:\n            result[k] = v\n    return result\n",
    reuse("app/utils/data.py", "deep_merge"),
)
hwrite(
    "reinvent-file-digest",
    "app/uploads.py",
    "import hashlib\n\n\ndef file_checksum(filename):\n    h = hashlib.sha256()\n    with "
    'open(filename, "rb") as f:\n        while True:\n            block = f.read(65536)\n            if not block:\n                break\n            h.update(block)\n    return h.hexdigest()\n',
    reuse("app/utils/files.py", "sha256_of"),
)
hwrite(
    "reinvent-parse-bool",
    "app/cli.py",
    '"""Command line."""\n\n\ndef str_to_bool(raw):\n    if isinstance(raw, bool):\n        '
    'return raw\n    value = str(raw).strip().lower()\n    if value in ("1", "true", "yes", "on"):\n        return True\n    if value in ("0", "false", "no", "off", ""):\n        return False\n    raise ValueError(f"not a boolean: {raw!r}")\n',
    reuse("app/config.py", "parse_bool"),
)
hwrite(
    "reinvent-truncate",
    "app/templates_helpers.py",
    '"""Jinja filters."""\n\n\ndef shorten(s, max_len=80, ellipsis="..."):\n    if len(s) <= '
    "max_len:\n        return s\n    return s[: max_len - len(ellipsis)].rstrip() + ellipsis\n",
    reuse("app/utils/text.py", "truncate"),
)
hwrite(
    "reinvent-paginate",
    "app/api/notes.py",
    '"""Notes API."""\n\n\ndef page_of(rows, page_number, size=20):\n    first = (page_number - '
    '1) * size\n    last = first + size\n    page_count = (len(rows) + size - 1) // size\n    return {"items": rows[first:last], "page": page_number, "pages": page_count, "total": len(rows)}\n',
    reuse("app/utils/data.py", "paginate"),
)
hwrite(
    "reinvent-load-json",
    "app/importer.py",
    "import json\n\n\ndef read_json_file(filename, fallback=None):\n    try:\n        with "
    'open(filename, encoding="utf-8") as fh:\n            return json.load(fh)\n    except FileNotFoundError:\n        return fallback\n',
    reuse("app/utils/files.py", "load_json"),
)
# near misses: the same shape doing other work
hwrite(
    "flatten-dict-is-not-flatten",
    "app/search.py",
    '"""Search."""\n\n\ndef flatten_dict(data, parent="", sep="."):\n    out = {}\n    for key, '
    'value in data.items():\n        name = f"{parent}{sep}{key}" if parent else key\n        if isinstance(value, dict):\n            out.update(flatten_dict(value, name, sep))\n        else:\n            out[name] = value\n    return out\n',
    [],
)
hwrite(
    "snake-to-camel-is-the-inverse",
    "app/api/serializers.py",
    'def to_camel_case(value):\n    head, *rest = value.split("_")\n    return head + '
    '"".join(part.title() for part in rest)\n',
    [],
)
hwrite(
    "human-duration-not-size",
    "app/views.py",
    '"""Views."""\n\n\ndef human_duration(seconds):\n    for unit, step in [("s", 60), ("min", '
    '60), ("h", 24)]:\n        if abs(seconds) < step:\n            return f"{seconds:.1f} {unit}"\n        seconds /= step\n    return f"{seconds:.1f} d"\n',
    [],
)
hwrite(
    "diff-dicts-not-merge",
    "app/audit.py",
    '"""Audit trail."""\n\n\ndef diff_dicts(before, after):\n    changes = {}\n    for key in '
    "before.keys() | after.keys():\n        old, new = before.get(key), after.get(key)\n        if isinstance(old, dict) and isinstance(new, dict):\n            nested = diff_dicts(old, new)\n            if nested:\n                changes[key] = nested\n        elif old != new:\n            changes[key] = (old, new)\n    return changes\n",
    [],
)
hwrite(
    "count-lines-not-digest",
    "app/uploads.py",
    'def count_lines(path, chunk_size=65536):\n    total = 0\n    with open(path, "rb") as '
    'handle:\n        for chunk in iter(lambda: handle.read(chunk_size), b""):\n            total += chunk.count(b"\\n")\n    return total\n',
    [],
)
hwrite(
    "parse-log-level-not-bool",
    "app/logging_setup.py",
    "import logging\n\n\ndef parse_level(value):\n    text = str(value).strip().upper()\n    if "
    'text in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):\n        return getattr(logging, text)\n    if text.isdigit():\n        return int(text)\n    raise ValueError(f"not a log level: {value!r}")\n',
    [],
)
hwrite(
    "save-json-not-load",
    "app/exporter.py",
    'import json\nimport os\n\n\ndef save_json(path, data):\n    tmp = path + ".tmp"\n    with '
    'open(tmp, "w", encoding="utf-8") as handle:\n        json.dump(data, handle, indent=2)\n    os.replace(tmp, path)\n',
    [],
)
hwrite(
    "pad-not-truncate",
    "app/templates_helpers.py",
    '"""Jinja filters."""\n\n\ndef pad(text, width=80, fill=" "):\n    if len(text) >= width:\n   '
    "     return text\n    return text + fill * (width - len(text))\n",
    [],
)
hwrite(
    "sliding-window-not-paginate",
    "app/stats.py",
    "def moving_average(values, window=7):\n    averages = []\n    for end in range(window, "
    "len(values) + 1):\n        chunk = values[end - window:end]\n        averages.append(sum(chunk) / window)\n    return averages\n",
    [],
)
hwrite(
    "test-of-the-helper-is-not-a-copy",
    "tests/test_data.py",
    "from app.utils.data import flatten\n\n\ndef test_flatten_nested():\n    nested = [1, [2, [3, "
    "4]], (5,)]\n    result = flatten(nested)\n    assert result == [1, 2, 3, 4, 5]\n",
    [],
)


# the shell catalog, held out: commands written the way agents type them, not the tuned ones
def hbash(
    name: str, command: str, expect: Expect, xfail: str = "", stdout: str | None = None
) -> None:
    files = {
        **HB,
        **UTILS,
    }  # with the function index, as every project has it once a session started (#14)
    files = with_index(files)
    case: Case = {
        "name": name,
        "files": files,
        "tool": "Bash",
        "input": {"command": command, "description": "run"},
        "expect": expect,
    }
    if stdout is not None:
        case["response"] = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}
    if xfail:
        case["xfail"] = xfail
    H.append(case)


hbash(
    "grep-include-identifier",
    'grep -rn "parse_bool" --include="*.py" .',
    tools_exp("sidekit usages parse_bool"),
    stdout=LONG,
)
hbash(
    "rg-word-identifier",
    "rg -w deep_merge app/",
    tools_exp("sidekit usages deep_merge"),
    stdout=LONG,
)
hbash(
    "grep-def", 'grep -rn "def ensure_dir" app', tools_exp("sidekit symbol ensure_dir"), stdout=LONG
)
hbash("head-source", "head -n 60 app/utils/data.py", tools_exp("Read tool"), stdout=LONG)
hbash(
    "venv-pytest", ".venv/bin/python -m pytest tests/test_data.py -q", []
)  # no output: no raw-run hint (#18)
hbash(
    "find-type-f-name", 'find app -type f -name "*.py"', []
)  # no Glob seen in the session (#18 reviewer)
hbash("grep-count-in-log", "grep -c ERROR logs/app.log", [])
hbash("rg-files-count", "rg --files | wc -l", [])
hbash("find-old-logs-delete", 'find logs -name "*.log" -mtime +7 -delete', [])
hbash("git-grep-phrase", 'git grep -n "TODO(alice)"', [])
hbash("pytest-collect-only", "python -m pytest --collect-only -q", [])
hbash("flask-routes", "flask --app app routes", [])

write_cases(os.path.join(HERE, "tools-heldout.jsonl"), H)
print(counted("tools held-out", H))

# ---------------- conventions
from pathlib import Path

from test_conventions_learn import typed_repo  # the fixture repo of the unit tests

with tempfile.TemporaryDirectory() as tmp:
    typed_repo(Path(tmp))
    rules, _ = learn.learn(tmp)
    document = learn.pack(rules)
    for rule in document["rules"]:
        del rule[
            "examples"
        ]  # kept short here: the scenarios exercise matching, `sidekit rules test` the examples
    PACK = (
        "# Learned by `sidekit conventions learn` from the typed fixture repo (examples left "
        "out).\n\n" + tomli_w.dumps(document, multiline_strings=True)
    )
FILES = {
    "pyproject.toml": "[project]\nname = 'shop'\n",
    "shop/__init__.py": "",
    "shop/mod0.py": "import logging\n\nlog = logging.getLogger(__name__)\n\n\ndef helper_0(value: "
    "int) -> int:\n    return value\n",
    "sidecar_rules/conventions.toml": PACK,
}
C: list[Case] = []


def cwrite(name: str, path: str, content: str, expect: Expect) -> None:
    C.append(
        {
            "name": name,
            "files": FILES,
            "tool": "Write",
            "input": {"file_path": path, "content": content},
            "expect": expect,
        }
    )


def cedit(name: str, path: str, old: str, new: str, expect: Expect) -> None:
    files = dict(FILES)
    files.setdefault(path, old + "\n")
    C.append(
        {
            "name": name,
            "files": files,
            "tool": "Edit",
            "input": {"file_path": path, "old_string": old, "new_string": new},
            "expect": expect,
        }
    )


def conv(contains: str) -> Expect:
    return [{"sidecar": "conventions", "contains": contains}]


cwrite(
    "camel-case-def",
    "shop/users.py",
    'def fetchUser(user_id: int) -> dict:\n    return {"id": user_id}\n',
    conv("Functions here are snake_case"),
)
cwrite(
    "lower-case-class",
    "shop/store.py",
    "class user_store:\n    def get(self, key: str) -> int:\n        return 0\n",
    conv("Classes here are CapWords"),
)
cedit(
    "bare-except",
    "shop/mod0.py",
    "def helper_0(value: int) -> int:\n    return value",
    "def helper_0(value: int) -> int:\n    try:\n        return int(value)\n    except:\n        "
    "return 0",
    conv("No bare `except:` here"),
)
cedit(
    "print-in-library",
    "shop/mod0.py",
    "def helper_0(value: int) -> int:\n    return value",
    'def helper_0(value: int) -> int:\n    print("helper", value)\n    return value',
    conv("Library modules here do not print"),
)
cwrite(
    "relative-import",
    "shop/orders.py",
    "from .mod0 import helper_0\n\n\ndef order_total(count: int) -> int:\n    return "
    "helper_0(count)\n",
    conv("Imports inside shop are absolute"),
)
cwrite(
    "untyped-public-def",
    "shop/orders.py",
    "from shop.mod0 import helper_0\n\n\ndef order_total(count):\n    return helper_0(count)\n",
    conv("fully type-hinted"),
)
cwrite(
    "unittest-class",
    "tests/test_orders.py",
    "import unittest\n\n\nclass OrdersTest(unittest.TestCase):\n    def test_total(self):\n       "
    " self.assertEqual(1, 1)\n",
    conv("plain pytest functions"),
)
cwrite(
    "test-outside-tests",
    "shop/test_inline.py",
    "def test_inline():\n    assert True\n",
    conv("Test files here live in tests/"),
)
cwrite(
    "camel-test-name",
    "tests/test_orders.py",
    "def testOrderTotal():\n    assert True\n",
    conv("test_snake_case"),
)
cwrite(
    "untyped-multiline-def",
    "shop/orders.py",
    "from shop.mod0 import helper_0\n\n\ndef order_total(\n    count,\n    scale=1,\n):\n    "
    "return helper_0(count) * scale\n",
    conv("fully type-hinted"),
)
# near misses
cwrite(
    "typed-multiline-def",
    "shop/orders.py",
    "from shop.mod0 import helper_0\n\n\ndef order_total(\n    count: int,\n    scale: int = "
    "1,\n) -> int:\n    return helper_0(count) * scale\n",
    [],
)
cwrite(
    "typed-snake-def",
    "shop/users.py",
    'def fetch_user(user_id: int) -> dict:\n    return {"id": user_id}\n',
    [],
)
cwrite(
    "private-untyped-helper",
    "shop/users.py",
    'from shop.mod0 import helper_0\n\n\ndef _cache_key(user_id):\n    return f"user:{user_id}"\n',
    [],
)
cedit(
    "specific-except",
    "shop/mod0.py",
    "def helper_0(value: int) -> int:\n    return value",
    "def helper_0(value: int) -> int:\n    try:\n        return int(value)\n    except "
    "ValueError:\n        return 0",
    [],
)
cwrite("print-in-script", "scripts/release.py", 'def main() -> None:\n    print("released")\n', [])
cwrite(
    "print-in-test",
    "tests/test_debug.py",
    'def test_debug():\n    print("debugging")\n    assert True\n',
    [],
)
cwrite(
    "absolute-import",
    "shop/orders.py",
    "from shop.mod0 import helper_0\n\n\ndef order_total(count: int) -> int:\n    return "
    "helper_0(count)\n",
    [],
)
cwrite(
    "pytest-test-in-tests",
    "tests/test_orders.py",
    "from shop.mod0 import helper_0\n\n\ndef test_order_total():\n    assert helper_0(2) == 2\n",
    [],
)
cwrite(
    "pytest-class-without-testcase",
    "tests/test_orders.py",
    "class TestOrders:\n    def test_total(self):\n        assert True\n",
    [],
)
cwrite(
    "setup-method-camel-ok",
    "tests/test_orders.py",
    "class TestOrders:\n    def setUp(self):\n        self.n = 1\n\n    def test_total(self):\n   "
    "     assert self.n\n",
    [],
)
cwrite("readme-edit", "README.md", '# shop\n\nprint("hello") in a code sample, except: too.\n', [])
# known misses (xfail: played and counted; the mark goes when they pass)
# (fixed by #11: findings name their subject, so these two pass now and carry no mark)
C.append(
    {
        **C[0],
        "name": "camel-case-def-named",
        "input": {
            "file_path": "shop/items.py",
            "content": 'def getItemName(item: dict[str, str]) -> str:\n    return item["name"]\n',
        },
        "expect": conv("getItemName"),
    }
)
cwrite(
    "untyped-public-def-named",
    "shop/orders.py",
    "from shop.mod0 import helper_0\n\n\ndef order_total(count):\n    return helper_0(count)\n",
    conv("order_total"),
)
cwrite(
    "print-in-docstring-usage",
    "shop/money.py",
    'def format_cents(cents: int) -> str:\n    """12.34 EUR from 1234.\n\n    Usage::\n\n        '
    'print(format_cents(1234))\n    """\n    return f"{cents // 100}.{cents % 100:02d} EUR"\n',
    [],
)
C[-1]["xfail"] = (
    "learned rules are regexes over the added text: a print() in a docstring's usage example "
    "reads as code (#13)"
)
write_cases(os.path.join(HERE, "conventions.jsonl"), C)
print("conventions cases", len(C))
