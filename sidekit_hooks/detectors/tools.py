"""The tools sidecar: "a tool already does this".

Two kinds of signal, both on completed tool calls:

* a built-in catalog of shell habits that a Claude Code tool or a `sidekit` answer does better (raw
  pytest, `grep -rn`/`rg` for an identifier, `cat`/`head`/`tail` of a file, `find -name`), and of
  hand-written sleep-polling / retry loops where the project already has a helper or a library for it
  (its own `retry`/`wait_until`, tenacity, backoff, Playwright's waits);
* helper reinvention: an added function of 5+ lines that matches one the project already has (a
  shorter one only by its distinctive literals), found in the function index
  (`sidekit_hooks.code.functions`), which is built in the background.

Medium threshold: one finding per habit, concrete, with the replacement. Standard library only on
every event; the parser and rapidfuzz load only when a function was added (and rapidfuzz only when
something in the index could match it).
"""

from __future__ import annotations

import os
import time

from sidekit_hooks.core import budget, safepath
from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.core.shell import Segment, core_words
from sidekit_hooks.core.shell import segments as parse_shell
from sidekit_hooks.nudges.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ast
    from typing import Any

    from sidekit_hooks.code.functions import Match
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context

SIDECAR = "tools"

PYTEST_INFO_FLAGS = frozenset({"--version", "-V", "--help", "-h", "--co", "--collect-only", "--fixtures", "--markers"})
GREP_VALUE_OPTS = frozenset(
    {
        "-A",
        "-B",
        "-C",
        "-m",
        "-f",
        "-g",
        "-t",
        "-T",
        "--type",
        "--type-not",
        "--glob",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--max-count",
        "--context",
        "--after-context",
        "--before-context",
        "-d",
        "-D",
        "--color",
        "-M",
        "--max-columns",
        "-j",
        "--threads",
    }
)
NOT_CODE_WORDS = frozenset({"TODO", "FIXME", "XXX", "HACK", "NOTE", "BUG", "DEBUG", "ERROR", "WARNING", "INFO"})
FIND_PLAIN = frozenset({"-name", "-iname", "-type", "-maxdepth", "-mindepth", "-print"})
READ_SKIP_FLAGS = frozenset({"-f", "-F", "--follow", "-c", "--bytes", "-A", "-v", "-e", "-t", "--show-all"})
SLEEP_CALLS = ("sleep(", "setTimeout(", "waitForTimeout(", "wait_for_timeout(")
LOOP_STARTS = ("while ", "while(", "for ", "for(", "async for ", "do {")
MAX_SHOWN = 80  # characters of any name, path or pattern quoted from the call (a nudge stays one short line)
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
PYTHON_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg")


class ToolsSidecar:
    name = SIDECAR
    hooks = judged_by("tools")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.tool == "Glob" and event.hook == "PostToolUse" and event.session_id:
            remember_glob(ctx.project, event.session_id)
            return []
        if event.kind == "shell" and event.command:
            found = shell_findings(event.command, ctx.project, event.session_id)
            for finding in found:
                finding.subject = finding.subject or event.command[:200]  # the command it is about
            if event.hook == "PostToolUseFailure" or not costly_run(event.output):
                # A failed raw pytest run belongs to the tests sidecar (status + `sidekit failures`) and
                # to the team's own rules on its output; a second "use sidekit test" would be noise. So
                # is the hint after a short or green run: it cost the model next to nothing.
                found = [f for f in found if f.key != "tools:pytest"]
            if not long_output(event.output):
                # A shell read or search that answered in a few lines cost the model next to nothing:
                # a hint to another tool would be noise (the independent reviewer labelled them so).
                found = [f for f in found if f.key == "tools:pytest"]
            return found
        if event.kind == "write" and event.path:
            return write_findings(event, ctx)
        return []


TOOLS = ToolsSidecar()


# ---------------------------------------------------------------------------------------------
# Shell commands


def short(text: str) -> str:
    """A quoted path or pattern on one line (a quoted newline would break the nudge's one line), cut to
    MAX_SHOWN characters (from the left: the file name matters)."""
    if "\n" in text or "\r" in text:
        text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else "…" + text[-(MAX_SHOWN - 1) :]


GLOB_SEEN = "glob-seen"  # in the session's state folder: the Glob tool answered in this session


def remember_glob(project: str, session: str) -> None:
    """The Glob tool exists here. Claude Code can run without it ("Glob is not available in this
    session — find files with `find` via the Bash tool"), so the find hint waits for this evidence."""
    from sidekit_hooks.core import workspace
    from sidekit_hooks.nudges.policy import state_folder

    try:
        folder = state_folder(project, session)
        if not os.path.exists(os.path.join(folder, GLOB_SEEN)):
            workspace.atomic_write(os.path.join(folder, GLOB_SEEN), "")
    except (OSError, workspace.UnsafeSessionName):
        pass


def glob_seen(project: str, session: str) -> bool:
    from sidekit_hooks.core import workspace
    from sidekit_hooks.nudges.policy import state_folder

    try:
        return bool(session) and os.path.exists(os.path.join(state_folder(project, session), GLOB_SEEN))
    except workspace.UnsafeSessionName:
        return False


def shell_findings(command: str, project: str, session: str = "") -> list[Finding]:
    findings: list[Finding] = []
    for segment in parse_shell(command):
        if segment.opaque:
            continue
        words = core_words(segment.texts)
        if not words:
            continue
        finding = (
            pytest_finding(words)
            or search_finding(words, project)
            or read_finding(words, segment)
            or (find_finding(words, segment) if words[0] == "find" and glob_seen(project, session) else None)
        )
        if finding and all(f.key != finding.key for f in findings):
            findings.append(finding)
    return findings


QUIET_OUTPUT = 2048  # bytes: raw pytest output under this is left alone by the rewrite too (SHORT)
RED_WORDS = (" failed", " error", "Error")


def long_output(output: str) -> bool:
    return len(output) >= QUIET_OUTPUT or len(output.encode("utf-8", "replace")) >= QUIET_OUTPUT


def costly_run(output: str) -> bool:
    """A raw pytest run worth the "prefer `sidekit test`" hint: its output is long, and red (a piped run
    exits 0 whatever pytest said, so the colour is read from the summary at the end)."""
    if len(output) < QUIET_OUTPUT and len(output.encode("utf-8", "replace")) < QUIET_OUTPUT:
        return False
    tail = output[-400:]
    return any(word in tail for word in RED_WORDS)


def pytest_finding(words: list[str]) -> Finding | None:
    from sidekit_hooks import runners

    args = runners.plugin_run_args(words)
    if args is None:
        return None
    if any(arg in PYTEST_INFO_FLAGS for arg in args):
        return None
    paths = [a for a in args if not a.startswith("-") and (a.endswith(".py") or "/" in a or "::" in a)][:2]
    target = " ".join(["sidekit test", *paths]) if paths and len(" ".join(paths)) <= MAX_SHOWN else "sidekit test"
    return Finding(
        SIDECAR,
        f"`{target}` runs pytest and answers in one compact line; `sidekit failures` has the details.",
        key="tools:pytest",
        rule_id="tools.raw-pytest",
    )


def search_finding(words: list[str], project: str) -> Finding | None:
    """`grep -rn NAME`, `rg NAME`, `git grep NAME` for a Python identifier -> sidekit usages/symbol."""
    program = words[0]
    if program == "git" and words[1:2] == ["grep"]:
        args = words[2:]
    elif program == "rg":
        args = words[1:]
    elif program in ("grep", "egrep") and any(recursive_flag(a) for a in words[1:]):
        args = words[1:]
    else:
        return None
    pattern, paths, filters = grep_operands(args)
    if pattern is None or not python_search(paths, filters, project):
        return None
    kind, name = code_name(pattern)
    if not name or len(name) > MAX_SHOWN:
        return None
    from sidekit_hooks.code.defined import defines

    if not defines(project, name):
        return None  # a parameter, a key, a word in a docstring (or no index yet): grep was the right tool
    if kind == "symbol":
        advice = f"`sidekit symbol {name}` says where it is defined"
    else:
        advice = f"`sidekit usages {name}` lists its real uses (AST references, not comments or strings)"
    return Finding(
        SIDECAR,
        f"Searching code text for `{name}`: {advice} in one compact line.",
        key="tools:grep-name",
        rule_id="tools.grep-for-name",
    )


def recursive_flag(arg: str) -> bool:
    if arg in ("--recursive", "--dereference-recursive"):
        return True
    return arg.startswith("-") and not arg.startswith("--") and ("r" in arg or "R" in arg)


def grep_operands(args: list[str]) -> tuple[str | None, list[str], list[str]]:
    """(pattern, paths, type/include filters) of a grep/rg argument list."""
    pattern: str | None = None
    positional: list[str] = []
    filters: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-e", "--regexp") and i + 1 < len(args):
            pattern = args[i + 1] if pattern is None else pattern
            i += 2
            continue
        if arg in GREP_VALUE_OPTS and i + 1 < len(args):
            if arg in ("-t", "--type", "-g", "--glob", "--include"):
                filters.append(args[i + 1])
            i += 2
            continue
        if arg.startswith("--") and "=" in arg:
            key, value = arg.split("=", 1)
            if key in ("--include", "--type", "--glob"):
                filters.append(value)
        elif arg == "--":
            positional.extend(args[i + 1 :])
            break
        elif not arg.startswith("-") or arg == "-":
            positional.append(arg)
        i += 1
    if pattern is None and positional:
        pattern = positional.pop(0)
    return pattern, positional, filters


def python_search(paths: list[str], filters: list[str], project: str) -> bool:
    """Is this a search over Python code (where sidekit's AST answers apply)?"""
    if filters:
        return any("py" in f for f in filters)
    files = [p for p in paths if "." in p.rsplit("/", 1)[-1].lstrip(".")]
    if files and not any(p.endswith(".py") for p in files):
        return False
    return any(p.endswith(".py") for p in paths) or is_python_project(project)


def is_python_project(project: str) -> bool:
    if any(os.path.exists(os.path.join(project, marker)) for marker in PYTHON_MARKERS):
        return True
    try:
        return any(name.endswith(".py") for name in os.listdir(project))
    except OSError:
        return False


def code_name(pattern: str) -> tuple[str, str]:
    """("symbol", NAME) for `def NAME`/`class NAME`, ("usages", NAME) for a bare identifier, else ("", "")."""
    text = pattern.strip()
    for wrapper in ("\\b", "\\<", "\\>", "\\W"):
        text = text.replace(wrapper, "")
    kind = "usages"
    for prefix in ("def ", "class ", "async def "):
        if text.startswith(prefix):
            kind, text = "symbol", text[len(prefix) :].strip()
    if text.endswith("\\(") or text.endswith("("):
        text = text.rstrip("\\(")
    if len(text) < 3 or not text.isidentifier() or text in NOT_CODE_WORDS:
        return "", ""
    return kind, text


def read_finding(words: list[str], segment: Segment) -> Finding | None:
    """`cat FILE`, `head -n 40 FILE`, `tail FILE`, `sed -n '10,40p' FILE` on their own -> the Read tool."""
    program = words[0]
    if segment.redirected or segment.piped_in or segment.piped_out:
        return None
    if program == "sed":
        return sed_print_finding(words)
    if program not in ("cat", "head", "tail"):
        return None
    files: list[str] = []
    args = words[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in READ_SKIP_FLAGS or arg.startswith(("--follow", "--bytes", "-c")):
            return None
        if arg in ("-n", "--lines") and program != "cat":
            i += 2
            continue
        if arg.startswith("-") and arg != "-":
            i += 1
            continue
        if arg == "-":
            return None
        files.append(arg)
        i += 1
    if not 1 <= len(files) <= 3:
        return None
    how = "the Read tool" if program == "cat" else "the Read tool with offset/limit"
    return Finding(
        SIDECAR,
        f"`{program}` of {short(files[0])}: use {how} instead; it shows line numbers and pages long files "
        "without the shell.",
        key="tools:read",
        rule_id="tools.cat-a-file",
    )


def sed_print_finding(words: list[str]) -> Finding | None:
    """`sed -n '120,160p' FILE` (print a line range, edit nothing) -> Read with offset/limit."""
    args = words[1:]
    if "-n" not in args or any(a in ("-i", "--in-place", "-e", "-f") or a.startswith("-i") for a in args):
        return None
    operands = [a for a in args if not a.startswith("-")]
    if len(operands) != 2:
        return None
    script, path = operands
    if not script.endswith("p") or not script[:-1].replace(",", "").isdigit():
        return None
    return Finding(
        SIDECAR,
        f"`sed -n {short(script)}` of {short(path)}: use the Read tool with offset/limit instead; it shows line numbers "
        "and pages long files without the shell.",
        key="tools:read",
        rule_id="tools.cat-a-file",
    )


def find_finding(words: list[str], segment: Segment) -> Finding | None:
    """`find DIR -name PATTERN` with nothing else to do -> the Glob tool."""
    if words[0] != "find" or segment.piped_out or segment.redirected:
        return None
    names: list[str] = []
    args = words[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("-"):
            if arg not in FIND_PLAIN:
                return None  # -exec, -delete, -mtime, -size...: more than a file-name search
            value = args[i + 1] if i + 1 < len(args) else ""
            if arg in ("-name", "-iname"):
                names.append(value)
            elif arg == "-type" and value != "f":
                return None
            i += 1 if arg == "-print" else 2
            continue
        i += 1
    if len(names) != 1:
        return None
    return Finding(
        SIDECAR,
        f"`find -name {short(names[0])}`: the Glob tool does this (pattern `**/{short(names[0])}`) and lists matches "
        "newest first, without the shell.",
        key="tools:glob",
        rule_id="tools.find-name",
    )


# ---------------------------------------------------------------------------------------------
# Added code


def write_findings(event: Event, ctx: Context) -> list[Finding]:
    findings: list[Finding] = []
    python = event.path.endswith((".py", ".pyi"))
    if python:
        from sidekit_hooks.code import functions

        try:
            functions.ensure_fresh(ctx.project, touched_python=True)
        except OSError:
            pass
    if not event.added:
        return findings
    loop = polling_loop(event.added) if event.path.endswith(CODE_SUFFIXES) else None  # docs show loops too
    if loop is not None:
        finding = loop_finding(event, ctx, *loop)
        if finding:
            findings.append(finding)
    if python and "def " in event.added:
        try:
            finding = reinvention_finding(event, ctx)
        except budget.Later:
            budget.want_later(ctx.memo, SIDECAR)  # the other habits are said now; this one from the background
            finding = None
        if finding:
            findings.append(finding)
    return findings


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


INDEX_WAIT_MARGIN = 0.5  # seconds of the worker's budget kept for the comparison itself


def function_index_for(ctx: Context) -> dict[str, Any] | None:
    """The function index. In a hook, while it is missing (being built, on a loaded machine often past
    the first writes) the question goes to the background (`budget.Later`), not unanswered; there the
    worker waits for the build, or builds it, within its budget."""
    from sidekit_hooks.code import functions

    index = functions.load(ctx.project)
    if index is not None:
        return index
    if not ctx.memo.get("background"):
        raise budget.Later("tools: the function index is not built yet")
    from sidekit_hooks.code import function_index
    from sidekit_hooks.core import background

    while time.monotonic() < ctx.deadline - INDEX_WAIT_MARGIN:
        if background.lock_is_stale(functions.lock_path(ctx.project)):  # nobody is building it: build it here
            function_index.refresh(ctx.project, prune=False)
            return functions.load(ctx.project)
        time.sleep(0.1)
        index = functions.load(ctx.project)
        if index is not None:
            return index
    return None


def added_functions(added: str) -> list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list[str], list[str], bool]]:
    """(syntax tree, normalized tokens, outside names, small) of each added function worth comparing: of
    MIN_LINES+ lines, or shorter with distinctive literals (an inlined rewrite of a helper is short; its
    regexes and messages still say what it copies). Parsing a few lines costs microseconds; the index
    is read only when something here could match."""
    from sidekit_hooks.code import functions, near_copies

    found = []
    for name, source in functions.added_blocks(added, functions.SHORT_LINES):
        node = functions.parse_function(source) if functions.indexable(name) else None
        if node is None:
            continue
        try:
            tokens, outside = functions.analyze(node)  # renames the body's locals in place...
        except RecursionError:  # nested thousands deep: nothing an agent copies
            continue
        small = functions.code_lines(source) < functions.MIN_LINES
        if not small or near_copies.telling(near_copies.literals(tokens)):
            found.append((functions.parse_function(source) or node, tokens, outside, small))  # ...so a fresh tree
    return found


def reinvention_finding(event: Event, ctx: Context) -> Finding | None:
    """An added function (`added_functions`) that matches one the project already has."""
    from sidekit_hooks.code import functions
    from sidekit_hooks.nudges.recheck import before_state

    blocks = added_functions(event.added)
    if not blocks:
        return None
    index = function_index_for(ctx)
    if not index:
        return None
    for node, tokens, outside, small in blocks:
        if time.monotonic() > ctx.deadline:
            raise budget.Later("tools: out of time comparing added functions")  # finished in the background
        skip = (event.path, node.name)
        match = functions.best_match(node.name, tokens, index, skip=skip, outside=outside, shape=not small, node=node)
        line = functions.defined_at(ctx.project, match) if match is not None else None
        if match is None or line is None:
            continue
        return Finding(
            SIDECAR,
            f"{short(match.path)}:{line} {match.signature} already does this; reuse it instead of {short(node.name)}().",
            key=f"tools:reinvent:{match.path}:{match.name}:{node.name}",
            rule_id="tools.helper-exists",
            path=event.path,
            subject=node.name,
            recheck={
                "kind": "def",
                "path": event.path,
                "symbol": node.name,
                "before": before_state(event),
                "other": match.path,
                "other_symbol": match.name,
                "other_line": str(line),
                "at": short(match.path),
                "again": f"{short(node.name)}() copies {short(match.name)}()",  # + the helper's line, at Stop
            },  # both must still exist (and the copy not call the helper) to be said
        )
    return None
