"""Whether the client's Bash permission rules judge two commands alike (the rewrite's precondition).

A rewrite changes the command the client judges (`updatedInput` is judged again by its rules), so it
may happen only when no rule the client applies tells the two commands apart. The rules come from
every settings layer (user, project, local, managed, a `--settings` file or JSON) and from the flags
the running client was started with (`--allowedTools`, `--disallowedTools`), read from
`/proc/<pid>/cmdline` of `$CLAUDE_PID` (set by Claude Code for hooks; checked with 2.1.328) or of the
nearest `claude` ancestor. Any source that exists but cannot be read makes the answer "unknown".

Matching is deliberately wider than the client's: every rule is tried under each plausible reading
(whole line or each simple command, with and without leading `NAME=value` words and whitespace runs,
`:*` and ` *` as "this prefix, then anything or nothing", `*` anywhere) and the two commands must agree
under every one. That makes the verdict (allow, ask, deny or no match, whatever the mode) the same for
both, whichever reading the client uses. Standard library only (hot path, pytest commands only).
"""

from __future__ import annotations

import json
import os
import re

SETTINGS_NAMES = ("settings.json", "settings.local.json")
MANAGED = "/etc/claude-code/managed-settings.json"
MANAGED_DROPINS = "/etc/claude-code/managed-settings.d"
RULE_FLAGS = ("--allowedTools", "--allowed-tools", "--disallowedTools", "--disallowed-tools")
# A client that asks an outside tool for each decision judges by rules nobody can read here.
OPAQUE_FLAGS = ("--permission-prompt-tool",)
CLIENT_NAMES = ("claude", "claude.exe", "cli.js", "cli.mjs")
MAX_ANCESTORS = 12
SHELL_OPERATORS = re.compile(r"\s*(?:&&|\|\||;|\|&|\||&)\s*")


class Unknown(Exception):
    """A source of rules exists but cannot be read: the commands cannot be judged alike."""


def judged_alike(original: str, rewritten: str, folders: list[str]) -> bool:
    """Whether every Bash rule in reach judges `original` and `rewritten` the same way.

    `folders`: project folders whose `.claude/settings*.json` may apply (the hook's project, the cwd's).
    False when any source of rules cannot be read.
    """
    try:
        rules = bash_rules(folders)
    except Unknown:
        return False
    before, after = readings(original), readings(rewritten)
    if len(before) != len(after):
        return False
    pairs = list(zip(before, after))
    for rule in rules:
        for pattern in patterns(rule):
            if any(bool(pattern.fullmatch(a)) != bool(pattern.fullmatch(b)) for a, b in pairs):
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
    paths = [os.path.join(config, "settings.json"), os.path.join(home, ".claude", "settings.json"), MANAGED]
    for root in dict.fromkeys(r for r in roots if r):
        paths.extend(os.path.join(root, ".claude", name) for name in SETTINGS_NAMES)
    try:
        dropins = sorted(os.listdir(MANAGED_DROPINS))
        paths.extend(os.path.join(MANAGED_DROPINS, name) for name in dropins if name.endswith(".json"))
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise Unknown(MANAGED_DROPINS) from exc
    return list(dict.fromkeys(paths))


def _read_settings(path: str) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise Unknown(path) from exc
    if "Bash" not in text:  # no Bash rule can be in it: skip the parse
        return None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise Unknown(path) from exc


def _settings_argument(value: str, cwd: str) -> object:
    """`--settings` takes a file or a JSON text."""
    if value.lstrip().startswith("{"):
        try:
            return json.loads(value)
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
        found.extend(content for rule in listed if isinstance(rule, str) for content in [bash_content(rule)] if content)
    return found


def bash_content(rule: str) -> str:
    """'python -m pytest:*' for 'Bash(python -m pytest:*)'; '*' for a bare 'Bash'; '' for other tools."""
    rule = rule.strip()
    if rule == "Bash":
        return "*"
    if rule.startswith("Bash(") and rule.endswith(")"):
        return rule[5:-1] or "*"
    return ""


# -- the running client ------------------------------------------------------------------------------


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
    """The Bash rule contents given with `--allowedTools` / `--disallowedTools` (either spelling)."""
    if _flag_values(argv, OPAQUE_FLAGS):
        raise Unknown("--permission-prompt-tool")
    found: list[str] = []
    for value in _flag_values(argv, RULE_FLAGS):
        found.extend(content for rule in split_rules(value) for content in [bash_content(rule)] if content)
    return found


def _flag_values(argv: list[str], flags: tuple[str, ...]) -> list[str]:
    """Values of `flags`: `--flag=V`, or every word after `--flag` up to the next option (variadic)."""
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
    """'Bash(git log:*) Edit,Read' -> three rules: split on spaces and commas outside parentheses."""
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
    """The strings a rule may be matched against: the line, and each simple command, each also without
    leading assignments and with whitespace runs collapsed. Same length for a command and its rewrite."""
    line = command.strip(" \t")
    parts = [line, *SHELL_OPERATORS.split(line)]
    out: list[str] = []
    for part in parts:
        bare = _without_assignments(part)
        out.extend([part, bare, " ".join(part.split(" ")).strip(), re.sub(r"[ \t]+", " ", bare).strip()])
    return out


def _without_assignments(part: str) -> str:
    words = part.split(" ")
    while len(words) > 1 and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
        words.pop(0)
    return " ".join(words)


_compiled: dict[str, list[re.Pattern[str]]] = {}


def patterns(content: str) -> list[re.Pattern[str]]:
    """Each reading of one rule's content as a full-match pattern."""
    if content not in _compiled:
        _compiled[content] = [re.compile(p, re.S) for p in dict.fromkeys(_pattern_texts(content))]
    return _compiled[content]


def _pattern_texts(content: str) -> list[str]:
    texts: list[str] = []
    if content.endswith(":*"):  # legacy prefix rule: the prefix, then a word boundary or anything
        prefix = content[:-2]
        texts += [_glob(prefix) + r"(?:[ \t].*)?", _glob(prefix) + ".*"]
    if content.endswith(" *"):  # `ls *` may also take a bare `ls`
        texts.append(_glob(content[:-2]) + r"(?:[ \t].*)?")
    texts.append(_glob(content))
    texts.append(_glob(content.replace("\\*", "\0")).replace("\0", r"\*"))  # `\*` as a literal star
    return texts


def _glob(text: str) -> str:
    return ".*".join(re.escape(piece) for piece in text.split("*"))
