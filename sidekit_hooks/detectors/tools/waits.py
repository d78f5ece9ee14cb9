"""Hand-written sleep-polling and retry loops where the project already has a helper or a
library."""

from __future__ import annotations

from sidekit_hooks.core import safepath
from sidekit_hooks.core.textscan import identifier_words
from sidekit_hooks.detectors.tools.common import RANK, SIDECAR, short
from sidekit_hooks.nudges.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.code.functions import Match
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

# `sleep(` covers Python's time.sleep, an `await sleep(ms)`, Rust's thread::sleep and tokio's; Go's
# is `Sleep(`
SLEEP_CALLS = ("sleep(", "setTimeout(", "waitForTimeout(", "wait_for_timeout(", "time.Sleep(")
LOOP_STARTS = ("while ", "while(", "for ", "for(", "async for ", "do {", "loop {")
# the loop with its deadline line before and its `raise` after, as the seed's ">5 lines"
MIN_LOOP_LINES = 5
WAIT_SETUP_WORDS = (
    "deadline",
    "timeout",
    "attempt",
    "tries",
    "retries",
    "time.time()",
    "monotonic()",
    "Date.now()",
)
JS_SUFFIXES = (".js", ".ts", ".mjs", ".cjs", ".jsx", ".tsx", ".mts", ".cts")
CODE_SUFFIXES = (".py", ".pyi", ".ipynb", *JS_SUFFIXES, ".go", ".rs")
# An error checked and the call tried again, without try/catch: Go's `err` and Rust's Result
ERROR_CHECKS = ("err != nil", "err == nil", "Err(", ".is_ok()", ".is_err()", "Ok(")
DEPENDENCY_FILES = (
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
    "Pipfile",
    "requirements.txt",
    "requirements-dev.txt",
    "requirements/base.txt",
    "package.json",
    "go.mod",
    "Cargo.toml",
)


def polling_loop(text: str) -> tuple[str, int] | None:
    """("retry" | "poll", lines) for the first hand-written loop of 5+ lines that sleeps between tries.

    A retry loop catches an error and tries again; a poll loop sleeps until a condition breaks out.
    A loop that sleeps between items (throttling) is neither. Stdlib, no `re`: a line scan by
    indentation.
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
        endless = header.startswith(("while", "do {", "loop {", "for {"))
        catches = (
            ("try:" in body or "try {" in body) and ("except" in body or "catch" in body)
        ) or any(check in body for check in ERROR_CHECKS)
        leaves = any(word in body for word in ("break", "return"))
        if catches and (endless or counted):
            return "retry", size
        if leaves and (endless or counted):
            return "poll", size
    return None


def wait_setup_lines(lines: list[str], start: int, indent: int, block: int) -> int:
    """Lines around a loop that belong to the wait: a deadline/attempts line before, a raise
    after."""
    count = 0
    before = next((line for line in reversed(lines[:start]) if line.strip()), "")
    if len(before) - len(before.lstrip()) == indent and any(
        word in before for word in WAIT_SETUP_WORDS
    ):
        count += 1
    after_index = start + 1
    seen = 1
    while after_index < len(lines) and seen < block:
        seen += 1 if lines[after_index].strip() else 0
        after_index += 1
    after = next((line for line in lines[after_index:] if line.strip()), "")
    if len(after) - len(after.lstrip()) == indent and after.lstrip().startswith(
        ("raise ", "throw ")
    ):
        count += 1
    return count


def dependency_text(project: str, event: Event) -> str:
    """What the project depends on and what the edited file imports, lower-cased (rare path)."""
    parts = [event.new_text or event.old_text, event.added]
    for name in DEPENDENCY_FILES:
        data = safepath.read_project_file(
            project, name, 200_000
        )  # a FIFO named pyproject.toml never blocks
        if data is not None:
            parts.append(data.decode("utf-8", "replace"))
    return "\n".join(parts).lower()


def loop_finding(event: Event, ctx: Context, kind: str, lines: int) -> Finding | None:
    what = "retry loop" if kind == "retry" else "sleep-polling loop"
    language = language_of(event.path)
    if language == "py":
        helper = project_helper(ctx.project, kind, skip_path=event.path)
    # a helper of the file's own language (family), from the code index: never a Python one for a
    # .ts file
    else:
        helper = index_helper(ctx.project, language, kind, skip_path=event.path)
    if helper is not None:
        advice = f"{short(helper.path)}:{helper.line} {short(helper.signature)} already does this; use it."
        return loop_nudge(event, what, lines, advice, "project-helper")
    deps = dependency_text(ctx.project, event)
    js = event.path.endswith(JS_SUFFIXES)
    if kind == "poll" and "playwright" in deps and language in ("py", "js"):
        if js:
            advice = "Playwright already waits: `await page.waitForSelector(sel)` or `await expect(locator).toBeVisible()`."
        else:
            advice = "Playwright already waits: `page.wait_for_selector(sel)` or `expect(locator).to_be_visible()`."
        return loop_nudge(event, what, lines, advice, "playwright")
    if js:
        for package in ("p-retry", "async-retry"):
            if f'"{package}"' in deps:
                return loop_nudge(
                    event,
                    what,
                    lines,
                    f"`{package}` is a dependency; wrap the call in it.",
                    package,
                )
        return None
    if language != "py":
        found = library_of(language, kind, deps)
        return loop_nudge(event, what, lines, found[1], found[0]) if found else None
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
            advice = (
                "backoff is a dependency: `@backoff.on_predicate(backoff.constant, max_time=t)`."
            )
        return loop_nudge(event, what, lines, advice, "backoff")
    return None  # no helper known: writing the loop is the right call


def language_of(path: str) -> str:
    """ "py", "js" (TypeScript too: one family), "go", "rust" or "" by the suffix."""
    if path.endswith((".py", ".pyi", ".ipynb")):
        return "py"
    if path.endswith(JS_SUFFIXES):
        return "js"
    from sidekit_hooks.code.languages import language_of as indexed_language

    return indexed_language(path)


# (the module as go.mod or Cargo.toml names it, the helper's name in the finding's key, the advice)
# per language and kind of loop: said only when the project depends on it.
LIBRARIES = {
    ("go", "retry"): (
        (
            "github.com/cenkalti/backoff",
            "cenkalti-backoff",
            "github.com/cenkalti/backoff is a dependency: `backoff.Retry(operation, "
            "backoff.NewExponentialBackOff())`.",
        ),
        (
            "github.com/avast/retry-go",
            "retry-go",
            "github.com/avast/retry-go is a dependency: `retry.Do(func() error {...}, "
            "retry.Attempts(n))`.",
        ),
    ),
    ("go", "poll"): (
        (
            "k8s.io/apimachinery",
            "k8s-wait",
            "k8s.io/apimachinery is a dependency: "
            "`wait.PollUntilContextTimeout(ctx, interval, timeout, true, condition)`.",
        ),
    ),
    ("rust", "retry"): (
        (
            "backoff",
            "backoff-crate",
            "the backoff crate is a dependency: `backoff::retry(ExponentialBackoff::default(), "
            "op)`.",
        ),
        (
            "tokio-retry",
            "tokio-retry",
            "tokio-retry is a dependency: `Retry::spawn(ExponentialBackoff::from_millis(10), "
            "action)`.",
        ),
        (
            "backon",
            "backon",
            "backon is a dependency: `op.retry(ExponentialBuilder::default()).await`.",
        ),
    ),
}


def library_of(language: str, kind: str, deps: str) -> tuple[str, str] | None:
    """(key, advice) of a retry/wait library the Go module or Rust crate depends on, else None."""
    for module, key, advice in LIBRARIES.get((language, kind), ()):
        if language == "go" and (
            f"\n\t{module}" in deps or f"require {module}" in deps
        ):  # go.mod's lines
            return key, advice
        if language == "rust" and any(
            line.strip().startswith((f"{module} =", f"{module}=", f"{module}."))
            for line in deps.splitlines()
        ):
            return key, advice
    return None


def loop_nudge(event: Event, what: str, lines: int, advice: str, helper: str) -> Finding:
    return Finding(
        SIDECAR,
        f"{short(event.path)} adds a hand-written {what} ({lines} lines). {advice}",
        key=f"tools:loop:{helper}:{event.path}",
        rule_id="tools.hand-written-wait",
        rank=RANK,
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
    wanted = (
        ("retry", "retries", "backoff")
        if kind == "retry"
        else ("wait_for", "wait_until", "poll", "eventually")
    )
    for path, record in sorted(index["files"].items()):
        if path == skip_path:
            continue
        for name, line, sig, *_rest in record.get("f", []) if isinstance(record, dict) else []:
            lowered = name.lower().lstrip("_")
            if any(lowered.startswith(w) or lowered.endswith(w) for w in wanted):
                return functions.Match(path, line, sig, name, 1.0, 1.0)
    return None


FAMILY = {
    "js": ("ts", "js"),
    "go": ("go",),
    "rust": ("rust",),
}  # code index languages per loop language
RETRY_WORDS = frozenset({"retry", "retries", "retrying", "backoff"})
WAIT_HEADS = (("wait", "for"), ("wait", "until"), ("poll", "until"), ("poll",), ("eventually",))


def helper_named(name: str, kind: str) -> bool:
    """A name that says it retries (`retry`, `withRetry`, `RetryWithBackoff`) or waits (`waitFor`,
    `waitUntil`, `pollUntil`, `eventually`), by its words: `pollution` or `waitress` are not."""
    words = identifier_words(name)
    if not words:
        return False
    if kind == "retry":
        return words[0] in RETRY_WORDS or words[-1] in RETRY_WORDS or words[:2] == ["with", "retry"]
    return (
        any(tuple(words[: len(head)]) == head for head in WAIT_HEADS) or words[-1] == "eventually"
    )


def test_code(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return (
        ".test." in name
        or ".spec." in name
        or name.endswith("_test.go")
        or "/tests/" in f"/{path}"
        or "/__tests__/" in f"/{path}"
        or "/test/" in f"/{path}"
    )


def index_helper(project: str, language: str, kind: str, skip_path: str = "") -> Match | None:
    """The project's own retry/wait function in the file's language family, from the code index
    (read only, never built here; None without one). A helper in test code is named for test code
    only."""
    import os

    from sidekit_hooks.code import INDEX_FILE
    from sidekit_hooks.core import workspace

    family = FAMILY.get(language)
    path = os.path.join(workspace.state_dir(project), INDEX_FILE)
    if family is None or not os.path.isfile(path):
        return None
    import sqlite3

    marks = ",".join("?" * len(family))
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.05)
        try:
            rows = db.execute(
                "SELECT f.path, d.qualname, d.name, d.line, d.sig FROM defs d JOIN files f ON "
                "f.id = d.file"
                f" WHERE f.lang IN ({marks}) AND d.kind IN ('function', 'method') ORDER BY "
                "f.path, d.line",
                family,
            ).fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    from sidekit_hooks.code.functions import Match

    in_tests = test_code(skip_path)
    for where, qualname, name, line, sig in rows:
        if (
            where == skip_path
            or (test_code(str(where)) and not in_tests)
            or not helper_named(str(name), kind)
        ):
            continue
        return Match(str(where), int(line), f"{qualname}{sig}", str(qualname), 1.0, 1.0)
    return None
