"""JUnit/xUnit XML reports (Maven Surefire/Failsafe, Gradle, nextest, any JUnit writer) into cache
records.

Reports are read from the folders build tools leave them in (`target/surefire-reports`,
`target/failsafe-reports`, `build/test-results/<task>`, `target/nextest/<profile>`), in the project
and its modules, and only when this run wrote them: `before_run` notes every report there was (size
and mtime to the nanosecond), and `collect` reads only reports that are new or changed since, so an
old report never speaks for a new run, however soon after it the run starts. `sidekit ingest PATH`
reads any other report. A testcase fails when it holds `failure` or `error` (Surefire's flaky reruns
that passed are passes, as Surefire counts them), is skipped when it holds `skipped`. Test ids are
`<test source file>::<method>` when the class's file is in the project
(`src/test/java/com/acme/CalcTest.java::adds`), else `<classname>::<method>`.

A report is read the one safe way (`safepath.read_inside`): a regular file inside the project (no
link on the file, no folder on its way that leads out), opened without blocking, whole or not at
all. One that is refused, too large or not well-formed XML is an error of the run, at the report's
path, with the fix (never skipped in silence: a run whose only report could not be read is never
green, never "no tests").

`sidekit test` runs `mvn -B test` (or `./gradlew test`, `gradle test`); the raw `mvn test` and
`gradle test` commands are left as they are (no option of theirs turns their console compact), and
their reports feed the cache through `junit_feed` (`find_reports(..., since_ns=)`).
"""

from __future__ import annotations

import os
import re

from sidekit_hooks.runners import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from xml.etree.ElementTree import Element

NAME = "junit"
FEED = "reports"  # the XML reports Surefire or Gradle leave behind, read once the run has ended
REPORT_DIRS = (
    "target/surefire-reports",
    "target/failsafe-reports",
    "build/test-results",
    "target/nextest",
)
MAX_REPORT_BYTES = 50_000_000  # `sidekit ingest --max-bytes N` reads a larger one
# a report "written" later than now by more than this is from no run here
FUTURE_SLACK_NS = 2_000_000_000
MAX_MODULE_DEPTH = 3
# maven-compiler-plugin's javac line: `[ERROR] /abs/src/main/java/demo/Calc.java:[7,24] cannot find
# symbol`
JAVAC = re.compile(r"^\[ERROR\] (\S.*?\.(?:java|kt|scala|groovy)):\[(\d+),\d+\] (.+)$")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
GOAL = re.compile(r"^Failed to execute goal .*? on project [^:]+: ?(.*?)(?: -> \[Help \d+\])?$")
# Maven's [ERROR] lines that never say what went wrong
MAVEN_NOISE = (
    "COMPILATION ERROR",
    "To see the full stack trace",
    "Re-run Maven",
    "For more information about the errors",
    "[Help ",
    "Please refer to",
    "Command was ",
    "After correcting the problems",
    "Error occurred in starting fork",
    "Process Exit Code",
    "Crashed tests",
    "org.apache.maven.surefire.booter.SurefireBooterForkException",
    "at ",
    "-> [Help",
)
Snapshot = dict[str, tuple[int, int]]  # report path -> (mtime_ns, size) before the run


def detect(project: str) -> bool:
    return any(
        os.path.isfile(os.path.join(project, name))
        for name in (
            "pom.xml",
            "build.gradle",
            "build.gradle.kts",
            "settings.gradle",
            "settings.gradle.kts",
        )
    )


def matches(words: list[str]) -> bool:
    return (
        False  # mvn/gradle raw runs are left alone: no appended option makes their console compact
    )


def compact_words(words: list[str], project: str) -> list[str] | None:
    return None


def command(project: str, args: list[str] | None = None) -> list[str]:
    """What `sidekit test [ARGS]` runs: Maven, or Gradle (the project's wrapper first)."""
    if os.path.isfile(os.path.join(project, "pom.xml")):
        wrapper = os.path.join(project, "mvnw")
        return [wrapper if os.access(wrapper, os.X_OK) else "mvn", "-B", "test", *(args or [])]
    wrapper = os.path.join(project, "gradlew")
    return [
        wrapper if os.access(wrapper, os.X_OK) else "gradle",
        "test",
        "--console=plain",
        *(args or []),
    ]


def before_run(project: str) -> Snapshot:
    """Every report there is before a run, to tell the run's own reports from older ones."""
    seen: Snapshot = {}
    for path in report_files(project):
        try:
            stat = os.lstat(path)  # a link's own times: what it points to is never read
        except OSError:
            continue
        seen[path] = (stat.st_mtime_ns, stat.st_size)
    return seen


def collect(
    project: str,
    started: float,
    exit_code: int,
    raw_output_path: str,
    before: Snapshot | None = None,
    reports: list[str] | None = None,
) -> Result:
    """The reports this run wrote (`reports` when the caller found them); a red run without a
    failing test is a build error, with the tool's reason."""
    reports = find_reports(project, started, before) if reports is None else reports
    result = from_reports(reports, project, started, exit_code)
    if (
        exit_code
        and not any(e["o"] in ("failed", "error") for e in result.tests.values())
        and not result.errors
    ):
        from sidekit_hooks.runners import frames

        key, failure = build_failure(_lines(raw_output_path), project, frames.SourceIndex(project))
        failure["message"] = failure.get("message") or f"exit code {exit_code}"
        result.errors[key] = frames.with_shape(failure)
        result.last_words = failure["message"]
    return result


def find_reports(
    project: str,
    since: float,
    before: Snapshot | None = None,
    since_ns: int | None = None,
    until_ns: int | None = None,
) -> list[str]:
    """The reports (JUnit XML) a run wrote: see `fresh_among`."""
    return fresh_among(report_files(project), since, before, since_ns, until_ns)


def fresh_among(
    paths: list[str],
    since: float,
    before: Snapshot | None = None,
    since_ns: int | None = None,
    until_ns: int | None = None,
) -> list[str]:
    """Those of `paths` a run wrote: with `before`, those new or changed since it was taken; with
    `since_ns` (a file's mtime stamped at the run's start: the same filesystem clock), those at or
    after it; else those written at or after `since` (a second's slack for coarse file times). In
    every case a report dated after the run ended (`until_ns`, stamped by the same clock at its end;
    else now, with FUTURE_SLACK_NS) is not this run's: an archive keeps a committed report's date,
    2035 or not. Every runner whose reports feed the cache (JUnit, TRX) uses this one rule."""
    import time

    until = until_ns if until_ns is not None else time.time_ns() + FUTURE_SLACK_NS
    found: list[str] = []
    for path in paths:
        try:
            stat = os.lstat(path)  # a link's own times: what it points to is never read
        except OSError:
            continue
        if stat.st_mtime_ns > until:
            continue
        if since_ns is not None:
            fresh = stat.st_mtime_ns >= since_ns
        elif before is None:
            fresh = stat.st_mtime >= since - 1
        else:
            fresh = before.get(path) != (stat.st_mtime_ns, stat.st_size)
        if fresh:
            found.append(path)
    return found


def report_files(project: str) -> list[str]:
    """XML files under the known report folders of the project and its modules."""
    found: list[str] = []
    for folder, dirs, files in os.walk(project):
        depth = os.path.relpath(folder, project).count(os.sep) if folder != project else 0
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".")
            and d not in ("node_modules", "src")
            and depth < MAX_MODULE_DEPTH + 2
        ]
        rel = os.path.relpath(folder, project).replace(os.sep, "/")
        if not any(
            rel == r or rel.endswith("/" + r) or ("/" + r + "/") in ("/" + rel + "/")
            for r in REPORT_DIRS
        ):
            continue
        found += [os.path.join(folder, name) for name in files if name.endswith(".xml")]
    return sorted(set(found))


def from_reports(
    paths: list[str], project: str, started: float, exit_code: int, limit: int = MAX_REPORT_BYTES
) -> Result:
    """The tests of these reports; a report that cannot be read (refused, over `limit` bytes, not
    well-formed) is an error of the run at its path, whose message ends with the fix."""
    from sidekit_hooks.runners import frames

    result = Result(NAME, started, exit_code)
    index = frames.SourceIndex(project)
    for path in paths:
        try:
            cases = _testcases(project, path, limit)
        except (OSError, SyntaxError, ValueError) as exc:  # ParseError is a SyntaxError
            rel = os.path.relpath(path, project).replace(os.sep, "/")
            kind, message = unreadable(rel, exc)
            result.errors[rel] = {"type": kind, "message": message, "shape": kind}
            continue
        for case in cases:
            test, entry = _record(case, index)
            result.tests[test] = entry
    from sidekit_hooks.runners.junit import subject

    subject.place(result.tests, index)
    return result


def unreadable(rel: str, exc: BaseException) -> tuple[str, str]:
    """(the error's type, its message ending with the fix) for a report `from_reports` could not
    use."""
    from sidekit_hooks.core import safepath

    name = safepath.printable(rel)
    again = f"sidekit ingest {name}"
    reason = getattr(exc, "reason", "")
    if isinstance(exc, safepath.TooLarge):
        return (
            "report too large",
            f"{exc.size} bytes, over {exc.limit}; fix: sidekit ingest --max-bytes {exc.size} "
            f"{name}",
        )
    if reason == safepath.LINK:
        return (
            "report refused",
            f"a symlink, never followed; fix: put the report itself there, then: {again}",
        )
    if reason == safepath.OUTSIDE:
        copy = safepath.printable(os.path.basename(rel))
        return (
            "report refused",
            f"outside the project; fix: cp {name} {copy} && sidekit ingest {copy}",
        )
    if reason == safepath.NOT_REGULAR:
        return (
            "report refused",
            f"not a regular file (a FIFO, a device); fix: rm {name}, rerun the build, then: "
            f"{again}",
        )
    if isinstance(
        exc, SyntaxError
    ):  # expat's ParseError: not well-formed XML (cut short, not XML at all)
        return (
            "malformed report",
            f"{str(exc)[:120]}; fix: rerun the build that writes it, then: {again}",
        )
    if isinstance(
        exc, ValueError
    ):  # well-formed, but not a JUnit report sidekit reads (a TRX file)
        return (
            "unreadable report",
            f"{str(exc)[:120]}; fix: write a JUnit XML report there, then: {again}",
        )
    words = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
    return "unreadable report", f"{words}; fix: chmod u+r {name} && {again}"


def _testcases(project: str, path: str, limit: int) -> list[Element]:
    import xml.etree.ElementTree as ElementTree

    from sidekit_hooks.core import safepath

    data = safepath.read_inside(project, path, limit)  # UnsafePath, TooLarge, OSError
    root = ElementTree.fromstring(
        data
    )  # expat refuses entity expansion bombs (Python >= 3.11, expat >= 2.4.1)
    if root.tag == "TestRun" or root.tag.endswith("}TestRun"):
        raise ValueError(
            "a TRX report, not JUnit XML: `sidekit ingest` reads it with the .NET reader"
        )
    return list(root.iter("testcase"))


def _record(case: Element, index: Any) -> tuple[str, dict[str, Any]]:
    from sidekit_hooks.runners import frames

    classname = case.get("classname") or case.get("class") or ""
    name = case.get("name") or "?"
    path = index.file_of(classname) if classname else ""
    test = f"{path or classname or '.'}::{name}"
    entry: dict[str, Any] = {"o": "passed", "d": _seconds(case.get("time"))}
    problem = case.find("failure")
    if problem is None:
        problem = case.find("error")
    if problem is not None:
        entry["o"] = "failed" if problem.tag == "failure" else "error"
        entry["p"] = "call"
        entry["f"] = frames.jvm_failure(
            problem.get("type") or "", problem.get("message") or "", problem.text or "", index
        )
    elif case.find("skipped") is not None:
        entry["o"] = "skipped"
    return test, entry


def _seconds(text: str | None) -> float:
    try:
        return float((text or "0").replace(",", ""))
    except ValueError:
        return 0.0


def _lines(raw_output_path: str) -> list[str]:
    """The run's output lines without colour codes (Maven colours them without `-B`, even into a
    pipe)."""
    from sidekit_hooks.core import safepath

    try:
        return ANSI.sub(
            "", safepath.read_tail(raw_output_path, safepath.MAX_OUTPUT).decode("utf-8", "replace")
        ).splitlines()
    except OSError:
        return []


def build_failure(lines: list[str], project: str, index: Any) -> tuple[str, dict[str, Any]]:
    """(where, failure) for a red run without a failing test, from Maven's or Gradle's output: the
    first javac error (at its file and line), else Maven's reason (a crashed fork at its test
    class), else Gradle's `* What went wrong:`, else the last line."""
    from sidekit_hooks.runners import frames

    pom = "pom.xml" if os.path.isfile(os.path.join(project, "pom.xml")) else "."
    for line in lines:
        found = JAVAC.match(line.strip())
        if found:
            path = frames.relative(found.group(1), project)
            at = f"{path or found.group(1)}:{found.group(2)}"
            return path or pom, {
                "type": "compile error",
                "message": found.group(3).strip(),
                "at": at,
            }
    reason = _maven_reason(lines)
    if reason:
        crashed = _crashed_class(lines)
        path = index.file_of(crashed) if crashed else ""
        return path or pom, {
            "type": "build failed",
            "message": reason,
            **({"at": path} if path else {}),
        }
    for number, line in enumerate(lines):
        if line.startswith("* What went wrong:") and number + 1 < len(lines):
            return pom, {"type": "build failed", "message": lines[number + 1].strip()[:200]}
    last = next((ln.strip() for ln in reversed(lines) if ln.strip()), "")
    return pom, {"type": "build failed", "message": last[:200]}


def _maven_reason(lines: list[str]) -> str:
    """Maven's first `[ERROR]` line that says what went wrong (a goal's reason, a crashed fork's
    words)."""
    for line in lines:
        if not line.startswith("[ERROR]"):
            continue
        text = line[7:].strip()
        goal = GOAL.match(text)
        if goal:
            text = goal.group(1).strip()
        if text and not text.startswith(MAVEN_NOISE):
            return text[:200]
    return ""


def _crashed_class(lines: list[str]) -> str:
    """The first test class Surefire names under `Crashed tests:` (a fork that died in it)."""
    for number, line in enumerate(lines[:-1]):
        if line.strip() == "[ERROR] Crashed tests:":
            name = lines[number + 1].removeprefix("[ERROR]").strip()
            return name if name.replace(".", "").replace("$", "").replace("_", "").isalnum() else ""
    return ""


def left_alone_run(words: list[str]) -> str:
    """A Maven or Gradle test run, left as written: its build tool's name (the feed's marker), else
    ""."""
    from sidekit_hooks.runners.junit import build

    return build.build_tool(words)


GRAPH_SUFFIXES = (".java",)  # the source files its graph answers for


def tests_for(project: str, path: str) -> dict[str, Any]:
    """The test files a change to `path` can affect: packages and imports (impact/java.py)."""
    from sidekit_hooks.impact import by_graph, java

    return by_graph.tests_for(project, path, java, GRAPH_SUFFIXES, NAME)


def graph_selection(project: str, base: str | None) -> dict[str, Any]:
    """`sidekit select`'s answer head from the same graph (`sidekit test --select` still runs every
    test)."""
    from sidekit_hooks.impact import by_graph, java

    return by_graph.selection(project, base, java, NAME)
