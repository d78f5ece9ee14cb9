"""Hand-written sleep-polling and retry loops where the project already has a helper or a library."""

from __future__ import annotations

from sidekit_hooks.core import safepath
from sidekit_hooks.detectors.tools.common import SIDECAR, short
from sidekit_hooks.nudges.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.functions import Match
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

SLEEP_CALLS = ("sleep(", "setTimeout(", "waitForTimeout(", "wait_for_timeout(")
LOOP_STARTS = ("while ", "while(", "for ", "for(", "async for ", "do {")
MIN_LOOP_LINES = 5  # the loop with its deadline line before and its `raise` after, as the seed's ">5 lines"
WAIT_SETUP_WORDS = ("deadline", "timeout", "attempt", "tries", "retries", "time.time()", "monotonic()", "Date.now()")
CODE_SUFFIXES = (".py", ".pyi", ".ipynb", ".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx")
DEPENDENCY_FILES = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "Pipfile",
    "requirements.txt",
    "requirements-dev.txt",
    "requirements/base.txt",
    "package.json",
)


def polling_loop(text: str) -> tuple[str, int] | None:
    """("retry" | "poll", lines) for the first hand-written loop of 5+ lines that sleeps between tries.

    A retry loop catches an error and tries again; a poll loop sleeps until a condition breaks out. A
    loop that sleeps between items (throttling) is neither. Stdlib, no `re`: a line scan by indentation.
    """
    if not any(call in text for call in SLEEP_CALLS):
        return None
    lines = text.splitlines()
    for start, line in enumerate(lines):
        stripped = line.lstrip()
        if not stripped.startswith(LOOP_STARTS):
            continue
        indent = len(line) - len(stripped)
        block = [stripped]
        for follower in lines[start + 1 :]:
            if follower.strip() and len(follower) - len(follower.lstrip()) <= indent:
                if follower.lstrip().startswith("}"):
                    block.append(follower.strip())
                if follower.lstrip().startswith("else:"):  # a loop's `else:` belongs to it
                    block.append(follower.strip())
                    continue
                break
            if follower.strip():
                block.append(follower.strip())
        size = len(block) + wait_setup_lines(lines, start, indent, len(block))
        if size < MIN_LOOP_LINES:
            continue
        body = "\n".join(block)
        if not any(call in body for call in SLEEP_CALLS):
            continue
        header = stripped
        counted = "range(" in header or "attempt" in header or "retr" in header or "tries" in header
        endless = header.startswith(("while", "do {"))
        catches = ("try:" in body or "try {" in body) and ("except" in body or "catch" in body)
        leaves = any(word in body for word in ("break", "return"))
        if catches and (endless or counted):
            return "retry", size
        if leaves and (endless or counted):
            return "poll", size
    return None


def wait_setup_lines(lines: list[str], start: int, indent: int, block: int) -> int:
    """Lines around a loop that belong to the wait: a deadline/attempts line before, a raise after."""
    count = 0
    before = next((line for line in reversed(lines[:start]) if line.strip()), "")
    if len(before) - len(before.lstrip()) == indent and any(word in before for word in WAIT_SETUP_WORDS):
        count += 1
    after_index = start + 1
    seen = 1
    while after_index < len(lines) and seen < block:
        seen += 1 if lines[after_index].strip() else 0
        after_index += 1
    after = next((line for line in lines[after_index:] if line.strip()), "")
    if len(after) - len(after.lstrip()) == indent and after.lstrip().startswith(("raise ", "throw ")):
        count += 1
    return count


def dependency_text(project: str, event: Event) -> str:
    """What the project depends on and what the edited file imports, lower-cased (rare path)."""
    parts = [event.new_text or event.old_text, event.added]
    for name in DEPENDENCY_FILES:
        data = safepath.read_project_file(project, name, 200_000)  # a FIFO named pyproject.toml never blocks
        if data is not None:
            parts.append(data.decode("utf-8", "replace"))
    return "\n".join(parts).lower()


def loop_finding(event: Event, ctx: Context, kind: str, lines: int) -> Finding | None:
    what = "retry loop" if kind == "retry" else "sleep-polling loop"
    helper = project_helper(ctx.project, kind, skip_path=event.path)
    if helper is not None:
        advice = f"{short(helper.path)}:{helper.line} {helper.signature} already does this; use it."
        return loop_nudge(event, what, lines, advice, "project-helper")
    deps = dependency_text(ctx.project, event)
    js = event.path.endswith((".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx"))
    if kind == "poll" and "playwright" in deps:
        if js:
            advice = (
                "Playwright already waits: `await page.waitForSelector(sel)` or `await expect(locator).toBeVisible()`."
            )
        else:
            advice = "Playwright already waits: `page.wait_for_selector(sel)` or `expect(locator).to_be_visible()`."
        return loop_nudge(event, what, lines, advice, "playwright")
    if js:
        for package in ("p-retry", "async-retry"):
            if f'"{package}"' in deps:
                return loop_nudge(event, what, lines, f"`{package}` is a dependency; wrap the call in it.", package)
        return None
    if "tenacity" in deps:
        if kind == "retry":
            advice = "tenacity is a dependency: `@retry(stop=stop_after_attempt(n), wait=wait_fixed(s))`."
        else:
            advice = "tenacity is a dependency: `@retry(retry=retry_if_result(lambda ok: not ok), stop=stop_after_delay(t))`."
        return loop_nudge(event, what, lines, advice, "tenacity")
    if "backoff" in deps:
        if kind == "retry":
            advice = "backoff is a dependency: `@backoff.on_exception(backoff.expo, Error, max_tries=n)`."
        else:
            advice = "backoff is a dependency: `@backoff.on_predicate(backoff.constant, max_time=t)`."
        return loop_nudge(event, what, lines, advice, "backoff")
    return None  # no helper known: writing the loop is the right call


def loop_nudge(event: Event, what: str, lines: int, advice: str, helper: str) -> Finding:
    return Finding(
        SIDECAR,
        f"{short(event.path)} adds a hand-written {what} ({lines} lines). {advice}",
        key=f"tools:loop:{helper}:{event.path}",
        rule_id="tools.hand-written-wait",
        path=event.path,
        subject=what,
    )


def project_helper(project: str, kind: str, skip_path: str = "") -> Match | None:
    """The project's own retry/wait helper, from the function index (None when there is none).

    Helpers in `skip_path` (the file being written, maybe the helper itself) do not count."""
    from sidekit_hooks.code import functions

    index = functions.load(project)
    if not index:
        return None
    wanted = ("retry", "retries", "backoff") if kind == "retry" else ("wait_for", "wait_until", "poll", "eventually")
    for path, record in sorted(index["files"].items()):
        if path == skip_path:
            continue
        for name, line, sig, *_rest in record.get("f", []) if isinstance(record, dict) else []:
            lowered = name.lower().lstrip("_")
            if any(lowered.startswith(w) or lowered.endswith(w) for w in wanted):
                return functions.Match(path, line, sig, name, 1.0, 1.0)
    return None
