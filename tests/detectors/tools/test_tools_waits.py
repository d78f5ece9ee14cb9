"""Hand-written sleep-polling and retry loops: the project's own helper, or the library it depends
on."""

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
        (
            "for i in range(3):\n    try:\n        go()\n    except E:\n        log()\n",
            None,
        ),  # no sleep
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
            "[sidecar:tools] app/client.py adds a hand-written retry loop (6 lines). tenacity is "
            "a dependency: "
            "`@retry(stop=stop_after_attempt(n), wait=wait_fixed(s))`.",
        ),
        (
            '[project]\nname = "app"\ndependencies = ["requests", "backoff"]\n',
            "[sidecar:tools] app/client.py adds a hand-written retry loop (6 lines). backoff is a "
            "dependency: "
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
        "PostToolUse",
        edited(
            project, "app/client.py", "import time", "import time\n" + RETRY_LOOP, "import time\n"
        ),
    )
    assert context_of(done.stdout) == expected


def test_hook_ignores_loops_in_documentation(project: Path, run_hook: Any) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "app"\ndependencies = ["tenacity"]\n'
    )
    done = run_hook(
        "PostToolUse",
        edited(
            project,
            "docs/retries.md",
            "# Retries",
            "# Retries\n```python" + RETRY_LOOP + "```",
            "# Retries\n",
        ),
    )
    assert (done.returncode, context_of(done.stdout)) == (0, "")


def test_hook_prefers_the_projects_own_wait_helper(project: Path, run_hook: Any) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "app"\ndependencies = ["playwright"]\n'
    )
    (project / "tests").mkdir()
    (project / "tests" / "helpers.py").write_text(
        "import time\n\n\ndef wait_until(predicate, timeout=10.0):\n    end = time.time() + "
        "timeout\n"
        "    while time.time() < end:\n        if predicate():\n            return True\n        "
        "time.sleep(0.1)\n"
        "    return False\n"
    )
    function_index.main(["build", str(project)])
    done = run_hook(
        "PostToolUse",
        edited(
            project, "tests/test_ui.py", "import time", "import time\n" + POLL_LOOP, "import time\n"
        ),
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
        "[sidecar:tools] e2e/login.spec.ts adds a hand-written sleep-polling loop (5 lines). "
        "Playwright already "
        "waits: `await page.waitForSelector(sel)` or `await expect(locator).toBeVisible()`."
    )


def test_hook_does_not_point_the_helper_at_itself(project: Path, run_hook: Any) -> None:
    helper = (
        "def wait_until(predicate, timeout=10.0):\n    end = time.time() + timeout\n    while "
        "time.time() < end:\n"
        "        if predicate():\n            return True\n        time.sleep(0.1)\n    raise "
        "TimeoutError\n"
    )
    (project / "tests").mkdir()
    (project / "tests" / "helpers.py").write_text("import time\n\n\n" + helper)
    function_index.main(["build", str(project)])
    done = run_hook(
        "PostToolUse",
        edited(
            project,
            "tests/helpers.py",
            "import time",
            "import time\n\n\n" + helper,
            "import time\n",
        ),
    )
    assert context_of(done.stdout) == ""


# --- TypeScript, Go, Rust: only where the project has the helper or library to point at
# -------------

TS_POLL = """
export async function waitForServer(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const response = await fetch(url).catch(() => undefined);
    if (response?.ok) {
      return;
    }
    await sleep(200);
  }
  throw new Error(`server at ${url} never came up`);
}
"""
GO_POLL = """
func waitReady(c *Client) error {
\tdeadline := time.Now().Add(10 * time.Second)
\tfor {
\t\tif c.Ready() {
\t\t\treturn nil
\t\t}
\t\tif time.Now().After(deadline) {
\t\t\treturn errors.New("not ready")
\t\t}
\t\ttime.Sleep(100 * time.Millisecond)
\t}
}
"""
GO_RETRY = """
func fetchWithRetry(c *Client) (string, error) {
\tvar err error
\tfor attempt := 0; attempt < 5; attempt++ {
\t\tvar body string
\t\tbody, err = c.Get()
\t\tif err == nil {
\t\t\treturn body, nil
\t\t}
\t\ttime.Sleep(time.Second)
\t}
\treturn "", err
}
"""
RUST_RETRY = """
fn connect_with_retry(addr: &str) -> io::Result<TcpStream> {
    let mut tries = 0;
    loop {
        match TcpStream::connect(addr) {
            Ok(stream) => return Ok(stream),
            Err(err) if tries < 5 => {
                tries += 1;
                thread::sleep(Duration::from_millis(200));
            }
            Err(err) => return Err(err),
        }
    }
}
"""
GO_THROTTLE = """
func sendAll(c *Client, items []Item) {
\tfor _, item := range items {
\t\tc.Send(item)
\t\tlog.Printf("sent %s", item.ID)
\t\tcount++
\t\ttime.Sleep(50 * time.Millisecond)
\t}
}
"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (TS_POLL, ("poll", 9)),
        (GO_POLL, ("poll", 10)),
        (GO_RETRY, ("retry", 8)),
        (RUST_RETRY, ("retry", 11)),
        (GO_THROTTLE, None),  # sleeps between items: throttling, not waiting
    ],
)
def test_polling_loop_in_other_languages(text: str, expected: tuple[str, int] | None) -> None:
    assert polling_loop(textwrap.dedent(text)) == expected


def code_indexed(project: Path, files: dict[str, str]) -> None:
    import subprocess

    from sidekit_hooks.code.index import Index

    for rel, text in files.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    with Index.open(str(project)):
        pass


def wrote(project: Path, run_hook: Any, rel: str, content: str) -> str:
    from testing.hooks import write

    (project / rel).parent.mkdir(parents=True, exist_ok=True)
    (project / rel).write_text(content)
    done = run_hook("PostToolUse", write(project, rel, content))
    assert done.returncode == 0 and done.stderr == ""
    return context_of(done.stdout)


TS_WAIT_HELPER = (
    "export async function waitUntil(check: () => Promise<boolean>, timeout = 5000): "
    "Promise<void> {\n"
    "  const end = Date.now() + timeout;\n"
    "  while (!(await check())) {\n"
    "    if (Date.now() > end) throw new Error('timed out');\n"
    "    await new Promise((resolve) => setTimeout(resolve, 50));\n"
    "  }\n"
    "}\n"
)


def test_a_typescript_polling_loop_is_pointed_at_the_projects_wait_helper(
    project: Path, run_hook: Any
) -> None:
    code_indexed(project, {"src/wait.ts": TS_WAIT_HELPER, "package.json": "{}"})
    assert wrote(project, run_hook, "src/server.ts", TS_POLL) == (
        "[sidecar:tools] src/server.ts adds a hand-written sleep-polling loop (9 lines). "
        "src/wait.ts:1 "
        "waitUntil(check: () => Promise<boolean>, timeout = 5000) already does this; use it."
    )


@pytest.mark.parametrize(
    "files",
    [
        {"package.json": "{}"},  # nothing to point at: the loop is the right call
        {
            "package.json": "{}",
            "src/wait.test.ts": TS_WAIT_HELPER,
        },  # a test helper: not for source code
        {
            "package.json": "{}",
            "src/poller.py": "def wait_until(check):\n    pass\n",
        },  # another language's
        {
            "package.json": "{}",
            "src/pollution.ts": "export function pollution(a: number) {\n  return a;\n}\n",
        },
    ],
)
def test_a_typescript_polling_loop_without_a_helper_to_point_at_is_not_said(
    project: Path, run_hook: Any, files: dict[str, str]
) -> None:
    code_indexed(project, files)
    from sidekit_hooks.code import function_index

    function_index.main(["build", str(project)])
    assert wrote(project, run_hook, "src/server.ts", TS_POLL) == ""


GO_MOD = (
    "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/cenkalti/backoff/v4 v4.3.0\n)\n"
)


def test_a_go_retry_loop_is_pointed_at_the_backoff_module_the_project_requires(
    project: Path, run_hook: Any
) -> None:
    code_indexed(project, {"go.mod": GO_MOD, "main.go": "package main\n\nfunc main() {}\n"})
    assert wrote(project, run_hook, "client.go", "package main\n" + GO_RETRY) == (
        "[sidecar:tools] client.go adds a hand-written retry loop (8 lines). "
        "github.com/cenkalti/backoff is a "
        "dependency: `backoff.Retry(operation, backoff.NewExponentialBackOff())`."
    )


def test_a_go_polling_loop_is_pointed_at_the_modules_own_helper(
    project: Path, run_hook: Any
) -> None:
    helper = (
        'package testutil\n\nimport "time"\n\n// Eventually polls cond until it holds or timeout '
        "passes.\n"
        "func WaitFor(cond func() bool, timeout time.Duration) bool {\n\tend := "
        "time.Now().Add(timeout)\n"
        "\tfor time.Now().Before(end) {\n\t\tif cond() {\n\t\t\treturn true\n\t\t}\n"
        "\t\ttime.Sleep(10 * time.Millisecond)\n\t}\n\treturn false\n}\n"
    )
    code_indexed(
        project, {"go.mod": "module example.com/app\n\ngo 1.22\n", "internal/wait/wait.go": helper}
    )
    assert wrote(project, run_hook, "server.go", "package main\n" + GO_POLL) == (
        "[sidecar:tools] server.go adds a hand-written sleep-polling loop (10 lines). "
        "internal/wait/wait.go:6 "
        "WaitFor(cond func() bool, timeout time.Duration) already does this; use it."
    )


def test_a_go_loop_without_a_helper_or_library_is_not_said(project: Path, run_hook: Any) -> None:
    code_indexed(
        project, {"go.mod": "module example.com/app\n\ngo 1.22\n", "main.go": "package main\n"}
    )
    assert wrote(project, run_hook, "client.go", "package main\n" + GO_RETRY) == ""


@pytest.mark.parametrize(
    ("cargo", "expected"),
    [
        (
            '[package]\nname = "app"\n\n[dependencies]\nbackoff = "0.4"\n',
            "[sidecar:tools] src/net.rs adds a hand-written retry loop (11 lines). the backoff "
            "crate is a dependency: "
            "`backoff::retry(ExponentialBackoff::default(), op)`.",
        ),
        ('[package]\nname = "app"\n\n[dependencies]\nserde = "1"\n', ""),
        ('[package]\nname = "app"\ndescription = "no backoff = here"\n', ""),
    ],
)
def test_a_rust_retry_loop_is_pointed_at_the_crate_the_project_depends_on(
    project: Path, run_hook: Any, cargo: str, expected: str
) -> None:
    code_indexed(project, {"Cargo.toml": cargo, "src/lib.rs": "pub fn f() {}\n"})
    assert wrote(project, run_hook, "src/net.rs", RUST_RETRY) == expected
