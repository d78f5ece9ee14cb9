"""The agent's raw `mvn test` / `gradle test` feeding the cache: which commands are marked, the
marker's freshness rule, the outcome read from the PostToolUse(Failure) payload, the worker's
ingestion (never greener), and the real hooks end to end on written reports (the real Maven run:
test_junit_feed_maven.py)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.detectors import tests
from sidekit_hooks.nudges import queue
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.pipeline import runtime
from sidekit_hooks.runners.junit import adapter as junit
from sidekit_hooks.runners.junit import build
from sidekit_hooks.runners.junit import feed as junit_feed
from testing.hooks import HookRunner, bash, pre_bash, status_now, wait_for_feed

GREEN = """<testsuite name="demo.CalcTest" tests="1"><testcase classname="demo.CalcTest" name="adds" time="0.01"/>
</testsuite>
"""
RED = """<testsuite name="demo.CalcTest" tests="1" failures="1">
<testcase classname="demo.CalcTest" name="adds" time="0.01"><failure type="org.opentest4j.AssertionFailedError"
 message="expected: &lt;3&gt; but was: &lt;4&gt;">org.opentest4j.AssertionFailedError: expected
\tat demo.CalcTest.adds(CalcTest.java:9)
</failure></testcase></testsuite>
"""
REPORT = "target/surefire-reports/TEST-demo.CalcTest.xml"
JAVAC = (
    "[ERROR] {root}/src/main/java/demo/Calc.java:[7,24] cannot find symbol\n[INFO] BUILD FAILURE\n"
)


@pytest.mark.parametrize(
    ("command", "tool"),
    [
        ("mvn test", "maven"),
        ("mvn -q test", "maven"),
        ("./mvnw -B test -Dtest=CalcTest", "maven"),
        ("mvn verify -Dtest=CalcTest", "maven"),
        ("mvn clean install -pl a", "maven"),
        ("mvn surefire:test", "maven"),
        ("gradle test", "gradle"),
        ("./gradlew :app:test --tests x", "gradle"),
        ("./gradlew build", "gradle"),
        ("mvn compile", ""),
        ("mvn test -DskipTests", ""),
        ("mvn install -Dmaven.test.skip=true", ""),
        ("mvn test -DskipTests=false", "maven"),
        ("gradle build -x test", ""),
        ("gradle assemble", ""),
        ("go test ./...", ""),  # not a build tool: a compacted go run names its runner itself
        ("go vet ./...", ""),
        ("mvn", ""),
    ],
)
def test_which_commands_run_tests_through_a_build_tool(command: str, tool: str) -> None:
    assert build.build_tool(command.split()) == tool


def stamp(path: Path, ns: int) -> None:
    os.utime(path, ns=(ns, ns))


def test_a_report_is_this_runs_from_the_markers_own_mtime_on(project: Path) -> None:
    """Same clock on both sides: a tie counts (a coarse clock gives a report written just after the
    marker the marker's own time), one nanosecond before does not, and a report rewritten with the
    very same bytes after the marker does."""
    (project / ".git").mkdir()
    folder = project / "target/surefire-reports"
    folder.mkdir(parents=True)
    marker = Path(junit_feed.mark_started(pre_bash(project, "mvn test"), ["mvn", "test"]))
    since = marker.stat().st_mtime_ns
    tie, older, same = (folder / f"TEST-{name}.xml" for name in ("Tie", "Older", "Same"))
    for path in (tie, older, same):
        path.write_text(GREEN)
    stamp(tie, since)
    stamp(older, since - 1)
    stamp(same, since - 10**9)
    assert junit.find_reports(str(project), 0.0, since_ns=since) == [str(tie)]
    same.write_text(GREEN)  # Surefire rewrites a report whole, even when nothing changed
    assert junit.find_reports(str(project), 0.0, since_ns=since) == [str(same), str(tie)]


def test_the_marker_names_one_tool_call_and_holds_no_path_out(project: Path) -> None:
    (project / ".git").mkdir()
    payload = pre_bash(project, "cd a && mvn -q test", session="../../x", tool_use_id="toolu_9/..")
    path = junit_feed.mark_started(payload, ["mvn", "-q", "test"])
    assert path == str(project / ".sidekit" / "junit-feed" / "______x--toolu_9___.json")
    record = json.loads(Path(path).read_text())
    assert (record["tool"], record["args"], record["root"], record["session"]) == (
        "maven",
        ["-q", "test"],
        str(project),
        "../../x",
    )
    assert junit_feed.mark_started(pre_bash(project, "mvn compile"), ["mvn", "compile"]) == ""
    assert (
        junit_feed.mark_started(pre_bash(project, "mvn test", tool_use_id=""), ["mvn", "test"])
        == ""
    )


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"error": "Exit code 1\n[ERROR] BUILD FAILURE"}, (1, "[ERROR] BUILD FAILURE")),
        ({"error": "Exit code 137"}, (137, "")),
        ({"error": "Exit code 1\nx", "is_interrupt": True}, (None, "Exit code 1\nx")),
        ({"error": "Command was aborted"}, (None, "Command was aborted")),
        ({}, (0, "BUILD SUCCESS")),
        ({"tool_response": {"stdout": "", "backgroundTaskId": "b1"}}, (None, "")),
        ({"tool_response": {"stdout": "", "interrupted": True}}, (None, "")),
        ({"run_in_background": True}, (None, "BUILD SUCCESS")),
    ],
)
def test_the_outcome_the_payload_carries(
    project: Path, fields: dict[str, Any], expected: tuple[object, str]
) -> None:
    error, background = str(fields.pop("error", "")), fields.pop("run_in_background", False)
    payload = bash(project, "mvn test", "BUILD SUCCESS", error, **fields)
    if background:
        payload["tool_input"]["run_in_background"] = True
    assert (
        junit_feed.outcome(parse_event(payload["hook_event_name"], payload, str(project)))
        == expected
    )


def marked_run(project: Path, monkeypatch: pytest.MonkeyPatch, spawned: list[list[str]]) -> Path:
    (project / ".git").mkdir()
    (project / "pom.xml").write_text("<project/>")
    monkeypatch.setattr(
        "sidekit_hooks.core.background.spawn_module", lambda module, args: spawned.append(args)
    )
    return Path(junit_feed.mark_started(pre_bash(project, "mvn -q test"), ["mvn", "-q", "test"]))


def test_the_hand_over_claims_the_marker_once_and_writes_the_job(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spawned: list[list[str]] = []
    marker = marked_run(project, monkeypatch, spawned)
    marker.write_text(
        marker.read_text().replace(str(project), "/elsewhere")
    )  # only the hook says where
    since = marker.stat().st_mtime_ns - 10**9
    stamp(marker, since)  # the run took a second
    payload = bash(project, "mvn -q test", error="Exit code 1\n[ERROR] There are test failures.")
    event = parse_event("PostToolUseFailure", payload, str(project))
    job = junit_feed.hand_over(event, runtime.FEED_WORKER)
    assert spawned == [[job]] and not marker.exists()
    written = json.loads(Path(job).read_text())
    assert (
        written["root"],
        written["since_ns"],
        written["exit"],
        written["output"],
        written["tool"],
    ) == (
        str(project),
        since,
        1,
        "[ERROR] There are test failures.",
        "maven",
    )
    assert (
        since + 10**9 <= written["until_ns"] <= time.time_ns()
    )  # its end, by the same clock: the marker's
    assert junit_feed.hand_over(event, runtime.FEED_WORKER) == "" and spawned == [
        [job]
    ]  # the marker is gone: no second worker


def test_a_run_that_did_not_end_is_not_fed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spawned: list[list[str]] = []
    marker = marked_run(project, monkeypatch, spawned)
    payload = bash(project, "mvn -q test", tool_response={"stdout": "", "backgroundTaskId": "b1"})
    assert (
        junit_feed.hand_over(parse_event("PostToolUse", payload, str(project)), runtime.FEED_WORKER)
        == ""
    )
    assert spawned == [] and not marker.exists() and not (project / ".sidekit/status.json").exists()


def job_for(
    project: Path, since_ns: int, exit_code: int, output: str = "", tool: str = "maven"
) -> dict[str, Any]:
    payload = bash(
        project, "mvn -q test", output, f"Exit code {exit_code}\n{output}" if exit_code else ""
    )
    return {
        "tool": tool,
        "args": ["-q", "test"],
        "started": since_ns / 1e9,
        "root": str(project),
        "since_ns": since_ns,
        "exit": exit_code,
        "output": output,
        "hook": payload["hook_event_name"],
        "payload": payload,
    }


def stale_green(project: Path) -> int:
    """A green report an earlier run left, then the start of this run (its marker time)."""
    (project / ".git").mkdir()
    (project / "pom.xml").write_text("<project/>")
    stamp(
        project / "pom.xml", time.time_ns() - 10 * 10**9
    )  # written well before the run: not a change since it
    report = project / REPORT
    report.parent.mkdir(parents=True)
    report.write_text(GREEN)
    stamp(report, time.time_ns() - 10**9)
    return time.time_ns()


def test_a_compile_error_is_a_broken_run_not_the_old_green(project: Path) -> None:
    since = stale_green(project)
    fed = junit_feed.feed(job_for(project, since, 1, JAVAC.format(root=project)))
    assert fed is not None and fed[0].tests == {} and fed[1]["run"]["exit"] == 1
    found = status_now(project)
    assert found == {
        "runner": "junit",
        "state": "failed",
        "collectErrors": 1,
        "newFailures": 1,
        "clusters": [
            {
                "id": found["clusters"][0]["id"],
                "type": "compile error",
                "phase": "collect",
                "at": "src/main/java/demo/Calc.java:7",
                "message": "cannot find symbol",
                "new": 1,
                "first": "src/main/java/demo/Calc.java",
            }
        ],
    }  # no "passed": the green report of the earlier run is not this run's


def test_a_red_report_of_this_run_is_fed_and_a_green_exit_with_none_is_no_tests(
    project: Path,
) -> None:
    since = stale_green(project)
    (project / REPORT).write_text(RED)
    junit_feed.feed(job_for(project, since, 1, "[ERROR] Tests run: 1, Failures: 1"))
    found = status_now(project)
    assert (found["state"], found["failed"], found["clusters"][0]["first"]) == (
        "failed",
        1,
        "demo.CalcTest::adds",
    )
    stamp(project / REPORT, since - 1)
    junit_feed.feed(job_for(project, time.time_ns(), 0))
    assert status_now(project) == {"runner": "junit", "state": "noTests"}


def test_an_up_to_date_gradle_test_task_records_nothing(project: Path) -> None:
    since = stale_green(project)
    assert junit_feed.feed(job_for(project, since, 0, tool="gradle")) is None
    assert not (project / ".sidekit/status.json").exists()


def test_the_real_hooks_feed_a_red_raw_run_to_status(project: Path, run_hook: HookRunner) -> None:
    """PreToolUse marks, the run writes its report, PostToolUseFailure hands over, the worker feeds
    the cache: `sidekit status` says what the raw run did; PreToolUse printed nothing."""
    stale_green(project)
    pre = run_hook("PreToolUse", pre_bash(project, "mvn -q test"))
    assert (pre.returncode, pre.stdout, pre.stderr) == (0, "", "")
    (project / REPORT).write_text(RED)
    post = run_hook(
        "PostToolUseFailure", bash(project, "mvn -q test", error="Exit code 1\n[ERROR] Failures: 1")
    )
    # nothing, or (on a loaded machine, the worker done before the hook's own delivery) the worker's
    # line
    assert (post.returncode, post.stderr) == (0, "") and (
        post.stdout == "" or "[sidecar:tests] junit" in post.stdout
    )
    fed = wait_for_feed(project)
    assert [(r["decision"], r["exit"], r["tests"], r["errors"]) for r in fed] == [
        ("junit-fed", 1, 1, 0)
    ]
    found = status_now(project)
    assert (found["runner"], found["state"], found["failed"]) == ("junit", "failed", 1)
    said = [
        json.loads(line).get("text", "")
        for line in (project / ".sidekit/log/decisions.jsonl").open()
    ]
    assert {
        text for text in said if text
    } == {  # queued, and (when the hook delivered it) delivered
        "[sidecar:tests] junit: 1 failed; 1 root cause; biggest: AssertionFailedError (1 test): "
        "sidekit failures demo.CalcTest::adds. Next time `sidekit test` answers in one JSON line"
    }


def test_a_tests_line_about_the_run_before_waits_while_this_calls_run_is_fed(
    project: Path, run_hook: HookRunner
) -> None:
    """Held-out gson: the note of a red `mvn test` reached the model at the end of the next, green
    `mvn test` (the worker queues it after its call's hooks; the green run was not in the cache
    yet). A tests line queued before a call that is itself a fed run waits for the next boundary,
    where it is judged against that run: here gone (moot)."""
    stale_green(project)
    (project / REPORT).write_text(RED)
    junit_feed.feed(
        job_for(project, time.time_ns() - 10**9, 1, "[ERROR] Tests run: 1, Failures: 1")
    )
    summary = json.loads((project / ".sidekit/status.json").read_text())
    (finding,) = tests.after_run(summary, time.time())
    line = (
        finding.message
        if finding.message.startswith("[sidecar:")
        else f"[sidecar:tests] {finding.message}"
    )
    extra = {"sidecar": "tests", "finding": finding.key, "recheck": json.dumps(finding.recheck)}
    queue.enqueue(
        str(project / ".runtime" / "nudge_queue"),
        "sess-1",
        queue.Nudge(line, "sidekit/tests", extra=extra),
    )
    time.sleep(0.01)
    run_hook("PreToolUse", pre_bash(project, "mvn -q test"))
    (project / REPORT).write_text(GREEN)
    post = run_hook("PostToolUse", bash(project, "mvn -q test", "[INFO] BUILD SUCCESS\n"))
    assert (post.returncode, post.stdout, post.stderr) == (0, "", "")  # not the red run's line
    wait_for_feed(project)
    assert status_now(project)["state"] == "passed"
    later = run_hook("PostToolUse", bash(project, "ls", "pom.xml\n", tool_use_id="toolu_9"))
    assert (later.returncode, later.stdout) == (
        0,
        "",
    )  # judged against the green run: moot, never said
    assert not list((project / ".runtime" / "nudge_queue" / "sess-1").glob("*.json"))


def test_a_command_the_hook_did_not_mark_is_not_fed(project: Path, run_hook: HookRunner) -> None:
    stale_green(project)
    (project / REPORT).write_text(RED)
    for command in ("mvn -q test | tail -5", "mvn compile", "SIDEKIT_RAW=1 mvn test"):
        assert run_hook("PreToolUse", pre_bash(project, command)).stdout == ""
        post = run_hook("PostToolUseFailure", bash(project, command, error="Exit code 1\nx"))
        assert (post.returncode, post.stderr) == (0, "")
    assert (
        not (project / ".sidekit/junit-feed").exists()
        and not (project / ".sidekit/status.json").exists()
    )


NO_MATCH = (
    "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.3:test "
    "(default-test) on "
    'project demo: No tests matching pattern "Nope" were executed! (Set '
    "-Dsurefire.failIfNoSpecifiedTests=false "
    "to ignore this error.) -> [Help 1]\n"
)


def call(
    project: Path, command: str, exit_code: int, output: str = "", cwd: Path | None = None
) -> dict[str, Any]:
    """A job of the Maven call `command` (its words after `mvn` as the marker keeps them) run in
    `cwd`."""
    job = job_for(project, time.time_ns(), exit_code, output)
    job["args"] = command.split("mvn ", 1)[1].split()
    job["payload"] = dict(job["payload"], cwd=str(cwd or project), tool_input={"command": command})
    return job


@pytest.mark.parametrize(
    ("command", "exit_code", "folder", "cleared"),
    [
        ("mvn -B -q test", 0, "", True),  # everything ran, green: the error is gone
        ("mvn -B -q test", 1, "", False),  # red: Maven may have stopped before the module
        ("mvn -q test -Dtest=CalcTest", 0, "", False),  # a filter: the rest did not run
        ("mvn -q -pl a test", 0, "", False),
        ("cd a && mvn -q test", 0, "", False),  # one module
        ("mvn -q test", 0, "a", False),  # run in a module's folder
    ],
)
def test_only_a_green_whole_maven_run_clears_an_error_it_did_not_repeat(
    project: Path, command: str, exit_code: int, folder: str, cleared: bool
) -> None:
    """Held-out gson: `mvn test -Dtest=Nope` files "No tests matching" at pom.xml; a later green
    `mvn test` left it there for good (status redder than the run)."""
    stale_green(project)
    (project / "a").mkdir()
    junit_feed.feed(call(project, "mvn -q test -Dtest=Nope", 1, NO_MATCH))
    before = status_now(project)
    assert (before["state"], before["clusters"][0]["first"]) == ("failed", "pom.xml"), before
    stamp(project / REPORT, time.time_ns() + 10**9)  # this run's green report
    junit_feed.feed(call(project, command, exit_code, cwd=project / folder if folder else None))
    after = status_now(project)
    assert ("clusters" not in after) is cleared, after


def test_tests_known_by_class_name_stay_through_a_run_that_did_not_run_them(project: Path) -> None:
    """Held-out gson: after `mvn test -Dtest=Nope`, status counted 1,378 passed of 4,537: every
    cached test whose id is a class name (its source file not found) was taken for a deleted
    file."""
    since = stale_green(project)
    stamp(project / REPORT, since + 1)  # this run's report, and older than the next run's start
    junit_feed.feed(job_for(project, since, 0))
    assert status_now(project) == {"runner": "junit", "state": "passed", "passed": 1}
    junit_feed.feed(call(project, "mvn -q test -Dtest=Nope", 1, NO_MATCH))
    found = status_now(project)
    assert (found["state"], found["passed"], found["collectErrors"]) == ("failed", 1, 1)
    assert list(json.loads((project / ".sidekit/status-tests.json").read_text())["tests"]) == [
        "demo.CalcTest::adds"
    ]


@pytest.mark.parametrize(
    ("command", "dropped"), [("mvn -q test", True), ("mvn -q test -Dtest=CalcTest", False)]
)
def test_a_whole_green_maven_run_drops_the_jvm_tests_it_no_longer_has_and_nothing_else(
    project: Path, command: str, dropped: bool
) -> None:
    since = stale_green(project)
    stamp(project / REPORT, since + 1)
    junit_feed.feed(job_for(project, since, 0))
    table_path = project / ".sidekit/status-tests.json"
    table = json.loads(table_path.read_text())
    table["tests"]["src/test/java/demo/GoneTest.java::removed"] = {"o": "failed", "d": 0.0}
    table["tests"]["tests/test_tool.py::test_py"] = {
        "o": "passed",
        "d": 0.0,
    }  # another runner's, same cache
    (project / "src/test/java/demo").mkdir(parents=True)
    (project / "src/test/java/demo/GoneTest.java").write_text("class GoneTest {}\n")
    (project / "tests").mkdir()
    (project / "tests/test_tool.py").write_text("def test_py(): pass\n")
    table_path.write_text(json.dumps(table))
    job = call(project, command, 0)
    stamp(project / REPORT, int(job["since_ns"]) + 1)  # this run's report: CalcTest only
    junit_feed.feed(job)
    kept = set(json.loads(table_path.read_text())["tests"])
    assert ("src/test/java/demo/GoneTest.java::removed" not in kept) is dropped
    assert {"demo.CalcTest::adds", "tests/test_tool.py::test_py"} <= kept
