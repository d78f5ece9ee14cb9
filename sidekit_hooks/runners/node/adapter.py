"""node's own test runner (`node --test`): detection, the command forms that run it, the options
that make a raw run compact, and records.

The rewrite appends `--test-reporter=<summary.mjs> --test-reporter-destination=stdout
--test-reporter=<records.mjs> --test-reporter-destination=<.sidekit/node/report-*.jsonl>`: the
console shows sidekit's compact summary (the counts, each distinct failure once), and the records
(one JSON line per test) feed the shared cache once the run has ended (`feed_after`, through the
PostToolUse feed). Both reporters are sidekit's own files, loaded by absolute path; they read only
the runner's events. A command that names its own reporter, watches, evaluates code or asks for help
is left alone.

Test ids are `<file>::<name>`, a subtest's name after its parents' (`suite > inner`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.runners import Result

NAME = "node"
# sidekit's reporters: one answers on the console, one records; the records feed after
FEED = "reporter"
SUMMARY = "summary.mjs"
RECORDS = "records.mjs"
REPORT_PREFIX = "report-"
REPORT_SUFFIX = ".jsonl"
# `--test-reporter`, `--test-reporter-destination`: the user's choice
OWN_REPORTERS = "--test-reporter"
LEAVE_ALONE = ("--watch", "--help", "-h", "--version", "-v", "--eval", "-e", "--print", "-p")
NOT_NARROWING = (
    "--test",
    "--test-reporter",
    "--test-reporter-destination",
    "--test-concurrency",
    "--test-timeout",
)


def detect(project: str) -> bool:
    """package.json's test script runs `node --test`."""
    from sidekit_hooks.runners.js import command as js_command

    scripts = js_command.read_package_json(project).get("scripts")
    script = scripts.get("test") if isinstance(scripts, dict) else ""
    return isinstance(script, str) and "node --test" in script


def matches(words: list[str]) -> bool:
    """`node ... --test ...` (the program by any path)."""
    return bool(words) and words[0].rsplit("/", 1)[-1] == NAME and "--test" in _options(words[1:])


def compact_words(words: list[str], project: str) -> list[str] | None:
    options = _options(words[1:])
    if (
        not matches(words)
        or "--" in words
        or any(o in LEAVE_ALONE or o.startswith(OWN_REPORTERS) for o in options)
    ):
        return None
    report = new_report_path(project)
    if not report:
        return None
    return [*words, *reporters("stdout", report)]


def reporters(console: str, report: str) -> list[str]:
    """The options that send the compact summary (or node's own `spec`) to `console`, the records to
    `report`."""
    here = os.path.dirname(os.path.abspath(__file__))
    summary = os.path.join(here, SUMMARY) if console == "stdout" else "spec"
    return [
        f"--test-reporter={summary}",
        "--test-reporter-destination=stdout",
        f"--test-reporter={os.path.join(here, RECORDS)}",
        f"--test-reporter-destination={report}",
    ]


def command(project: str, args: list[str]) -> list[str]:
    """What `sidekit test` runs: node's own `spec` output (the raw output kept) and a fresh record
    file."""
    report = new_report_path(project)
    return ["node", "--test", *(reporters("spec", report) if report else []), *args]


def new_report_path(project: str) -> str:
    """A fresh record file under `.sidekit/node/` (made here: node does not make its folder), or ''
    when that folder would leave the project (a committed symlink)."""
    from sidekit_hooks.core import safepath, workspace

    folder = os.path.join(workspace.state_dir(project), NAME)
    try:
        safepath.makedirs(folder, project)
    except (
        OSError,
        ValueError,
    ):  # UnsafePath: a link that would lead the folder out of the project
        return ""
    return os.path.join(folder, f"{REPORT_PREFIX}{os.urandom(6).hex()}{REPORT_SUFFIX}")


def collect(
    project: str, started: float, exit_code: int, raw_output_path: str, report: str = ""
) -> Result:
    """This run's records: the newest record file written since `started` (or `report`)."""
    from sidekit_hooks.runners.node import records

    path = report or records.newest(os.path.join(project, ".sidekit", NAME), started)
    return records.result(project, path, started, exit_code, raw_output_path)


def filter_words(args: list[str]) -> list[str]:
    """The words that narrow a run (files, name patterns): [] for a whole run."""
    return [arg for arg in args if arg.partition("=")[0] not in NOT_NARROWING]


def feed_after(job: dict[str, Any]) -> Result:
    """An agent's compacted run, fed once it ended: its record file, named in its own words (only
    the file's name is taken; the folder is sidekit's own), and its console output as the raw
    output."""
    from sidekit_hooks.runners import store

    root, args = str(job["root"]), [str(word) for word in job.get("args") or []]
    named = [
        arg.partition("=")[2] for arg in args if arg.startswith("--test-reporter-destination=")
    ]
    name = os.path.basename(named[-1]) if named else ""
    report = os.path.join(root, ".sidekit", NAME, name) if name.startswith(REPORT_PREFIX) else ""
    raw = store.save_raw(root, NAME, str(job.get("output", "")), "agent-node")
    result = collect(root, float(job["started"]), int(job["exit"]), raw, report)
    result.args = filter_words(args)
    return result


def _options(args: list[str]) -> list[str]:
    return [arg.partition("=")[0] for arg in args if arg.startswith("-")]
