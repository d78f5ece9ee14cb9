"""The files a shell command line writes, best effort and without `re` (hook hot path).

Recognized: redirections (`>`, `>>`, `&>`, `N>`), `tee`, `sed -i`/`perl -i`,
`rm`/`rmdir`/`unlink`/`touch`/ `mkdir`/`truncate`, `mv` (sources and destination),
`cp`/`ln`/`install` (destination), `dd of=`, and `git rm`/`git mv`, and `git restore`/`git checkout
-- f` from another commit (from the index or HEAD they undo the agent's change, which is not a
write; `git stash` neither). Quotes, escapes, `$(...)` and heredoc bodies are honoured, so a `>` or
`..` inside a string is never taken for a write. Targets holding `$`, backquotes, globs or `~` are
skipped: they cannot be resolved without running the shell, and a guess would be a false alarm. `cd
DIR` earlier on the line moves where later relative targets resolve.
"""

from __future__ import annotations

import os

from sidekit_hooks.core.shell import WRAPPERS, Word, segments

UNRESOLVABLE = frozenset("$`*?[~{")
UNDO_REFS = frozenset(
    {"HEAD", "@"}
)  # restoring a file from these puts back what it was: an undo, not a write
DELETERS = frozenset({"rm", "rmdir", "unlink", "touch", "mkdir", "truncate", "shred"})
OPTIONS_WITH_VALUE = {
    "truncate": frozenset({"-s", "--size", "-r", "--reference"}),
    "mkdir": frozenset({"-m", "--mode"}),
    "cp": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "mv": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "ln": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "install": frozenset(
        {
            "-t",
            "--target-directory",
            "-m",
            "--mode",
            "-o",
            "--owner",
            "-g",
            "--group",
            "-S",
            "--suffix",
        }
    ),
    "sed": frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length"}),
    "perl": frozenset({"-e", "-E", "-M", "-I", "-m"}),
}


def write_targets(command: str, cwd: str = "") -> list[str]:
    """Paths the command writes, each joined to the directory it resolves in (when relative)."""
    out: list[str] = []
    here = cwd
    for segment in segments(command):
        words = segment.words
        for target in segment.write_targets:
            _add(out, here, target)
        if not words:
            continue
        name = words[0].text
        if name in ("cd", "pushd") and len(words) == 2 and _resolvable(words[1].text):
            here = _join(here, words[1].text)
            continue
        for target in command_targets(words):
            _add(out, here, target)
    return out


def _add(out: list[str], here: str, target: str) -> None:
    if target and _resolvable(target) and not target.startswith("/dev/"):
        path = os.path.normpath(_join(here, target))
        if path not in out:
            out.append(path)


def _join(base: str, path: str) -> str:
    return path if os.path.isabs(path) or not base else os.path.join(base, path)


def _resolvable(text: str) -> bool:
    return not any(char in UNRESOLVABLE for char in text)


def command_targets(words: list[Word]) -> list[str]:
    """The written paths of one simple command (redirections aside)."""
    while words and (
        words[0].text in WRAPPERS
        or ("=" in words[0].text and not words[0].quoted and words[0].text[0] != "=")
    ):
        words = words[1:]
        while (
            words and words[0].text.startswith("-") and words[0].text != "-"
        ):  # e.g. `env -i`, `sudo -u x`
            words = words[1:]
    if not words:
        return []
    name = os.path.basename(words[0].text)
    args = [word.text for word in words[1:]]
    if name == "git" and args:
        return _git_targets(args)
    if name == "tee":
        return _operands(args, frozenset())
    if name in DELETERS:
        return _operands(args, OPTIONS_WITH_VALUE.get(name, frozenset()))
    if name == "mv":
        return _operands(args, OPTIONS_WITH_VALUE["mv"]) + _option_values(
            args, ("-t", "--target-directory")
        )
    if name in ("cp", "ln", "install"):
        return _destination(args, OPTIONS_WITH_VALUE[name])
    if name == "dd":
        return [arg[3:] for arg in args if arg.startswith("of=")]
    if name in ("sed", "perl"):
        return _in_place_targets(name, args)
    return []


def _git_targets(args: list[str]) -> list[str]:
    index = 0
    while index < len(args) and args[index].startswith("-"):  # git -C dir / -c k=v take a value
        index += 2 if args[index] in ("-C", "-c") else 1
    if index >= len(args):
        return []
    sub, rest = args[index], args[index + 1 :]
    if sub in ("rm", "mv"):
        return _operands(rest, frozenset())
    if sub == "restore":
        # `git restore f` (and --source HEAD) undoes the agent's change: not a write. Another source
        # is.
        attached = [arg[2:] for arg in rest if arg.startswith("-s") and len(arg) > 2]  # -sHEAD~1
        source = _option_values(rest, ("-s", "--source")) + attached
        return (
            _operands(rest, frozenset({"-s", "--source"}))
            if any(ref not in UNDO_REFS for ref in source)
            else []
        )
    if sub == "checkout" and "--" in rest:
        # `git checkout -- f` / `git checkout HEAD -- f` is an undo; `git checkout other-branch --
        # f` writes.
        refs = [arg for arg in rest[: rest.index("--")] if not arg.startswith("-")]
        return rest[rest.index("--") + 1 :] if any(ref not in UNDO_REFS for ref in refs) else []
    return []


def _operands(args: list[str], valued: frozenset[str]) -> list[str]:
    """Non-option arguments; `--` ends the options; options in `valued` consume the next
    argument."""
    out: list[str] = []
    skip = False
    options = True
    for arg in args:
        if skip:
            skip = False
            continue
        if options and arg == "--":
            options = False
            continue
        if options and arg.startswith("-") and arg != "-":
            skip = arg in valued
            continue
        out.append(arg)
    return out


def _option_values(args: list[str], names: tuple[str, ...]) -> list[str]:
    values = []
    for index, arg in enumerate(args):
        if arg in names and index + 1 < len(args):
            values.append(args[index + 1])
        for name in names:
            if name.startswith("--") and arg.startswith(name + "="):
                values.append(arg[len(name) + 1 :])
    return values


def _destination(args: list[str], valued: frozenset[str]) -> list[str]:
    explicit = _option_values(args, ("-t", "--target-directory"))
    if explicit:
        return explicit
    operands = _operands(args, valued)
    return operands[-1:] if len(operands) >= 2 else []


def _in_place_targets(name: str, args: list[str]) -> list[str]:
    """Files of `sed -i` / `perl -i`: operands after the script (the first operand unless -e/-f gave
    it)."""
    in_place = False
    script_given = False
    valued = OPTIONS_WITH_VALUE[name]
    operands: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg.startswith("--in-place"):
            in_place = True
        elif arg.startswith("--expression") or arg.startswith("--file"):
            script_given = True
            skip = "=" not in arg
        elif arg.startswith("-") and not arg.startswith("--") and len(arg) > 1:
            flags = arg[1:]
            for position, flag in enumerate(flags):
                if flag == "i":
                    in_place = True
                    break  # the rest is a backup suffix (sed -i.bak, perl -i.orig)
                if f"-{flag}" in valued:
                    script_given = script_given or flag in "eEf"
                    skip = position == len(flags) - 1  # value in the next argument unless attached
                    break
        else:
            operands.append(arg)
    if not in_place:
        return []
    return operands if script_given else operands[1:]
