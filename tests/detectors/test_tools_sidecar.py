"""The tools sidecar: shell catalog, hand-written waits, helper reinvention (unit and real hook runs)."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks import detectors
from sidekit_hooks.code import function_index, functions
from sidekit_hooks.code.index import Index
from sidekit_hooks.detectors import tools
from testing.hooks import bash, context_of, edited, payload
from testing.near_copy import NEW_SLUG, SLUGIFY, indexed_project, new_slug_edit

PYTEST_LINE = (
    "[sidecar:tools] `sidekit test{}` runs pytest and answers in one compact line; `sidekit failures` has the details."
)
USAGES_LINE = (
    "[sidecar:tools] Searching code text for `{0}`: `sidekit usages {0}` lists its real uses "
    "(AST references, not comments or strings) in one compact line."
)
SYMBOL_LINE = (
    "[sidecar:tools] Searching code text for `{0}`: `sidekit symbol {0}` says where it is defined in one compact line."
)
READ_LINE = (
    "[sidecar:tools] `{0}` of {1}: use the Read tool{2} instead; it shows line numbers and pages long "
    "files without the shell."
)
GLOB_LINE = (
    "[sidecar:tools] `find -name {0}`: the Glob tool does this (pattern `**/{0}`) and lists matches "
    "newest first, without the shell."
)

SHELL_CASES = [
    ("pytest -q tests/test_api.py", PYTEST_LINE.format(" tests/test_api.py")),
    ("python3 -m pytest -x", PYTEST_LINE.format("")),
    ("cd app && uv run pytest tests/test_a.py::test_b -q", PYTEST_LINE.format(" tests/test_a.py::test_b")),
    ("PYTHONPATH=. .venv/bin/pytest", PYTEST_LINE.format("")),
    ("pytest --version", None),
    ("pytest --collect-only -q", None),
    ("sidekit test tests/test_api.py", None),
    ("grep -rn slugify .", USAGES_LINE.format("slugify")),
    ('grep -rn "slugify(" --include="*.py" src', USAGES_LINE.format("slugify")),
    (r'rg -n "\bmake_slug\b" src/', USAGES_LINE.format("make_slug")),
    ("git grep -n parse_duration", USAGES_LINE.format("parse_duration")),
    ("rg 'def slugify'", SYMBOL_LINE.format("slugify")),
    ("grep -rn 'class UserStore' app", SYMBOL_LINE.format("UserStore")),
    ("grep -rn TODO .", None),
    ("grep -n slugify app/text.py", None),  # one file, not a code search
    ("grep -rn 'connection refused' logs", None),
    ("grep -rn strikethrough .", None),  # a parameter, not a definition: `sidekit usages` would miss what grep finds
    ("rg -n styled", None),  # a name nothing defines
    ("rg -t js slugify", None),
    ("grep -rn slugify README.md docs/index.md", None),
    ("grep -rn 'foo.*bar' .", None),
    ("cat app/models.py", READ_LINE.format("cat", "app/models.py", "")),
    ("head -n 40 app/models.py", READ_LINE.format("head", "app/models.py", " with offset/limit")),
    ("tail -50 build.log", READ_LINE.format("tail", "build.log", " with offset/limit")),
    (
        "sed -n '120,160p' app/models.py",
        "[sidecar:tools] `sed -n 120,160p` of app/models.py: use the Read tool with "
        "offset/limit instead; it shows line numbers and pages long files without the shell.",
    ),
    ("sed -n '/def /p' app/models.py", None),
    ("sed -i 's/a/b/' app/models.py", None),
    ("sed -n 5p a.py b.py", None),
    ("cat > notes.txt <<'EOF'\nhello\nEOF", None),
    ("cat a.txt b.txt > both.txt", None),
    ("cat > setup.sh <<'EOF'\ncat config.ini\npytest -q\nEOF\nchmod +x setup.sh", None),  # a heredoc is data
    ("pytest -q 2>&1 | tail -20", PYTEST_LINE.format("")),
    ("cat app/models.py | grep class", None),
    ("tail -f server.log", None),
    ("git log | head -5", None),
    ('echo "$(cat VERSION)"', None),
    ("find . -name '*.py'", GLOB_LINE.format("*.py")),
    ("find src -type f -name 'test_*.py'", GLOB_LINE.format("test_*.py")),
    ("find . -name '*.pyc' -delete", None),
    ("find . -name '*.py' | xargs wc -l", None),
    ("find . -mtime -1 -name '*.log'", None),
    ("find . -type d -name __pycache__", None),
    ("ls -la && git status", None),
]


@pytest.mark.parametrize(("command", "expected"), SHELL_CASES, ids=[c[0][:40] for c in SHELL_CASES])
def test_shell_catalog(command: str, expected: str | None, project: Path) -> None:
    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    (project / "app").mkdir()
    (project / "app" / "text.py").write_text(APP_TEXT)
    with Index.open(str(project)):  # the AST index `sidekit usages` answers from
        pass
    tools.remember_glob(str(project), "s1")  # the Glob tool answered earlier in this session
    found = [f.text() for f in tools.shell_findings(command, str(project), "s1")]
    assert found == ([expected] if expected else [])


def test_the_find_hint_waits_for_the_glob_tool_to_answer_in_the_session(project: Path) -> None:
    # Claude Code can run without Glob ("Glob is not available in this session"): no hint to a missing tool.
    assert tools.shell_findings("find . -name '*.py'", str(project), "s2") == []
    tools.remember_glob(str(project), "s2")
    assert [f.text() for f in tools.shell_findings("find . -name '*.py'", str(project), "s2")] == [
        GLOB_LINE.format("*.py")
    ]
    assert tools.shell_findings("find . -name '*.py'", str(project), "other") == []


APP_TEXT = """def slugify(value, strikethrough=False):
    return value


def make_slug(value):
    return slugify(value)


def parse_duration(text):
    return float(text)


class UserStore:
    pass
"""


def test_the_grep_hint_waits_for_an_index_that_knows_the_name(project: Path) -> None:
    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    (project / "app.py").write_text(APP_TEXT)
    assert tools.shell_findings("grep -rn slugify .", str(project)) == []  # no index built yet: nothing is known
    with Index.open(str(project)):
        pass
    assert [f.text() for f in tools.shell_findings("grep -rn slugify .", str(project))] == [
        USAGES_LINE.format("slugify")
    ]


def test_one_finding_per_habit_in_a_compound_command(project: Path) -> None:
    found = tools.shell_findings("cat a.py && cat b.py; pytest; pytest -q", str(project))
    assert [f.key for f in found] == ["tools:read", "tools:pytest"]


# --- hand-written waits ------------------------------------------------------------------------

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
    assert tools.polling_loop(textwrap.dedent(text)) == expected


# --- real hook runs ------------------------------------------------------------------------------


def test_hook_names_the_existing_helper(project: Path, run_hook: Any) -> None:
    indexed_project(project)
    done = run_hook("PostToolUse", new_slug_edit(project))
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == (
        "[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of new_slug()."
    )


def test_a_copy_added_above_its_helper_names_the_line_the_helper_is_on_now(project: Path, run_hook: Any) -> None:
    indexed_project(project)  # the index has slugify at utils/text.py:5
    imports = "import re\nimport unicodedata\n"
    done = run_hook("PostToolUse", edited(project, "utils/text.py", imports, imports + "\n\n" + NEW_SLUG, SLUGIFY))
    assert context_of(done.stdout) == (
        "[sidecar:tools] utils/text.py:12 slugify(value) already does this; reuse it instead of new_slug()."
    )
    assert (project / "utils" / "text.py").read_text().splitlines()[11].startswith("def slugify(")


def test_hook_is_silent_when_the_helper_itself_is_edited(project: Path, run_hook: Any) -> None:
    indexed_project(project)
    body = SLUGIFY.split("def slugify", 1)[1]
    changed = "def slugify" + body.replace("return value", "return value or 'n-a'")
    done = run_hook("PostToolUse", edited(project, "utils/text.py", "def slugify" + body, changed, SLUGIFY))
    assert done.returncode == 0 and context_of(done.stdout) == ""


def test_hook_is_silent_when_the_match_is_gone_from_disk(project: Path, run_hook: Any) -> None:
    indexed_project(project)
    (project / "utils" / "text.py").write_text("def other():\n    pass\n")  # index still lists slugify
    done = run_hook("PostToolUse", new_slug_edit(project))
    assert context_of(done.stdout) == ""


def test_hook_without_an_index_starts_one_and_the_finding_comes_at_the_next_boundary(
    project: Path, run_hook: Any
) -> None:
    """#18: on a loaded machine the index is often not built by the first write; the finding is
    finished in the background and delivered next, not dropped."""
    (project / "utils").mkdir()
    (project / "utils" / "text.py").write_text(SLUGIFY)
    done = run_hook("PostToolUse", new_slug_edit(project))
    assert done.returncode == 0 and context_of(done.stdout) == ""
    deadline = time.monotonic() + 30
    later = project / ".sidekit" / "later"
    while (functions.load(str(project)) is None or any(later.iterdir())) and time.monotonic() < deadline:
        time.sleep(0.05)
    index = functions.load(str(project))
    assert index is not None and "utils/text.py" in index["files"]
    prompt = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"))
    assert context_of(prompt.stdout) == (
        "[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of new_slug()."
    )


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


LONG_RED = "".join(f"tests/test_api.py:{n}: AssertionError: assert {n} == {n + 1}\n" for n in range(60)) + (
    "FAILED tests/test_api.py::test_x - AssertionError\n60 failed, 2 passed in 0.31s\n"
)


def test_hook_catalog_on_a_long_red_raw_pytest_run(project: Path, run_hook: Any) -> None:
    # Piped through `tail`, a red run exits 0: PostToolUse, and pages of tracebacks reached the model.
    piped = "python -m pytest tests/test_api.py -q 2>&1 | tail -80"
    done = run_hook("PostToolUse", bash(project, piped, stdout=LONG_RED))
    assert done.returncode == 0
    assert context_of(done.stdout) == PYTEST_LINE.format(" tests/test_api.py")


@pytest.mark.parametrize(
    "output",
    [
        "",
        "..F\nFAILED tests/test_api.py::test_x\n1 failed, 2 passed in 0.05s\n",  # short: it cost next to nothing
        "." * 4000 + "\n4000 passed in 3.10s\n",  # green: the last line said it all
    ],
)
def test_no_raw_run_hint_after_a_short_or_green_run(project: Path, run_hook: Any, output: str) -> None:
    done = run_hook("PostToolUse", bash(project, "python -m pytest tests/test_api.py -q", stdout=output))
    assert (done.returncode, done.stdout) == (0, "")


def test_failed_raw_pytest_is_left_to_the_tests_sidecar_and_rules(project: Path, run_hook: Any) -> None:
    done = run_hook(
        "PostToolUseFailure",
        bash(project, "python -m pytest tests/test_api.py -q", error="Exit code 1\n1 failed, 3 passed"),
    )
    assert (done.returncode, context_of(done.stdout)) == (0, "")


def test_hook_stays_quiet_on_ordinary_commands(project: Path, run_hook: Any) -> None:
    for command in ("git status", "ls -la src", "python -m pip install -e .", "grep -c x notes.txt"):
        done = run_hook("PostToolUse", bash(project, command))
        assert (done.returncode, done.stdout) == (0, ""), command


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


HOT_PATH_CHECK = """
import sys
sys.path.insert(0, sys.argv[1])
from sidekit_hooks import detectors
from sidekit_hooks.pipeline import runtime
from sidekit_hooks.core import fastjson
for name in list(detectors.REGISTRY):  # this sidecar's own cost: other sidecars test theirs
    if name not in ("tools", "judge", "conventions"):
        detectors.unregister(name)
project = sys.argv[2]
events = [
    {"tool_name": "Bash", "tool_input": {"command": "git status && ls src | wc -l; grep -c x notes.txt"},
     "tool_response": {"stdout": "", "stderr": "", "interrupted": False}},
    {"tool_name": "Read", "tool_input": {"file_path": project + "/app.py"}, "tool_response": {}},
    {"tool_name": "Edit", "tool_input": {"file_path": project + "/app.py", "old_string": "a = 1", "new_string": "a = 2"},
     "tool_response": {"originalFile": "a = 1\\n", "structuredPatch": [{"lines": ["-a = 1", "+a = 2"]}]}},
    {"tool_name": "Edit", "tool_input": {"file_path": project + "/app.py", "old_string": "a = 2",
     "new_string": "def short(x):\\n    return x"},
     "tool_response": {"originalFile": "a = 2\\n", "structuredPatch": [{"lines": ["-a = 2", "+def short(x):", "+    return x"]}]}},
]
for fields in events:
    payload = {"session_id": "s", "cwd": project, "hook_event_name": "PostToolUse", **fields}
    runtime.run("PostToolUse", fastjson.dumps(payload))
heavy = sorted(m for m in ("re", "json", "ast", "enum", "typing", "subprocess", "rapidfuzz", "tomllib") if m in sys.modules)
print(",".join(heavy))
"""


def test_silent_events_import_nothing_heavy(project: Path, clean_env: dict[str, str]) -> None:
    import subprocess
    import sys

    (project / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    (project / "app.py").write_text("a = 1\n")
    repo = str(Path(tools.__file__).parents[2])
    done = subprocess.run(
        [sys.executable, "-S", "-c", HOT_PATH_CHECK, repo, str(project)],
        capture_output=True,
        text=True,
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_any_command_gives_at_most_one_short_line_per_habit(project: Path) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    long_name = "x" * 400
    words = st.sampled_from(
        [
            "cat",
            "head",
            "tail",
            "grep",
            "-rn",
            "rg",
            "find",
            "-name",
            "pytest",
            "sed",
            "-n",
            "1,5p",
            "|",
            "&&",
            ";",
            ">",
            "2>&1",
            "<<EOF",
            "\nEOF\n",
            "'",
            '"',
            "$(",
            "`",
            "\\",
            "-f",
            ".",
            "a.py",
            long_name,
            long_name + ".py",
            "slugify",
            "-type",
            "f",
        ]
    )

    @settings(max_examples=300, deadline=None)
    @given(st.lists(words, max_size=12).map(" ".join))
    def check(command: str) -> None:
        found = tools.shell_findings(command, str(project))
        assert len({f.key for f in found}) == len(found)
        assert all(len(f.text()) < 300 and "\n" not in f.text() for f in found)

    check()


def test_registry_events_match_the_detectors_and_prompts_import_none(project: Path, clean_env: dict[str, str]) -> None:
    import subprocess
    import sys

    for name in detectors.names():
        assert detectors.REGISTRY[name][1] == detectors.load(name).hooks, name
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.pipeline import runtime;"
        'runtime.run(\'UserPromptSubmit\', \'{"session_id": "s", "prompt": "hi"}\');'
        "print(sorted(m for m in sys.modules if m.startswith('sidekit_hooks.detectors.')))"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", code, str(Path(tools.__file__).parents[2])],
        capture_output=True,
        text=True,
        cwd=str(project),
        env=dict(clean_env, CLAUDE_PROJECT_DIR=str(project)),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
