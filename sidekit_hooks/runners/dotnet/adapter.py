"""The runner-adapter functions of `dotnet test` (runners/__init__.py's contract), shared by the two
platform modules `mtp` and `vstest`, which name the run.

- `command`: what `sidekit test [ARGS]` runs: `dotnet test` with the report option of the project's
  mode (project.py) and the arguments; nothing appended when the mode or MTP's TRX option is not
  told (the run then speaks through its console only).
- `before_run` / `collect`: the TRX reports this run wrote (new or changed since the snapshot, or
  since the PreToolUse marker for the agent's own run), anywhere in the project (a VSTest project's
  `TestResults/`, MTP's `bin/<config>/<tfm>/TestResults/`, a `--results-directory`), plus JUnit XML
  in `TestResults` folders (`--logger junit`), plus what the console said (console.py). Never
  greener: an MSBuild error is an error at its file and line; an aborted run or crashed test host is
  an error; a red assembly without a report is an error of that assembly; a red exit with nothing
  else to show is an error with dotnet's last words; zero tests run is `noTests` with the exit code
  dotnet gave.
- `feed`: the agent's raw run (runners/junit/feed.py's worker): the same, from the marker's time.
"""

from __future__ import annotations

import os

from sidekit_hooks.runners import Result
from sidekit_hooks.runners.dotnet import command as dotnet_command
from sidekit_hooks.runners.dotnet import project as dotnet_project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Snapshot = dict[str, tuple[int, int]]  # report path -> (mtime_ns, size) before the run
SKIP = frozenset({"obj", "node_modules", "packages"})
MAX_DEPTH = 8  # bin/Debug/net8.0/TestResults/x.trx under tests/App.Tests/ is at depth 6
MAX_ENTRIES = 50_000
MAX_OUTPUT = 4_000_000  # characters of a run's output read
# Words of `dotnet test` that never narrow which tests run (a green run made of these covered
# everything).
WHOLE = frozenset(
    {
        "test",
        "--nologo",
        "--no-restore",
        "--no-build",
        "--blame",
        "--report-trx",
        "--report-xunit-trx",
    }
)
WHOLE_WITH_VALUE = frozenset(
    {"-v", "--verbosity", "-c", "--configuration", "--logger", "-l", "--results-directory"}
)


def detect(project: str, name: str) -> bool:
    return dotnet_project.platform(dotnet_project.read(project)) == name


def command(project: str, args: list[str]) -> list[str]:
    files = dotnet_project.read(project)
    mode = dotnet_project.mode(files)
    if mode == "vstest":
        return ["dotnet", "test", *args, *dotnet_command.vstest_options(args)]
    if mode in ("direct", "msbuild"):
        return [
            "dotnet",
            "test",
            *args,
            *dotnet_command.mtp_options(args, mode, dotnet_project.mtp_report_option(files)),
        ]
    return ["dotnet", "test", *args]


def report_files(project: str) -> list[str]:
    """TRX files anywhere in the project, and XML files in its `TestResults` folders (links not
    followed)."""
    from sidekit_hooks.core import workspace

    found: list[str] = []
    base = project.rstrip(os.sep).count(os.sep)

    def descend(name: str) -> bool:
        return name not in SKIP and not name.startswith(".")

    for seen, entry in enumerate(workspace.walk(project, descend)):
        if seen >= MAX_ENTRIES:
            break
        if entry.path.count(os.sep) - base > MAX_DEPTH or not entry.is_file(follow_symlinks=False):
            continue
        parent = os.path.basename(os.path.dirname(entry.path))
        if entry.name.lower().endswith(".trx") or (
            parent == "TestResults" and entry.name.lower().endswith(".xml")
        ):
            found.append(entry.path)
    return sorted(found)


def before_run(project: str) -> Snapshot:
    seen: Snapshot = {}
    for path in report_files(project):
        try:
            stat = os.stat(path, follow_symlinks=False)
        except OSError:
            continue
        seen[path] = (stat.st_mtime_ns, stat.st_size)
    return seen


def find_reports(
    project: str,
    since: float,
    before: Snapshot | None = None,
    since_ns: int | None = None,
    until_ns: int | None = None,
) -> list[str]:
    """The TRX and JUnit reports a run wrote, by the JUnit feed's one freshness rule
    (junit.fresh_among: a report dated after the run ended is never this run's)."""
    from sidekit_hooks.runners.junit import adapter as junit

    return junit.fresh_among(report_files(project), since, before, since_ns, until_ns)


def collect(
    project: str,
    started: float,
    exit_code: int,
    raw_output_path: str,
    name: str,
    before: Snapshot | None = None,
    reports: list[str] | None = None,
) -> Result:
    reports = find_reports(project, started, before) if reports is None else reports
    return from_run(project, started, exit_code, _read(raw_output_path), reports, name)


def from_run(
    project: str, started: float, exit_code: int, output: str, reports: list[str], name: str
) -> Result:
    """One run from its reports and its console (never greener than either)."""
    from sidekit_hooks.runners import frames as shared
    from sidekit_hooks.runners.dotnet import console, sources, trx

    covered: set[str] = set()
    index = sources.SourceIndex(project)
    trx_files = [path for path in reports if trx.is_trx(path)]
    result = trx.from_reports(trx_files, project, started, exit_code, name, covered, index)
    junit_files = [path for path in reports if path not in trx_files]
    if junit_files:
        from sidekit_hooks.runners.junit import adapter as junit

        for test, entry in junit.from_reports(
            junit_files, project, started, exit_code
        ).tests.items():
            class_name, _, name = test.partition("::")  # the JUnit reader knows JVM files only
            path = index.file_of_class(class_name) if "/" not in class_name else ""
            result.tests.setdefault(f"{path}::{name}" if path else test, entry)
    said = console.read(output, index)
    result.errors.update(said.build_errors)
    for assembly, failed in said.red_assemblies.items():
        if assembly not in covered:  # its report was not written, or not where sidekit looks
            message = f"{failed} failed in {assembly}; no TRX report of this run covers it"
            result.errors[assembly] = shared.with_shape(
                {"type": "test run failed", "message": message}
            )
    if said.aborted and not any(
        e.get("type") == "test run aborted" for e in result.errors.values()
    ):
        result.errors["."] = shared.with_shape(
            {"type": "test run aborted", "message": said.aborted}
        )
    failing = any(e.get("o") in ("failed", "error") for e in result.tests.values())
    if exit_code and not failing and not result.errors and not (said.no_tests and not result.tests):
        words = said.last_words or f"exit code {exit_code}"
        result.errors["."] = shared.with_shape(
            {"type": "dotnet test failed", "message": f"{words} (exit {exit_code})"}
        )
    result.last_words = said.last_words
    return result


def filter_words(args: list[str]) -> list[str]:
    """The words that narrow a run ([] for a run of everything): anything beyond WHOLE."""
    narrowing: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in WHOLE_WITH_VALUE:
            skip = True
        elif arg not in WHOLE and not any(
            arg.startswith(w + ":") or arg.startswith(w + "=") for w in WHOLE_WITH_VALUE
        ):
            narrowing.append(arg)
    return narrowing


def feed(job: dict[str, Any]) -> Result:
    """The agent's raw run (junit_feed's worker): the reports written since the marker, and its
    output; named by the platform the project's files say."""
    root, code = str(job["root"]), int(job["exit"])
    name = dotnet_project.platform(dotnet_project.read(root)) or "vstest"
    until_ns = int(job["until_ns"]) if job.get("until_ns") is not None else None
    reports = find_reports(root, 0.0, since_ns=int(job["since_ns"]), until_ns=until_ns)
    result = from_run(root, float(job["started"]), code, str(job.get("output", "")), reports, name)
    result.args = filter_words([str(word) for word in job.get("args") or []])
    return result


def feed_after(job: dict[str, Any]) -> Result:
    """The agent's raw run, as `feed` reads it, with its output kept as the run's raw output."""
    from sidekit_hooks.runners import store

    ran = feed(job)
    store.save_raw(str(job["root"]), ran.runner, str(job.get("output", "")), "agent-dotnet")
    return ran


def _read(path: str) -> str:
    """The end of a run's saved output (its last MAX_OUTPUT bytes say how it ended)."""
    from sidekit_hooks.core import safepath

    try:
        return safepath.read_tail(path, MAX_OUTPUT).decode("utf-8", "replace")
    except OSError:
        return ""
