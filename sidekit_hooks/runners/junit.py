"""JUnit/xUnit XML reports (Maven Surefire/Failsafe, Gradle, nextest, any JUnit writer) into cache records.

Reports are read from the folders build tools leave them in (`target/surefire-reports`,
`target/failsafe-reports`, `build/test-results/<task>`, `target/nextest/<profile>`), in the project
and its modules, and only when written after the run started: an old report never speaks for a
new run. `sidekit ingest PATH` reads any other report. A testcase fails when it holds `failure` or
`error` (Surefire's flaky reruns that passed are passes, as Surefire counts them), is skipped when
it holds `skipped`. Test ids are `<test source file>::<method>` when the class's file is in the
project (`src/test/java/com/acme/CalcTest.java::adds`), else `<classname>::<method>`.

`sidekit test` runs `mvn -B test` (or `./gradlew test`, `gradle test`); the raw `mvn test` and
`gradle test` commands are left as they are (no option of theirs turns their console compact).
"""

from __future__ import annotations

import os

from sidekit_hooks.runners import Result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from xml.etree.ElementTree import Element

NAME = "junit"
REPORT_DIRS = ("target/surefire-reports", "target/failsafe-reports", "build/test-results", "target/nextest")
MAX_REPORT_BYTES = 50_000_000
MAX_MODULE_DEPTH = 3


def detect(project: str) -> bool:
    return any(
        os.path.isfile(os.path.join(project, name))
        for name in ("pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts")
    )


def matches(words: list[str]) -> bool:
    return False  # mvn/gradle raw runs are left alone: no appended option makes their console compact


def compact_words(words: list[str], project: str) -> list[str] | None:
    return None


def command(project: str, args: list[str] | None = None) -> list[str]:
    """What `sidekit test [ARGS]` runs: Maven, or Gradle (the project's wrapper first)."""
    if os.path.isfile(os.path.join(project, "pom.xml")):
        wrapper = os.path.join(project, "mvnw")
        return [wrapper if os.access(wrapper, os.X_OK) else "mvn", "-B", "test", *(args or [])]
    wrapper = os.path.join(project, "gradlew")
    return [wrapper if os.access(wrapper, os.X_OK) else "gradle", "test", "--console=plain", *(args or [])]


def collect(project: str, started: float, exit_code: int, raw_output_path: str) -> Result:
    """The reports this run wrote; a red run without any is a build error, with the tool's last words."""
    reports = find_reports(project, started)
    result = from_reports(reports, project, started, exit_code)
    if exit_code and not any(e["o"] in ("failed", "error") for e in result.tests.values()) and not result.errors:
        said = _tool_error(raw_output_path)
        result.errors["pom.xml" if os.path.isfile(os.path.join(project, "pom.xml")) else "."] = {
            "type": "build failed",
            "message": said or f"exit code {exit_code}",
            "shape": "build failed",
        }
        result.last_words = said
    return result


def find_reports(project: str, since: float) -> list[str]:
    """XML reports under the known folders of the project and its modules, written at or after `since`."""
    found: list[str] = []
    for folder, dirs, _files in os.walk(project):
        depth = os.path.relpath(folder, project).count(os.sep) if folder != project else 0
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".") and d not in ("node_modules", "src") and depth < MAX_MODULE_DEPTH + 2
        ]
        rel = os.path.relpath(folder, project).replace(os.sep, "/")
        if not any(rel == r or rel.endswith("/" + r) or ("/" + r + "/") in ("/" + rel + "/") for r in REPORT_DIRS):
            continue
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if name.endswith(".xml") and os.path.isfile(path) and os.path.getmtime(path) >= since - 1:
                found.append(path)
    return sorted(set(found))


def from_reports(paths: list[str], project: str, started: float, exit_code: int) -> Result:
    from sidekit_hooks.runners import frames

    result = Result(NAME, started, exit_code)
    index = frames.SourceIndex(project)
    for path in paths:
        try:
            if os.path.getsize(path) > MAX_REPORT_BYTES:
                continue
            cases = _testcases(path)
        except (OSError, SyntaxError, ValueError) as exc:  # ParseError is a SyntaxError
            rel = os.path.relpath(path, project).replace(os.sep, "/")
            result.errors[rel] = {"type": "unreadable report", "message": str(exc)[:200], "shape": "unreadable report"}
            continue
        for case in cases:
            test, entry = _record(case, index)
            result.tests[test] = entry
    return result


def _testcases(path: str) -> list[Element]:
    import xml.etree.ElementTree as ElementTree

    tree = ElementTree.parse(path)  # expat refuses entity expansion bombs (Python >= 3.11 with expat >= 2.4.1)
    root = tree.getroot()
    if root.tag == "TestRun" or root.tag.endswith("}TestRun"):
        raise ValueError("a TRX report: not supported yet")
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


def _tool_error(raw_output_path: str) -> str:
    """Maven's or Gradle's own reason for a failed build: its first `[ERROR]` / `* What went wrong:` line."""
    try:
        with open(raw_output_path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return ""
    for index, line in enumerate(lines):
        if line.startswith("[ERROR]") and line[7:].strip() and "-> [Help" not in line:
            return line[7:].strip()[:200]
        if line.startswith("* What went wrong:") and index + 1 < len(lines):
            return lines[index + 1].strip()[:200]
    return next((ln.strip() for ln in reversed(lines) if ln.strip()), "")[:200]
