"""Whether the client's Bash permission rules judge two commands alike (the rewrite's precondition).

A rewrite changes the command the client judges (`updatedInput` is judged again by its rules), so it
may happen only when no rule the client applies tells the two commands apart. The rules come from
every settings layer (user, project, local, managed, a `--settings` file or JSON) and from the flags
the running client was started with (`--allowedTools`, `--disallowedTools`), read from
`/proc/<pid>/cmdline` of `$CLAUDE_PID` (set by Claude Code for hooks; checked with 2.1.328) or of
the nearest `claude` ancestor. Any source that exists but cannot be read makes the answer "unknown".

Matching is deliberately wider than the client's: every rule is tried under each plausible reading
(whole line or each simple command, with and without leading `NAME=value` words and whitespace runs,
`:*` and ` *` as "this prefix, then anything or nothing", `*` anywhere) and the two commands must
agree under every one. That makes the verdict (allow, ask, deny or no match, whatever the mode) the
same for both, whichever reading the client uses. Standard library only, without `re` or `json`
(about 10 ms of a hook's start); read only once a runner has proposed a rewrite.

`rewrite_keeps_verdict` is the one judgment every rewrite passes: `runners.dispatch.pre_tool_use`,
the only place that hands the client an `updatedInput`, calls it for pytest and for every adapter
alike.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, safepath

SETTINGS_NAMES = ("settings.json", "settings.local.json")
MANAGED = "/etc/claude-code/managed-settings.json"
MAX_SETTINGS_BYTES = 4 << 20  # a settings file larger than this is unknown: no rewrite
MANAGED_DROPINS = "/etc/claude-code/managed-settings.d"
RULE_FLAGS = ("--allowedTools", "--allowed-tools", "--disallowedTools", "--disallowed-tools")
# A client that asks an outside tool for each decision judges by rules nobody can read here.
OPAQUE_FLAGS = ("--permission-prompt-tool",)
CLIENT_NAMES = ("claude", "claude.exe", "cli.js", "cli.mjs")
MAX_ANCESTORS = 12
SHELL_OPERATORS = ("&&", "||", "|&", ";", "|", "&")  # longest first


class Unknown(Exception):
    """A source of rules exists but cannot be read: the commands cannot be judged alike."""


def rewrite_keeps_verdict(original: str, rewritten: str, cwd: str, project: str) -> bool:
    """Whether the client may be handed `rewritten` in place of `original`: every Bash rule in reach
    judges both alike, the settings of the project, the working folder and each `cd DIR` the command
    goes through counted (False on any doubt)."""
    return judged_alike(original, rewritten, command_folders(original, cwd, project))


def command_folders(command: str, cwd: str, project: str) -> list[str]:
    """The project, `cwd`, and each folder a leading `cd DIR &&` moves to: where `.claude/` may hold
    rules."""
    from sidekit_hooks.core.shell import tokenize

    folders = [project, cwd]
    segment: list[str] = []
    for kind, word in tokenize(command):
        if kind == "word":
            segment.append(word.text)
            continue
        if word.text != "&&" or len(segment) != 2 or segment[0] != "cd":
            break
        if segment[1] != "-":
            cwd = os.path.normpath(os.path.join(cwd, os.path.expanduser(segment[1])))
            folders.append(cwd)
        segment = []
    return list(dict.fromkeys(folder for folder in folders if folder))


def judged_alike(original: str, rewritten: str, folders: list[str]) -> bool:
    """Whether every Bash rule in reach judges `original` and `rewritten` the same way.

    `folders`: project folders whose `.claude/settings*.json` may apply (the hook's project, the
    cwd's). False when any source of rules cannot be read.
    """
    try:
        rules = bash_rules(folders)
    except Unknown:
        return False
    before, after = readings(original), readings(rewritten)
    if len(before) != len(after):
        return False
    pairs = list(zip(before, after, strict=False))
    for rule in rules:
        for reading in rule_readings(rule):
            if any(reading.matches(a) != reading.matches(b) for a, b in pairs):
                return False
    return True


# -- where the rules are --------------------------------------------------------------------------


def bash_rules(folders: list[str]) -> list[str]:
    """The contents of every `Bash(...)` rule (allow, ask and deny alike) from every source."""
    client = client_argv()
    found: list[str] = []
    for path in settings_paths(folders, client):
        found.extend(_rules_in(_read_settings(path)))
    if client:
        found.extend(flag_rules(client))
        for value in _flag_values(client, ("--settings",)):
            found.extend(_rules_in(_settings_argument(value, _client_cwd())))
    return found


def settings_paths(folders: list[str], client: list[str]) -> list[str]:
    home = os.path.expanduser("~")
    config = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    roots = [*folders, os.environ.get("CLAUDE_PROJECT_DIR", ""), _client_cwd() if client else ""]
    paths = [
        os.path.join(config, "settings.json"),
        os.path.join(home, ".claude", "settings.json"),
        MANAGED,
    ]
    for root in dict.fromkeys(r for r in roots if r):
        paths.extend(os.path.join(root, ".claude", name) for name in SETTINGS_NAMES)
    try:
        dropins = sorted(os.listdir(MANAGED_DROPINS))
        paths.extend(
            os.path.join(MANAGED_DROPINS, name) for name in dropins if name.endswith(".json")
        )
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise Unknown(MANAGED_DROPINS) from exc
    return list(dict.fromkeys(paths))


def _read_settings(path: str) -> object:
    try:  # links followed (dotfiles), but a regular file only, never blocking, bounded
        text = safepath.read_regular(path, MAX_SETTINGS_BYTES).decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise Unknown(path) from exc
    if "Bash" not in text:  # no Bash rule can be in it: skip the parse
        return None
    try:
        return fastjson.loads(text)
    except ValueError as exc:
        raise Unknown(path) from exc


def _settings_argument(value: str, cwd: str) -> object:
    """`--settings` takes a file or a JSON text."""
    if value.lstrip().startswith("{"):
        try:
            return fastjson.loads(value)
        except ValueError as exc:
            raise Unknown("--settings") from exc
    path = os.path.join(cwd, os.path.expanduser(value))
    if not os.path.exists(path):
        raise Unknown(path)  # the client would have refused to start; do not guess
    return _read_settings(path)


def _rules_in(settings: object) -> list[str]:
    if settings is None:
        return []
    permissions = settings.get("permissions") if isinstance(settings, dict) else None
    if permissions is None:
        return []
    if not isinstance(permissions, dict):
        raise Unknown("permissions")
    found: list[str] = []
    for kind in ("allow", "deny", "ask"):
        listed = permissions.get(kind) or []
        if not isinstance(listed, list):
            raise Unknown(kind)
        found.extend(
            content
            for rule in listed
            if isinstance(rule, str)
            for content in [bash_content(rule)]
            if content
        )
    return found


def bash_content(rule: str) -> str:
    """'python -m pytest:*' for 'Bash(python -m pytest:*)'; '*' for a bare 'Bash'; '' for other
    tools."""
    rule = rule.strip()
    if rule == "Bash":
        return "*"
    if rule.startswith("Bash(") and rule.endswith(")"):
        return rule[5:-1] or "*"
    return ""


# -- the running client
# ------------------------------------------------------------------------------


def client_argv() -> list[str]:
    """The argv of the Claude Code process that started this hook ([] when none runs it).

    Raises Unknown when a client runs it but its arguments cannot be read.
    """
    under_client = bool(os.environ.get("CLAUDECODE") or os.environ.get("CLAUDE_PID"))
    named = os.environ.get("CLAUDE_PID", "")
    if named.isdigit():
        argv = _cmdline(int(named))
        if argv is not None and _is_client(argv):
            return argv
    if not os.path.isdir("/proc/self"):
        if under_client:
            raise Unknown("/proc")
        return []
    pid = os.getppid()
    for _ in range(MAX_ANCESTORS):
        if pid <= 1:
            break
        argv = _cmdline(pid)
        if argv is None:
            raise Unknown(f"/proc/{pid}")
        if _is_client(argv):
            return argv
        pid = _parent_of(pid)
    if under_client:
        raise Unknown("client process")
    return []


def _cmdline(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read()
    except OSError:
        return None
    return [part.decode("utf-8", "surrogateescape") for part in raw.split(b"\0")[:-1]]


def _parent_of(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            return int(handle.read().rpartition(")")[2].split()[1])
    except (OSError, ValueError, IndexError) as exc:
        raise Unknown(f"/proc/{pid}/stat") from exc


def _is_client(argv: list[str]) -> bool:
    return any(os.path.basename(word) in CLIENT_NAMES for word in argv[:2])


def _client_cwd() -> str:
    named = os.environ.get("CLAUDE_PID", "")
    try:
        return os.readlink(f"/proc/{named}/cwd") if named.isdigit() else os.getcwd()
    except OSError:
        return os.getcwd()


def flag_rules(argv: list[str]) -> list[str]:
    """The Bash rule contents given with `--allowedTools` / `--disallowedTools` (either
    spelling)."""
    if _flag_values(argv, OPAQUE_FLAGS):
        raise Unknown("--permission-prompt-tool")
    found: list[str] = []
    for value in _flag_values(argv, RULE_FLAGS):
        found.extend(
            content for rule in split_rules(value) for content in [bash_content(rule)] if content
        )
    return found


def _flag_values(argv: list[str], flags: tuple[str, ...]) -> list[str]:
    """Values of `flags`: `--flag=V`, or every word after `--flag` up to the next option
    (variadic)."""
    values: list[str] = []
    taking = False
    for word in argv[1:]:
        if word.startswith("-"):
            taking = False
            name, eq, value = word.partition("=")
            if name in flags:
                if eq:
                    values.append(value)
                else:
                    taking = True
            continue
        if taking:
            values.append(word)
    return values


def split_rules(value: str) -> list[str]:
    """'Bash(git log:*) Edit,Read' -> three rules: split on spaces and commas outside
    parentheses."""
    rules: list[str] = []
    depth = 0
    current = ""
    for char in value:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        if depth == 0 and (char.isspace() or char == ","):
            if current:
                rules.append(current)
            current = ""
            continue
        current += char
    if current:
        rules.append(current)
    return rules


# -- matching --------------------------------------------------------------------------------------


def readings(command: str) -> list[str]:
    """The strings a rule may be matched against: the line, and each simple command, each also
    without leading assignments and with blank runs collapsed. Same length for a command and its
    rewrite."""
    line = command.strip(" \t")
    out: list[str] = []
    for part in [line, *split_simple(line)]:
        bare = _without_assignments(part)
        out.extend([part, bare, " ".join(part.split()), " ".join(bare.split())])
    return out


def split_simple(line: str) -> list[str]:
    """`a && b | c` -> ['a', 'b', 'c'] (operators inside quotes split too: both commands alike)."""
    parts: list[str] = []
    start = index = 0
    while index < len(line):
        operator = next((op for op in SHELL_OPERATORS if line.startswith(op, index)), "")
        if operator:
            parts.append(line[start:index].strip(" \t"))
            index += len(operator)
            start = index
        else:
            index += 1
    parts.append(line[start:].strip(" \t"))
    return parts


def _without_assignments(part: str) -> str:
    words = part.split(" ")
    while len(words) > 1 and "=" in words[0] and words[0].partition("=")[0].isidentifier():
        words.pop(0)
    return " ".join(words)


class Glob:
    """A rule's text as a full-match pattern: `*` is any run of characters; `tail_blank` lets a
    prefix end the string or go on after a blank (`ls *` taking a bare `ls`, `git log:*`)."""

    __slots__ = ("pieces", "tail_blank")

    def __init__(self, pieces: list[str], tail_blank: bool = False) -> None:
        self.pieces = pieces
        self.tail_blank = tail_blank

    def matches(self, text: str) -> bool:
        if not self.tail_blank:
            return _full(self.pieces, text)
        cut = [i for i, char in enumerate(text) if char in " \t"]
        return _full(self.pieces, text) or any(_full(self.pieces, text[:i]) for i in cut)


def _full(pieces: list[str], text: str) -> bool:
    """Whether `text` is pieces[0] + anything + pieces[1] + ... + anything + pieces[-1]."""
    if len(pieces) == 1:
        return text == pieces[0]
    first, last = pieces[0], pieces[-1]
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return False
    position, end = len(first), len(text) - len(last)
    for piece in pieces[1:-1]:
        found = text.find(piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return True


_compiled: dict[str, list[Glob]] = {}


def rule_readings(content: str) -> list[Glob]:
    """Each reading of one rule's content."""
    if content not in _compiled:
        globs = [Glob(content.split("*")), Glob(_escaped_pieces(content))]
        if content.endswith(
            ":*"
        ):  # legacy prefix rule: the prefix, then a blank and anything, or anything
            globs += [
                Glob(content[:-2].split("*"), tail_blank=True),
                Glob(content[:-2].split("*") + [""]),
            ]
        if content.endswith(" *"):  # `ls *` may also take a bare `ls`
            globs.append(Glob(content[:-2].split("*"), tail_blank=True))
        _compiled[content] = globs
    return _compiled[content]


def _escaped_pieces(content: str) -> list[str]:
    """`\\*` read as a literal star: the pieces between unescaped stars."""
    pieces = [""]
    index = 0
    while index < len(content):
        if content.startswith("\\*", index):
            pieces[-1] += "*"
            index += 2
            continue
        if content[index] == "*":
            pieces.append("")
        else:
            pieces[-1] += content[index]
        index += 1
    return pieces
