"""Shell command lines, parsed once for every sidecar that reads them. Standard library only (hot
path).

Quotes, escapes, `$(...)`, backquotes and heredoc bodies are honoured, so a `>`, `;` or `..` inside
a string is never taken for an operator. Best effort: what cannot be judged without running the
shell is marked (`Segment.opaque`), never guessed.
"""

from __future__ import annotations

SEPARATORS = frozenset({";", "&&", "||", "|", "&", "\n", "(", ")", "|&", ";;"})
PIPES = frozenset({"|", "|&"})
WRITE_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
# Words that only wrap the real command, and runners that do so as `<runner> run CMD`.
WRAPPERS = frozenset(
    {"sudo", "time", "nice", "nohup", "command", "exec", "env", "stdbuf", "builtin"}
)
RUNNERS = frozenset({"uv", "poetry", "pipenv", "pdm", "hatch", "rye"})


class Word:
    """A shell word: its text with quotes removed, whether any part was quoted, and whether a quote
    or substitution in it never closed."""

    __slots__ = ("text", "quoted", "unclosed")

    def __init__(self, text: str, quoted: bool, unclosed: bool = False) -> None:
        self.text = text
        self.quoted = quoted
        self.unclosed = unclosed

    def __repr__(self) -> str:
        return f"Word({self.text!r})"


class Segment:
    """One simple command: its words, the files it redirects output to, and how it is connected."""

    __slots__ = ("words", "write_targets", "piped_in", "piped_out", "redirected", "opaque")

    def __init__(self, piped_in: bool = False) -> None:
        self.words: list[Word] = []
        self.write_targets: list[str] = []
        self.piped_in = piped_in
        self.piped_out = False
        self.redirected = False
        # a substitution, a variable or an unclosed quote: its meaning needs the shell
        self.opaque = False

    @property
    def texts(self) -> list[str]:
        return [word.text for word in self.words]


_parsed: dict[
    str, list[Segment]
] = {}  # one hook, one command: scope, tools and tests share the parse


def segments(command: str) -> list[Segment]:
    """The simple commands of a command line, in order (empty ones dropped). Treat as read-only."""
    if command not in _parsed:
        _parsed.clear()
        _parsed[command] = _split(command)
    return _parsed[command]


def _split(command: str) -> list[Segment]:
    out = [Segment()]
    pending = ""
    for kind, word in tokenize(command):
        current = out[-1]
        if kind == "op":
            if word.text in SEPARATORS:
                pipe = word.text in PIPES
                current.piped_out = current.piped_out or pipe
                out.append(Segment(piped_in=pipe))
                pending = ""
            else:
                current.redirected = True
                pending = word.text
            continue
        if pending:  # the word after a redirection operator is its target, not an argument
            if pending.lstrip("0123456789") in WRITE_REDIRECTS and not word.text.startswith("&"):
                current.write_targets.append(word.text)
            pending = ""
            continue
        if word.unclosed or "`" in word.text or "$" in word.text:
            current.opaque = True
        current.words.append(word)
    return [s for s in out if s.words or s.write_targets]


def core_words(words: list[str]) -> list[str]:
    """The command without env assignments, wrappers (sudo, time, `uv run`...) and a venv path
    prefix."""
    rest = list(words)
    while rest:
        head = rest[0]
        if "=" in head and not head.startswith("-") and head.split("=", 1)[0].isidentifier():
            rest.pop(0)
        elif head in WRAPPERS:
            rest.pop(0)
        elif head == "timeout" and len(rest) > 1:
            rest = rest[2:]
        elif head in RUNNERS and len(rest) > 1 and rest[1] == "run":
            rest = rest[2:]
        else:
            break
    if rest:
        rest[0] = rest[0].rsplit("/", 1)[-1]
    return rest


def tokenize(command: str) -> list[tuple[str, Word]]:
    """Shell tokens: ("word", Word) or ("op", Word). Heredoc bodies are dropped."""
    tokens: list[tuple[str, Word]] = []
    heredocs: list[
        tuple[str, bool]
    ] = []  # (delimiter, strip leading tabs) awaiting the next newline
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
    for operator in (
        "&>>",
        "<<<",
        "<<-",
        ">>",
        ">|",
        "&>",
        ">&",
        "<&",
        "<<",
        "&&",
        "||",
        "|&",
        "<>",
        ";",
        "&",
        "|",
        "<",
        ">",
        "(",
        ")",
    ):
        if rest.startswith(operator):
            return operator
    return ""


def _read_word(command: str, index: int) -> tuple[Word, int]:
    """One word from `index`: quotes removed, `$(...)` and backquotes kept verbatim."""
    out: list[str] = []
    quoted = False
    unclosed = False
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
            unclosed = unclosed or end < 0
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
            unclosed = unclosed or index >= length
            index += 1
            quoted = True
        elif char == "$" and index + 1 < length and command[index + 1] == "(":
            end = _matching_paren(command, index + 1)
            out.append(command[index:end])
            index = end
        elif char == "`":
            end = command.find("`", index + 1)
            unclosed = unclosed or end < 0
            end = length if end < 0 else end + 1
            out.append(command[index:end])
            index = end
        else:
            out.append(char)
            index += 1
    return Word("".join(out), quoted, unclosed), index


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
