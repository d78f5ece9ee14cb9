"""The tools sidecar: "a tool already does this".

Two kinds of signal, both on completed tool calls, one module per check:

* a built-in catalog of shell habits that a Claude Code tool or a `sidekit` answer does better:
  raw pytest (`raw_pytest`), `grep -rn`/`rg` for an identifier (`grep_name`), `cat`/`head`/`tail`
  of a file (`file_reads`), `find -name` (`find_name`);
* in added code: hand-written sleep-polling / retry loops where the project already has a helper or
  a library for it (`waits`: its own `retry`/`wait_until`, tenacity, backoff, Playwright's waits),
  and helper reinvention (`reinvention`): an added function of 5+ lines that matches one the project
  already has (a shorter one only by its distinctive literals), found in the function index
  (`sidekit_hooks.code.functions`), which is built in the background.

Medium threshold: one finding per habit, concrete, with the replacement. Standard library only on
every event; a check's module is imported when its kind of call comes; the parser and rapidfuzz load
only when a function was added (and rapidfuzz only when something in the index could match it).
"""

from __future__ import annotations

from sidekit_hooks.code.languages import INDEXED
from sidekit_hooks.core import budget
from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.core.shell import core_words
from sidekit_hooks.core.shell import segments as parse_shell
from sidekit_hooks.detectors.tools.common import SIDECAR, long_output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding


class ToolsDetector:
    name = SIDECAR
    hooks = judged_by("tools")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        if event.tool == "Glob" and event.event_name == "PostToolUse" and event.session_id:
            from sidekit_hooks.detectors.tools.find_name import remember_glob

            remember_glob(ctx.project, event.session_id)
            return []
        if event.kind == "shell" and event.command:
            found = shell_findings(event.command, ctx.project, event.session_id)
            for finding in found:
                finding.subject = finding.subject or event.command[:200]  # the command it is about
            from sidekit_hooks.detectors.tools.raw_pytest import costly_run

            if event.event_name == "PostToolUseFailure" or not costly_run(event.output):
                # A failed raw pytest run belongs to the tests sidecar (status + `sidekit failures`)
                # and to the team's own rules on its output; a second "use sidekit test" would be
                # noise. So is the hint after a short or green run: it cost the model next to
                # nothing.
                found = [f for f in found if f.key != "tools:pytest"]
            if not long_output(event.output):
                # A shell read or search that answered in a few lines cost the model next to
                # nothing: a hint to another tool would be noise (the independent reviewer labelled
                # them so).
                found = [f for f in found if f.key == "tools:pytest"]
            return found
        if event.kind == "write" and event.path:
            return write_findings(event, ctx)
        return []


TOOLS = ToolsDetector()


def shell_findings(command: str, project: str, session: str = "") -> list[Finding]:
    from sidekit_hooks.detectors.tools.file_reads import read_finding
    from sidekit_hooks.detectors.tools.find_name import find_finding, glob_seen
    from sidekit_hooks.detectors.tools.grep_name import search_finding
    from sidekit_hooks.detectors.tools.raw_pytest import pytest_finding

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
            or (
                find_finding(words, segment)
                if words[0] == "find" and glob_seen(project, session)
                else None
            )
        )
        if finding and all(f.key != finding.key for f in findings):
            findings.append(finding)
    return findings


def write_findings(event: Event, ctx: Context) -> list[Finding]:
    from sidekit_hooks.detectors.tools.waits import CODE_SUFFIXES, loop_finding, polling_loop

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
    loop = (
        polling_loop(event.added) if event.path.endswith(CODE_SUFFIXES) else None
    )  # docs show loops too
    if loop is not None:
        finding = loop_finding(event, ctx, *loop)
        if finding:
            findings.append(finding)
    if python and "def " in event.added:
        from sidekit_hooks.detectors.tools.reinvention import reinvention_finding

        try:
            finding = reinvention_finding(event, ctx)
        except budget.Later:
            budget.want_later(
                ctx.memo, SIDECAR
            )  # the other habits are said now; this one from the background
            finding = None
        if finding:
            findings.append(finding)
    elif not python and event.path.endswith(INDEXED):
        findings.extend(other_language_findings(event, ctx))
    return findings


def other_language_findings(event: Event, ctx: Context) -> list[Finding]:
    """A function added in TypeScript, JavaScript, Go, Rust or Java that repeats a project helper:
    asked of the background worker (tree-sitter reads it there), only when the added text could hold
    one."""
    from sidekit_hooks.code.languages import language_of
    from sidekit_hooks.detectors.tools.reinvention import language_finding, may_add_function

    language = language_of(event.path)
    if not may_add_function(language, event.added):
        return []
    try:
        finding = language_finding(event, ctx, language)
    except budget.Later:
        budget.want_later(
            ctx.memo, SIDECAR
        )  # the other habits are said now; this one from the background
        return []
    return [finding] if finding else []
