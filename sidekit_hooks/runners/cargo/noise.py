"""cargo's own noise in a green compacted `cargo test` (issue #33, item 3), folded after the run.

cargo prints rustc's warnings (on every run: replayed from its cache for a crate it does not
rebuild) and its status lines (`Compiling`, `Finished`, `Running`, `Doc-tests`) itself, before and
between the test binaries: the appended options reach only what cargo starts (cargo_tee.sh), so
these lines reach the Bash tool whole. Only a call that exited 0 can have its output replaced after
the fact (PostToolUse `updatedToolOutput`; the client ignores PostToolUseFailure's), so a green
run's noise is folded here into one line with its counts, the first warning and where the whole
output is kept. Nothing else is touched: an `error` line, libtest's lines and anything that is not
a warning block or a status line stay as they were, and a fold that saves nothing is not made.
Standard library only (the PostToolUse hook imports it).
"""

from __future__ import annotations

import os
import re
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# cargo's status lines: a verb right-aligned in 12 columns (term.quiet keeps most of them out; the
# tee writes `Running` and `Doc-tests` back when it prints a run as it was).
STATUS = re.compile(
    r"^ {0,11}(Compiling|Checking|Finished|Running|Doc-tests|Executable|Fresh|Blocking|Downloading"
    r"|Downloaded|Updating|Locking|Adding|Documenting|Packaging|Verifying) "
)
WARNING = re.compile(r"^warning(\[[\w-]+\])?: (.*)$")
GENERATED = re.compile(r"^warning: `[^`]+` \([^)]*\) generated \d+ warnings?( \(.*\))?$")
CODE_LINE = re.compile(r"^(\d+ *\||\.\.\.$)")  # `6 | #[cfg(...)]`, `...` (lines left out)
PLACE = re.compile(r"^ *--> (.+?):(\d+)(:\d+)?$")
MESSAGE = 90  # characters of the first warning's message in the folded line
MARK = "cargo_tee.sh"  # a compacted `cargo test` names the tee as cargo's runner (adapter.py)


def fold(text: str, raw: str) -> str | None:
    """`text` with rustc's warning blocks (those before the first other line: cargo builds every
    target before it runs one), cargo's `generated N warnings` lines and its status lines folded
    into one first line naming `raw` (where the caller keeps `text`); None when there is nothing
    to fold or the fold would not be shorter."""
    kept: list[str] = []
    warnings, statuses = 0, 0
    tests_began = False
    first, place = "", ""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if STATUS.match(line):
            statuses += 1
            if kept and kept[-1] == "" and index < len(lines) and lines[index] == "":
                index += 1  # one blank line where cargo's line stood between two
            continue
        if GENERATED.match(line):
            continue
        found = None if tests_began else WARNING.match(line)
        if not found:  # cargo prints its warnings before any test runs: a test's own line stays
            kept.append(line)
            tests_began = tests_began or line != ""
            continue
        warnings += 1
        first = first or found.group(2)
        while index < len(lines) and _inside_block(lines[index]):
            spot = PLACE.match(lines[index])
            if spot and warnings == 1 and not place:
                place = f"{spot.group(1)}:{spot.group(2)}"
            index += 1
        if index < len(lines) and lines[index] == "":  # the blank line that ends rustc's block
            index += 1
    if not warnings and not statuses:
        return None
    said = []
    if warnings:
        where = f", {place}" if place else ""
        noun = "warning" if warnings == 1 else "warnings"
        said.append(f"rustc: {warnings} {noun} (first: {_clip(first)}{where})")
    if statuses:
        said.append(f"cargo: {statuses} status {'line' if statuses == 1 else 'lines'}")
    head = f"{'; '.join(said)}; full output: {raw}"
    while kept and kept[0] == "":  # the fold's line replaces what led the output
        kept.pop(0)
    folded = "\n".join([head, *kept])
    return folded if len(folded) < len(text) else None


def _inside_block(line: str) -> bool:
    """A line of rustc's rendered diagnostic after its `warning:` head: indented (` --> `,
    ` = note:`), a code line (`6 | ...`) or a `help:`/`note:` line; a status line ends it."""
    if not line or STATUS.match(line):
        return False
    return (
        line[0] in " \t"
        or bool(CODE_LINE.match(line))
        or line.startswith(("help: ", "note: ", "help[", "note["))
    )


def _clip(message: str) -> str:
    return message if len(message) <= MESSAGE else message[: MESSAGE - 3] + "..."


def updated_output(payload: dict[str, Any], project: str) -> dict[str, Any] | None:
    """PostToolUse's replacement of a green compacted `cargo test`'s Bash output (the
    tool_response with its `stdout` folded), None for any other call; the whole output is kept
    in `.sidekit/cargo/raw-<time>-<pid>.txt`, which the folded line names."""
    tool_input = payload.get("tool_input")
    response = payload.get("tool_response")
    if payload.get("tool_name") != "Bash" or not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    if not isinstance(command, str) or MARK not in command or not isinstance(response, dict):
        return None
    stdout = response.get("stdout")
    if not isinstance(stdout, str) or response.get("interrupted"):
        return None
    from sidekit_hooks.core import workspace

    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    shown = os.path.join(workspace.STATE_DIR, "cargo", f"raw-{stamp}-{os.getpid()}.txt")
    folded = fold(stdout, shown)
    if folded is None:
        return None
    workspace.atomic_write(os.path.join(project, shown), stdout)
    return dict(response, stdout=folded)
