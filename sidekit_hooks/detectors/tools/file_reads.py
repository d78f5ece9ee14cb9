"""`cat`/`head`/`tail`/`sed -n 'A,Bp'` of a file on its own: the Read tool."""

from __future__ import annotations

from sidekit_hooks.detectors.tools.common import RANK, SIDECAR, short
from sidekit_hooks.nudges.findings import HABIT, Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.core.shell import Segment

READ_SKIP_FLAGS = frozenset(
    {"-f", "-F", "--follow", "-c", "--bytes", "-A", "-v", "-e", "-t", "--show-all"}
)


def read_finding(words: list[str], segment: Segment) -> Finding | None:
    """`cat FILE`, `head -n 40 FILE`, `tail FILE`, `sed -n '10,40p' FILE` on their own -> the Read
    tool."""
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
        f"`{program}` of {short(files[0])}: use {how} instead; it shows line numbers and pages "
        "long files "
        "without the shell.",
        key="tools:read",
        rule_id="tools.cat-a-file",
        kind=HABIT,
        rank=RANK,
    )


def sed_print_finding(words: list[str]) -> Finding | None:
    """`sed -n '120,160p' FILE` (print a line range, edit nothing) -> Read with offset/limit."""
    args = words[1:]
    if "-n" not in args or any(
        a in ("-i", "--in-place", "-e", "-f") or a.startswith("-i") for a in args
    ):
        return None
    operands = [a for a in args if not a.startswith("-")]
    if len(operands) != 2:
        return None
    script, path = operands
    if not script.endswith("p") or not script[:-1].replace(",", "").isdigit():
        return None
    return Finding(
        SIDECAR,
        f"`sed -n {short(script)}` of {short(path)}: use the Read tool with offset/limit instead; "
        "it shows line numbers "
        "and pages long files without the shell.",
        key="tools:read",
        rule_id="tools.cat-a-file",
        kind=HABIT,
        rank=RANK,
    )
