"""Hand-written sleep-polling and retry loops: the project's own helper, or the library it depends on."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.code import function_index
from sidekit_hooks.detectors.tools.waits import polling_loop
from testing.hooks import context_of, edited, payload

RETRY_LOOP = """
def fetch(url):
    for attempt in range(5):
        try:
            return requests.get(url, timeout=5)
        except requests.RequestException:
            time.sleep(2 ** attempt)
    raise RuntimeError("gave up")
"""
POLL_LOOP = """
def wait_done(page):
    deadline = time.time() + 10
    while time.time() < deadline:
        if page.locator("#done").is_visible():
            return
        time.sleep(0.5)
    raise TimeoutError("never done")
"""
THROTTLE_LOOP = """
def crawl(urls):
    for url in urls:
        response = fetch(url)
        results.append(response)
        save(results)
        time.sleep(1)
"""
JS_POLL = """
  while (true) {
    const el = await page.$('#done');
    if (el) break;
    await page.waitForTimeout(500);
  }
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (RETRY_LOOP, ("retry", 6)),
        (POLL_LOOP, ("poll", 6)),
        (JS_POLL, ("poll", 5)),
        (THROTTLE_LOOP, None),  # sleeps between items: throttling, not waiting
        ("while not done():\n    time.sleep(1)\n", None),  # too short to be worth a nudge
        ("for i in range(3):\n    try:\n        go()\n    except E:\n        log()\n", None),  # no sleep
    ],
)
def test_polling_loop(text: str, expected: tuple[str, int] | None) -> None:
    assert polling_loop(textwrap.dedent(text)) == expected


# --- real hook runs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deps", "expected"),
    [
        (
            '[project]\nname = "app"\ndependencies = ["requests", "tenacity>=8"]\n',
            "[sidecar:tools] app/client.py adds a hand-written retry loop (6 lines). tenacity is a dependency: "
            "`@retry(stop=stop_after_attempt(n), wait=wait_fixed(s))`.",
        ),
        (
            '[project]\nname = "app"\ndependencies = ["requests", "backoff"]\n',
            "[sidecar:tools] app/client.py adds a hand-written retry loop (6 lines). backoff is a dependency: "
            "`@backoff.on_exception(backoff.expo, Error, max_tries=n)`.",
        ),
        ('[project]\nname = "app"\ndependencies = ["requests"]\n', ""),
    ],
)
def test_hook_points_a_retry_loop_at_the_library_the_project_has(
    project: Path, run_hook: Any, deps: str, expected: str
) -> None:
    (project / "pyproject.toml").write_text(deps)
    function_index.main(["build", str(project)])
    done = run_hook(
        "PostToolUse", edited(project, "app/client.py", "import time", "import time\n" + RETRY_LOOP, "import time\n")
    )
    assert context_of(done.stdout) == expected


def test_hook_ignores_loops_in_documentation(project: Path, run_hook: Any) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "app"\ndependencies = ["tenacity"]\n')
    done = run_hook(
        "PostToolUse",
        edited(project, "docs/retries.md", "# Retries", "# Retries\n```python" + RETRY_LOOP + "```", "# Retries\n"),
    )
    assert (done.returncode, context_of(done.stdout)) == (0, "")


def test_hook_prefers_the_projects_own_wait_helper(project: Path, run_hook: Any) -> None:
    (project / "pyproject.toml").write_text('[project]\nname = "app"\ndependencies = ["playwright"]\n')
    (project / "tests").mkdir()
    (project / "tests" / "helpers.py").write_text(
        "import time\n\n\ndef wait_until(predicate, timeout=10.0):\n    end = time.time() + timeout\n"
        "    while time.time() < end:\n        if predicate():\n            return True\n        time.sleep(0.1)\n"
        "    return False\n"
    )
    function_index.main(["build", str(project)])
    done = run_hook(
        "PostToolUse", edited(project, "tests/test_ui.py", "import time", "import time\n" + POLL_LOOP, "import time\n")
    )
    assert context_of(done.stdout) == (
        "[sidecar:tools] tests/test_ui.py adds a hand-written sleep-polling loop (6 lines). "
        "tests/helpers.py:4 wait_until(predicate, timeout) already does this; use it."
    )


def test_hook_points_playwright_polling_at_playwright_waits(project: Path, run_hook: Any) -> None:
    (project / "package.json").write_text('{"devDependencies": {"@playwright/test": "^1.50.0"}}')
    target = project / "e2e" / "login.spec.ts"
    target.parent.mkdir()
    target.write_text("test('x', async ({ page }) => {\n" + JS_POLL + "});\n")
    done = run_hook(
        "PostToolUse",
        payload(
            "PostToolUse",
            project,
            tool_name="Write",
            tool_use_id="toolu_3",
            tool_input={"file_path": str(target), "content": target.read_text()},
            tool_response={
                "type": "create",
                "filePath": str(target),
                "content": target.read_text(),
                "structuredPatch": [],
                "originalFile": None,
            },
        ),
    )
    assert context_of(done.stdout) == (
        "[sidecar:tools] e2e/login.spec.ts adds a hand-written sleep-polling loop (5 lines). Playwright already "
        "waits: `await page.waitForSelector(sel)` or `await expect(locator).toBeVisible()`."
    )


def test_hook_does_not_point_the_helper_at_itself(project: Path, run_hook: Any) -> None:
    helper = (
        "def wait_until(predicate, timeout=10.0):\n    end = time.time() + timeout\n    while time.time() < end:\n"
        "        if predicate():\n            return True\n        time.sleep(0.1)\n    raise TimeoutError\n"
    )
    (project / "tests").mkdir()
    (project / "tests" / "helpers.py").write_text("import time\n\n\n" + helper)
    function_index.main(["build", str(project)])
    done = run_hook(
        "PostToolUse", edited(project, "tests/helpers.py", "import time", "import time\n\n\n" + helper, "import time\n")
    )
    assert context_of(done.stdout) == ""
