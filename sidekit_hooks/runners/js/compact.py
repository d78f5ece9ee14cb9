"""The glue between a JS test run and the shared cache: find this run's report, record it, answer.

Two ways in. `collect()` is the adapters' interface (the runners layer calls it after a run it
started). `main()` is what the shipped reporters (`runners/js/*-reporter.*`) run when the process
they watch exits: they held back the runner's own output in a file, and print what this prints:
the raw output when it is short, else two lines (what happened and where the raw output is, then
the compact answer), within ANSWER_BUDGET bytes.

Never greener: the exit code is the process's own and is always stated; a report older than the
run (or none) is not read; suite errors (a file that failed outside its tests), vitest's unhandled
errors and "no test files" runs, which the JSON reports do not count, are named from the raw text.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from typing import Any

from sidekit_hooks.answers import shape
from sidekit_hooks.answers.render import clip, dumps
from sidekit_hooks.core import safepath, workspace
from sidekit_hooks.runners.js import frames as js_frames
from sidekit_hooks.runners.js import report as js_report
from sidekit_hooks.status import cache, record

SHORT = 2048  # bytes of raw output printed as they are
ANSWER_BUDGET = 780  # both lines; the client adds "Exit code N\n", and the model gets <= 800
# bytes of JSON kept whatever a wrapper printed before (counts, exit code, one cluster)
MIN_BUDGET = 200
KEEP = 10  # raw outputs and reports kept per runner under .sidekit/<runner>/
LOST_MESSAGE = "STACK_TRACE_ERROR"
# seconds: a report written this long before the recorded start still counts (clock steps)
STALE_SLACK = 1.0
REPORT_PREFIX, RAW_PREFIX = "report-", "raw-"

# vitest's heading of each unhandled error, then its text up to the next rule.
UNHANDLED_SECTION = re.compile(
    r"⎯+ (Uncaught Exception|Unhandled Rejection|Unhandled Error|Unhandled Source Error"
    r"|[A-Z][A-Za-z]+ Error) ⎯+\n(.*?)(?=\n⎯|\Z)",
    re.S,
)
NO_TESTS = re.compile(
    r"No test files found|No tests found|No projects matched|No projects were found"
)
# What a runner says when its verdict is not in the JSON report (first match wins).
VERDICT_PATTERNS = (
    re.compile(r"No test files found.*"),
    re.compile(r"No tests found.*"),
    re.compile(r"Vitest caught \d+ unhandled errors?.*"),
    re.compile(r"(?:Unhandled Source Error|Unhandled Rejection|Unhandled Error).*"),
    re.compile(r"Test suite failed to run.*"),
    re.compile(r"process\.exit called with.*"),
    re.compile(r"Error: .*"),
)


def runner_dir(project: str, runner: str) -> str:
    return os.path.join(workspace.state_dir(project), runner)


def new_report_path(project: str, runner: str) -> str:
    """A fresh report file name for one run (runs in parallel never share one)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime())
    return os.path.join(
        runner_dir(project, runner), f"{REPORT_PREFIX}{stamp}-{os.urandom(3).hex()}.json"
    )


def find_report(project: str, runner: str, started: float, named: str = "") -> str:
    """The report this run wrote: `named` if it is newer than the start, else the newest such
    one."""
    candidates = [named] if named else []
    folder = runner_dir(project, runner)
    try:
        listed = sorted(os.listdir(folder), reverse=True)
    except OSError:
        listed = []
    candidates += [
        os.path.join(folder, n)
        for n in listed
        if n.startswith(REPORT_PREFIX) and n.endswith(".json")
    ]
    for path in candidates:
        try:
            if os.path.getmtime(path) >= started - STALE_SLACK:
                return path
        except OSError:
            continue
    return ""


def load_report(path: str) -> dict[str, Any] | None:
    """The reporter's JSON report (None when absent, unreadable, a link or a FIFO, or not JSON)."""
    try:
        data = json.loads(safepath.read_bytes(path, safepath.MAX_STATE))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def collect(
    runner: str,
    project: str,
    started: float,
    exit_code: int,
    raw_output_path: str,
    report_path: str = "",
    name_filter: str = "",
) -> record.Capture | None:
    """This run's records as a `Capture`, or None for a green run that left no report newer than its
    start.

    `name_filter`: the run's test name pattern (`-t`), as the reporter read it from the runner's
    config."""
    return gather(
        runner, project, started, exit_code, raw_output_path, report_path, name_filter
    ).capture


class Gathered:
    """`gather`'s findings: the Capture (None: a green run without a report), whether the run left
    its report, how many tests its name filter left out, and the test files it ran whole
    (`covered`)."""

    def __init__(
        self,
        capture: record.Capture | None,
        reported: bool,
        left_out: int = 0,
        covered: set[str] | None = None,
    ) -> None:
        self.capture, self.reported, self.left_out = capture, reported, left_out
        self.covered: set[str] = covered or set()


def gather(
    runner: str,
    project: str,
    started: float,
    exit_code: int,
    raw_output_path: str,
    report_path: str = "",
    name_filter: str = "",
    partial: str = "",
) -> Gathered:
    """`collect`'s Capture and what else the run says about the cache (`Gathered`).

    Never greener: a red run with no failing test and no error of a file to show (no test files
    found, no project matched, a coverage threshold, no report at all) is an error of the run
    itself, filed under `(exit N)`, in the runner's own words, so `status` cannot read green after
    it; the next run of any kind replaces it. A name filter's run leaves the tests it filtered out
    (reported skipped) as the cache had them (the answer still counts them skipped, as the runner
    does).

    Covered: a test file the report lists as run (passed or failed, no error of its own) in a run
    without a name filter, without `partial` (the reporter's word that the runner's config may stop
    or narrow it: bail, a project filter) and not interrupted ran all of its tests: its cached tests
    the run lacks are gone (renamed, deleted). The reporters say `partial`; without them (`sidekit
    test`), nothing is covered."""
    root = cache.workspace_root(project)
    found = find_report(project, runner, started, report_path)
    report = load_report(found) if found else None
    if report is None and exit_code == 0:
        return Gathered(None, False)
    finished = (
        load_partial(report_path) if report is None else None
    )  # the files that ended before it died
    if finished is not None:
        report = {"testResults": finished}
    parsed = js_report.parse(report, root) if report is not None else js_report.Parsed()
    if found:  # vitest's reporter saved the errors of the files that did not load beside it
        js_report.place_load_failures(parsed, json_lines(found + ERRORS_SUFFIX) or [], root)
    raw = read_text(raw_output_path)
    recover_messages(parsed.tests, raw)
    place_from_console(parsed.suite_errors, raw, root)
    errors = dict(parsed.suite_errors)
    for index, error in enumerate(unhandled_errors(raw, root)):
        errors[f"(unhandled error {index + 1})"] = error
    tests = parsed.tests
    if name_filter:
        tests = {test: entry for test, entry in tests.items() if entry["o"] != "skipped"}
    left_out = len(parsed.tests) - len(tests)
    if (
        exit_code != 0
        and not errors
        and not any(e["o"] in ("failed", "error") for e in tests.values())
    ):
        errors[red_key(exit_code)] = red_run_error(raw, exit_code)
    elif (
        finished is not None
    ):  # it died before its report: the crash, beside what the finished files said
        errors[red_key(exit_code)] = red_run_error(raw, exit_code)
    capture = record.Capture(
        root=root,
        rootdir=root,
        started=started,
        tests=tests,
        collect_errors=errors,
        selected=None,
        deselected=[],
        whole_files=False,
        interrupted=parsed.interrupted,
        args=[runner, "-t", name_filter] if name_filter else [runner],
        plugins=[],
        compact=True,
    )
    whole = (
        not name_filter
        and not partial
        and not parsed.interrupted
        and report is not None
        and finished is None
    )
    covered = {path for path in parsed.run_files if path not in errors} if whole else set()
    return Gathered(capture, report is not None and finished is None, left_out, covered)


PARTIAL_SUFFIX = ".partial"  # jest-reporter.cjs: one line per finished test file, beside the report


ERRORS_SUFFIX = ".errors"  # vitest-reporter.mjs: the errors of each file that did not load


def load_partial(report_path: str) -> list[dict[str, Any]] | None:
    """The test files a run reported as they finished (jest's per-file lines), None when there are
    none (a link, a FIFO or an unreadable file counts as none)."""
    if not report_path:
        return None
    return json_lines(report_path + PARTIAL_SUFFIX)


def json_lines(path: str) -> list[dict[str, Any]] | None:
    """The JSON objects of a file written one a line by a reporter, None when there are none (a
    link, a FIFO or an unreadable file counts as none; a line cut short is skipped)."""
    try:
        text = safepath.read_bytes(path, safepath.MAX_STATE).decode("utf-8", "replace")
    except OSError:
        return None
    files: list[dict[str, Any]] = []
    for line in text.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue  # a line cut short by the crash
        if isinstance(data, dict):
            files.append(data)
    return files or None


def red_key(exit_code: int) -> str:
    """Where a red run without a failure to show files its error (no file has such a name)."""
    return f"(exit {exit_code})"


def red_run_error(raw: str, exit_code: int) -> dict[str, Any]:
    """The error of a red run that has no failing test or file to show: the runner's own words."""
    said = verdict(raw)
    if NO_TESTS.search(said):
        return {"type": "NoTests", "message": said}
    kind, message = js_frames.head_of(said)
    return {"type": kind, "message": message or f"exit code {exit_code} without a failing test"}


def recover_messages(tests: dict[str, dict[str, Any]], raw: str) -> None:
    """vitest's JSON reporter writes a timed-out test's error as `Error: STACK_TRACE_ERROR`; its
    console output has the real first line (`Error: Test timed out in 100ms.`) under the test's FAIL
    heading."""
    lost = [
        test
        for test, entry in tests.items()
        if (entry.get("f") or {}).get("message") == LOST_MESSAGE
    ]
    if not lost:
        return
    text = js_frames.strip_ansi(raw)
    for test in lost:
        path, _, title = test.partition("::")
        repeated = re.fullmatch(r"(.*)" + re.escape(js_report.DUPLICATE) + r"\d+", title, re.S)
        # a later test of a repeated name (`<title> #2`) is headed by the name alone
        for name in (title, repeated.group(1)) if repeated else (title,):
            found = re.search(
                r"FAIL\s+" + re.escape(f"{path} > {name}") + r"[^\n]*\n+\s*(\S[^\n]*)", text
            )
            if found:
                kind, message = js_frames.head_of(found.group(1))
                tests[test]["f"].update(type=kind, message=message)
                break


# vitest's console: a file that failed outside its tests is headed `FAIL  test/a.test.js [ test/a.test.js ]`
# (a test's heading has ` > ` and its name), files with one error share its block, which ends at `⎯[1/3]⎯`.
FAIL_FILE = re.compile(r"^\s*FAIL\s+(\S+)(?:\s+\[ [^\]]* \])?\s*$")
BLOCK_END = re.compile(r"⎯\[\d+/\d+\]⎯|^\s*(?:Test Files|Tests)\s")
CONSOLE_FRAME = re.compile(r"❯ (?:\S+ )?(\S+?):(\d+):\d+")


def place_from_console(suite_errors: dict[str, dict[str, Any]], raw: str, root: str) -> None:
    """A suite error still at its test file (no saved errors: `sidekit test` runs vitest without
    sidekit's reporter) placed where vitest's console says its file broke: vite's `File:` line, node's
    compile error header, else the block's first project frame (`❯ lib/x.js:17:17`)."""
    unplaced = [path for path, error in suite_errors.items() if error.get("at") == path]
    if not unplaced or "FAIL" not in raw:
        return
    for heads, body in _failed_file_blocks(js_frames.strip_ansi(raw)):
        kind, message = js_frames.head_of(body)
        for path in unplaced:
            head = next((h for h in heads if path == h or path.endswith("/" + h)), "")
            # vitest's root: a package folder under the workspace root gives the test file's prefix
            spot = _console_spot(body, root, path[: len(path) - len(head)]) if head else ""
            if spot:
                suite_errors[path] = dict(
                    suite_errors[path], type=kind, message=message, at=spot, frame=spot
                )


def _failed_file_blocks(text: str) -> list[tuple[list[str], str]]:
    """(the test files headed, their shared error text) for each block of vitest's failed files."""
    blocks: list[tuple[list[str], str]] = []
    heads: list[str] = []
    body: list[str] = []
    for line in text.splitlines():
        head = FAIL_FILE.match(line)
        if head:
            if body:
                blocks.append((heads, "\n".join(body)))
                heads, body = [], []
            heads.append(head.group(1))
        elif heads and BLOCK_END.search(line):
            blocks.append((heads, "\n".join(body)))
            heads, body = [], []
        elif heads:
            body.append(line)
    if heads and body:
        blocks.append((heads, "\n".join(body)))
    return blocks


def _console_spot(body: str, root: str, prefix: str) -> str:
    """Where the block says its file broke, project-relative; `prefix`: vitest's root under `root`."""
    loaded = js_frames.load_spot(body, root)
    if loaded is not None:
        return loaded.spot()
    for path, line in CONSOLE_FRAME.findall(body):
        full = path if os.path.isabs(path) or "://" in path else os.path.join(root, prefix, path)
        shown, ours = js_frames.where(full, root)
        if ours:
            return f"{shown}:{line}"
    return ""


def run_result(
    runner: str, project: str, started: float, exit_code: int, raw_output_path: str
) -> Any:
    """A runner adapter's `collect`: this run's records as `as_result` gives them."""
    capture = collect(runner, project, started, exit_code, raw_output_path)
    return as_result(capture, runner, started, exit_code, read_text(raw_output_path))


def as_result(
    capture: record.Capture | None, runner: str, started: float, exit_code: int, raw: str
) -> Any:
    """The runners layer's `Result` (when this build has one: the registry branch), else the Capture
    itself."""
    from sidekit_hooks import runners

    result_type = getattr(runners, "Result", None)
    if result_type is None:
        return capture
    result = result_type(runner, started, exit_code)
    if capture is not None:
        result.tests, result.errors = dict(capture.tests), dict(capture.collect_errors)
        result.args, result.interrupted = list(capture.args), capture.interrupted
    if exit_code != 0 and (
        capture is None or not any(e.get("o") == "failed" for e in capture.tests.values())
    ):
        result.last_words = verdict(raw)
    return result


def unhandled_errors(raw: str, root: str) -> list[dict[str, Any]]:
    """vitest's "Unhandled Errors" section: exit 1 with a JSON report that says success
    (vitest#8669)."""
    text = js_frames.strip_ansi(raw)
    if "unhandled error" not in text and "Unhandled Source Error" not in text:
        return []
    found: list[dict[str, Any]] = []
    for match in UNHANDLED_SECTION.finditer(text):
        body = match.group(2).strip()
        kind, message = js_frames.head_of(body)
        failure: dict[str, Any] = {"type": kind, "message": message or match.group(1)}
        positions = re.findall(r"❯ (?:\S+ )?(\S+?):(\d+):\d+", body)
        spots = [js_frames.where(path, root) + (line,) for path, line in positions]
        own = [f"{path}:{line}" for path, ours, line in spots if ours]
        if own:
            failure["at"] = failure["frame"] = own[0]
        found.append(failure)
    if not found:
        found.append(
            {"type": "UnhandledError", "message": verdict(raw) or "unhandled error during the run"}
        )
    return found


def save(
    capture: record.Capture,
    exit_code: int,
    runner: str,
    version: str = "",
    left_out: int = 0,
    covered: set[str] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """record.save for a JS run: merge into the shared cache under its lock; returns (summary,
    table).

    `left_out`: tests a name filter skipped, not in `capture.tests`: counted skipped in the run's
    counts. `covered`: test files the run ran whole (`gather`): their cached tests it lacks are
    dropped."""
    errors = capture.collect_errors
    run: dict[str, Any] = {
        "id": os.environ.get("SIDEKIT_RUN_ID", ""),
        "started": round(capture.started, 3),
        "finished": cache.now(),
        "exit": exit_code,
        "args": capture.args,
        "selected": len(capture.tests),
        "ran": len(capture.tests),
        "interrupted": capture.interrupted,
        "compact": capture.compact,
    }
    run["complete"] = not capture.interrupted and not errors
    with cache.locked(capture.root):
        summary, table = record.merge(
            capture.root, run, capture.tests, errors, None, covered or set()
        )
        if left_out:
            counts = summary["run"]["counts"]
            counts["skipped"] = counts.get("skipped", 0) + left_out
        summary["runner"] = runner
        if version:
            summary[runner] = version  # type: ignore[literal-required]
        cache.write(cache.table_path(capture.root), table)
        cache.write(cache.summary_path(capture.root), summary)
    return dict(summary), dict(table)


def verdict(raw: str) -> str:
    """The runner's own words for a run the report does not explain (no files, unhandled
    errors...)."""
    lines = [line.strip() for line in js_frames.strip_ansi(raw).splitlines() if line.strip()]
    for pattern in VERDICT_PATTERNS:
        for index, line in enumerate(lines):
            found = pattern.search(line)
            if found:
                said = found.group(0)
                if "⎯" in said and index + 1 < len(
                    lines
                ):  # a section heading: what it heads says more
                    said = said.strip("⎯ ") + ": " + lines[index + 1]
                return clip(said, 140)
    return clip(lines[-1], 140) if lines else ""


def answer(
    runner: str,
    exit_code: int,
    raw: str,
    raw_shown: str,
    written: tuple[dict[str, Any], dict[str, Any]] | None,
    suite_errors: int,
    before: int = 0,
    reported: bool = True,
) -> str:
    """The two lines the model gets instead of the raw output (`before`: bytes a wrapper such as npm
    printed)."""
    size = len(raw.encode("utf-8", "replace"))
    head = f"sidekit: {runner}'s output ({size:,} B) compacted; exit code {exit_code}; all of it: {raw_shown}"
    hint = " (prefix the command with SIDEKIT_RAW=1 to see it raw)"
    if before + len(f"{head}{hint}\n".encode()) + MIN_BUDGET <= ANSWER_BUDGET:
        # dropped when what npm echoed leaves no room for it (the rewritten command is long)
        head += hint
    head += "\n"
    budget = max(MIN_BUDGET, ANSWER_BUDGET - before - len(head.encode("utf-8")) - 1)
    if written is None:
        unknown = {
            "runner": runner,
            "exit": exit_code,
            "error": "no test report from this run",
            runner: verdict(raw),
        }
        return head + dumps(unknown) + "\n"
    summary, table = written
    run = summary.get("run") or {}
    found = record.run_clusters(summary, table)
    failing = sum(int(c.get("affected", 1)) for c in found)
    body: dict[str, Any] = {
        "generation": summary.get("generation", 0),
        "runner": runner,
        "exit": exit_code,
        **shape.counts(run.get("counts") or {}),
        "suiteErrors": suite_errors,
    }
    ran = run.get("counts") or {}
    if not ran.get("passed") and not ran.get("failed") and not ran.get("error"):
        body["note"] = "no test ran"  # zero tests executed is not a pass, whatever the exit code
    if exit_code != 0 and (not failing or suite_errors or not ran.get("failed")):
        body[runner] = verdict(raw)
    if not reported:
        body["error"] = "no test report from this run"
    body["secs"] = round(float(run.get("finished", 0)) - float(run.get("started", 0)), 2)
    body["newFailures"] = sum(int(c.get("new", 0)) for c in found)
    fitted = shape.with_clusters(shape.drop_zeros(body), found, 0, failing, budget, 80)
    return head + dumps(fitted) + "\n"


def finish(
    runner: str,
    project: str,
    started: float,
    exit_code: int,
    raw_path: str,
    report_path: str,
    version: str = "",
    before: int = 0,
    name_filter: str = "",
    partial: str = "",
) -> str:
    """What the reporter prints when the process exits: the raw output or the compact answer."""
    raw = read_text(raw_path)
    found = gather(runner, project, started, exit_code, raw_path, report_path, name_filter, partial)
    capture, reported = found.capture, found.reported
    written = (
        save(capture, exit_code, runner, version, found.left_out, found.covered)
        if capture
        else None
    )
    _prune(runner_dir(project, runner))
    if len(raw.encode("utf-8", "replace")) <= short_limit():
        return without_report_line(raw, report_path)
    errors = capture.collect_errors if capture is not None else {}
    suite_errors = sum(1 for path in errors if path != red_key(exit_code))
    return answer(
        runner, exit_code, raw, _shown(raw_path, project), written, suite_errors, before, reported
    )


def short_limit() -> int:
    """SHORT, or `SIDEKIT_COMPACT_SHORT` bytes (tests and demos compact small runs with it)."""
    value = os.environ.get("SIDEKIT_COMPACT_SHORT", "")
    return int(value) if value.isdigit() else SHORT


def without_report_line(raw: str, report_path: str) -> str:
    """The output as the command alone would print it: without the runner's "report written to
    <ours>" line."""
    name = os.path.basename(report_path)
    if not name:
        return raw
    return "".join(line for line in raw.splitlines(keepends=True) if name not in line)


def _shown(path: str, project: str) -> str:
    """The raw file as the model can open it: relative to the command's folder when inside it, else
    absolute."""
    here = os.getcwd().rstrip(os.sep) + os.sep
    if path.startswith(here):
        return path[len(here) :]
    return path if os.path.isabs(path) else os.path.join(project, path)


def _prune(folder: str) -> None:
    """Keep the newest KEEP raw outputs and reports (never through a link that leads out of the
    project)."""
    from sidekit_hooks.core import safepath

    if not safepath.inside(folder, os.path.dirname(os.path.dirname(folder))):
        return
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for prefix in (REPORT_PREFIX, RAW_PREFIX):
        for old in sorted(n for n in names if n.startswith(prefix))[:-KEEP]:
            try:
                os.unlink(os.path.join(folder, old))
            except OSError:
                pass


def read_text(path: str) -> str:
    """A run's saved output, its last MAX_OUTPUT bytes ('' when absent, a link or a FIFO)."""
    try:
        return safepath.read_tail(path, safepath.MAX_OUTPUT).decode("utf-8", "replace")
    except OSError:
        return ""


def main(argv: list[str]) -> int:
    """`RUNNER PROJECT STARTED EXIT RAW REPORT [VERSION [BEFORE [FILTER [PARTIAL]]]]`, from the
    reporters; prints what to show (FILTER: the run's test name pattern; PARTIAL: what in the
    runner's config may stop or narrow the run, as `bail,project`; each empty when there is
    none)."""
    runner, project, started, exit_code, raw_path, report_path = argv[:6]
    version = argv[6] if len(argv) > 6 else ""
    before = int(argv[7]) if len(argv) > 7 and argv[7].isdigit() else 0
    name_filter = argv[8] if len(argv) > 8 else ""
    partial = (
        argv[9] if len(argv) > 9 else "unknown"
    )  # a reporter of an older build: nothing is covered
    text = finish(
        runner,
        project,
        float(started),
        int(exit_code),
        raw_path,
        report_path,
        version,
        before,
        name_filter,
        partial,
    )
    sys.stdout.write(text)
    sys.stdout.flush()
    return 0


SERVE_POLL = 0.01  # seconds between looks for the request
SERVE_LIFETIME = 24 * 3600.0  # seconds an answerer waits at most (its runner is gone long before)


def serve(folder: str) -> int:
    """The answerer a reporter starts with the run: imports done, wait for `request.json` in
    `folder` (the reporter's private temp folder), answer into `answer.txt` (an empty answer: print
    the raw output). Ends when its parent process is gone."""
    parent = os.getppid()
    request, answer = os.path.join(folder, "request.json"), os.path.join(folder, "answer.txt")
    try:
        open(os.path.join(folder, "ready"), "x").close()
    except OSError:
        return 0
    deadline = time.monotonic() + SERVE_LIFETIME
    while not os.path.exists(request):
        if os.getppid() != parent or time.monotonic() > deadline or not os.path.isdir(folder):
            return 0
        time.sleep(SERVE_POLL)
    text = ""
    try:
        asked = json.loads(safepath.read_bytes(request, 1 << 20))
        runner, project, started, exit_code, raw_path, report_path, version, before = asked[:8]
        name_filter = (
            str(asked[8]) if len(asked) > 8 else ""
        )  # a reporter of an older build sends 8
        partial = str(asked[9]) if len(asked) > 9 else "unknown"
        text = finish(
            runner,
            project,
            float(started),
            int(exit_code),
            raw_path,
            report_path,
            version,
            int(before) if str(before).isdigit() else 0,
            name_filter,
            partial,
        )
    except Exception:  # noqa: BLE001 - an empty answer makes the reporter print the raw output
        text = ""
    with open(answer + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(answer + ".tmp", answer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
