"""The files a shell command line writes, best effort and without `re` (hook hot path).

Recognized: redirections (`>`, `>>`, `&>`, `N>`), `tee`, `sed -i`/`perl -i`, `rm`/`rmdir`/`unlink`/`touch`/
`mkdir`/`truncate`, `mv` (sources and destination), `cp`/`ln`/`install` (destination), `dd of=`, and
`git rm`/`git mv`/`git restore`. Quotes, escapes, `$(...)` and heredoc bodies are honoured, so a `>` or
`..` inside a string is never taken for a write. Targets holding `$`, backquotes, globs or `~` are
skipped: they cannot be resolved without running the shell, and a guess would be a false alarm.
`cd DIR` earlier on the line moves where later relative targets resolve.
"""

from __future__ import annotations

import os

SEPARATORS = frozenset({";", "&&", "||", "|", "&", "\n", "(", ")", "|&"})
WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
UNRESOLVABLE = frozenset("$`*?[~{")
WRAPPERS = frozenset({"sudo", "command", "nohup", "time", "env", "exec", "builtin"})
DELETERS = frozenset({"rm", "rmdir", "unlink", "touch", "mkdir", "truncate", "shred"})
OPTIONS_WITH_VALUE = {
    "truncate": frozenset({"-s", "--size", "-r", "--reference"}),
    "mkdir": frozenset({"-m", "--mode"}),
    "cp": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "mv": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "ln": frozenset({"-t", "--target-directory", "-S", "--suffix"}),
    "install": frozenset({"-t", "--target-directory", "-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix"}),
    "sed": frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length"}),
    "perl": frozenset({"-e", "-E", "-M", "-I", "-m"}),
}


class Word:
    """A shell word: its text with quotes removed, and whether any part of it was quoted."""

    __slots__ = ("text", "quoted")

    def __init__(self, text: str, quoted: bool) -> None:
        self.text = text
        self.quoted = quoted

    def __repr__(self) -> str:
        return f"Word({self.text!r})"


def write_targets(command: str, cwd: str = "") -> list[str]:
    """Paths the command writes, each joined to the directory it resolves in (when relative)."""
    out: list[str] = []
    here = cwd
    for words, redirects in simple_commands(tokenize(command)):
        for target in redirects:
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
    while words and (words[0].text in WRAPPERS or ("=" in words[0].text and not words[0].quoted and words[0].text[0] != "=")):
        words = words[1:]
        while words and words[0].text.startswith("-") and words[0].text != "-":  # e.g. `env -i`, `sudo -u x`
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
        return _operands(args, OPTIONS_WITH_VALUE["mv"]) + _option_values(args, ("-t", "--target-directory"))
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
        return _operands(rest, frozenset({"-s", "--source"}))
    if sub == "checkout" and "--" in rest:
        return rest[rest.index("--") + 1 :]
    return []


def _operands(args: list[str], valued: frozenset[str]) -> list[str]:
    """Non-option arguments; `--` ends the options; options in `valued` consume the next argument."""
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
    """Files of `sed -i` / `perl -i`: operands after the script (the first operand unless -e/-f gave it)."""
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


def simple_commands(tokens: list[tuple[str, Word]]) -> list[tuple[list[Word], list[str]]]:
    """Split tokens into simple commands: (words, write-redirection targets)."""
    commands: list[tuple[list[Word], list[str]]] = []
    words: list[Word] = []
    targets: list[str] = []
    pending = ""
    for kind, word in tokens:
        if kind == "op":
            if word.text in SEPARATORS:
                commands.append((words, targets))
                words, targets, pending = [], [], ""
            else:
                pending = word.text
            continue
        if pending:
            if pending.lstrip("0123456789") in WRITE_REDIRECTS and not word.text.startswith("&"):
                targets.append(word.text)
            pending = ""
            continue
        words.append(word)
    commands.append((words, targets))
    return commands


def tokenize(command: str) -> list[tuple[str, Word]]:
    """Shell tokens: ("word", Word) or ("op", Word). Heredoc bodies are dropped."""
    tokens: list[tuple[str, Word]] = []
    heredocs: list[tuple[str, bool]] = []  # (delimiter, strip leading tabs) awaiting the next newline
    index = 0
    length = len(command)
    while index < length:
        char = command[index]
        if char == "\n":
            tokens.append(("op", Word("\n", False)))
            index += 1
            if heredocs:
                index = _skip_heredocs(command, index, heredocs)
                heredocs = []
            continue
        if char in " \t":
            index += 1
            continue
        if char == "#" and (not tokens or tokens[-1][0] == "op" or command[index - 1] in " \t"):
            while index < length and command[index] != "\n":
                index += 1
            continue
        operator = _operator_at(command, index)
        if operator:
            index += len(operator)
            if operator in ("<<", "<<-"):
                word, index = _read_word(command, _skip_blanks(command, index))
                heredocs.append((word.text, operator == "<<-"))
                continue
            tokens.append(("op", Word(operator, False)))
            continue
        word, index = _read_word(command, index)
        tokens.append(("word", word))
    return tokens


def _skip_blanks(command: str, index: int) -> int:
    while index < len(command) and command[index] in " \t":
        index += 1
    return index


def _skip_heredocs(command: str, index: int, heredocs: list[tuple[str, bool]]) -> int:
    for delimiter, strip_tabs in heredocs:
        while index < len(command):
            end = command.find("\n", index)
            line = command[index:] if end < 0 else command[index:end]
            index = len(command) if end < 0 else end + 1
            if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                break
    return index


def _operator_at(command: str, index: int) -> str:
    """The operator starting at `index` ("" for none). `2>`, `&>` and `>&` are redirections."""
    rest = command[index : index + 3]
    digits = 0
    while index + digits < len(command) and command[index + digits].isdigit():
        digits += 1
    if digits and index + digits < len(command) and command[index + digits] in "<>":
        # `2>file`, `1>>log`: only when the digits start a word
        if index == 0 or command[index - 1] in " \t;&|()\n":
            tail = _operator_at(command, index + digits)
            return command[index : index + digits] + tail if tail else ""
        return ""
    for operator in ("&>>", "<<<", "<<-", ">>", ">|", "&>", ">&", "<&", "<<", "&&", "||", "|&", "<>", ";", "&", "|", "<", ">", "(", ")"):
        if rest.startswith(operator):
            return operator
    return ""


def _read_word(command: str, index: int) -> tuple[Word, int]:
    """One word from `index`: quotes removed, `$(...)` and backquotes kept verbatim."""
    out: list[str] = []
    quoted = False
    length = len(command)
    while index < length:
        char = command[index]
        if char in " \t\n;&|<>()":
            break
        if char == "\\" and index + 1 < length:
            out.append(command[index + 1])
            index += 2
            quoted = True
        elif char == "'":
            end = command.find("'", index + 1)
            end = length if end < 0 else end
            out.append(command[index + 1 : end])
            index = end + 1
            quoted = True
        elif char == '"':
            index += 1
            while index < length and command[index] != '"':
                if command[index] == "\\" and index + 1 < length and command[index + 1] in '"\\$`':
                    index += 1
                out.append(command[index])
                index += 1
            index += 1
            quoted = True
        elif char == "$" and index + 1 < length and command[index + 1] == "(":
            end = _matching_paren(command, index + 1)
            out.append(command[index:end])
            index = end
        elif char == "`":
            end = command.find("`", index + 1)
            end = length if end < 0 else end + 1
            out.append(command[index:end])
            index = end
        else:
            out.append(char)
            index += 1
    return Word("".join(out), quoted), index


def _matching_paren(command: str, open_index: int) -> int:
    depth = 0
    index = open_index
    while index < len(command):
        char = command[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        elif char in "'\"":
            end = command.find(char, index + 1)
            index = len(command) - 1 if end < 0 else end
        index += 1
    return len(command)
