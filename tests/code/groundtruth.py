"""The grep-and-read ground truth the code index is measured against
(tests/code/test_languages_real_projects.py).

Written apart from the index, with nothing from tree-sitter: a small lexer of its own blanks out the
comments and the string literals of a C-family source (TypeScript, JavaScript, Go, Rust, Java),
keeping every line break, so a word-boundary search for a name finds it only in code. Template
literals keep their `${...}` code; Rust's lifetimes are not character literals; Rust block comments
nest; a JS regex literal is told from a division by what precedes it. Then:

- the definitions: declarations a regex recognises at the top level of a file (and, in Java, members
  one indent deep), e.g. `export function NAME`, `func (r *T) NAME`, `pub fn NAME`, `public static
  int NAME(`;
- the references of a name: every line where the name appears in code, less the lines that declare
  it (the same regexes, at any depth) - a use is a line, as `sidekit usages` counts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {""}
REGEX_KEYWORDS = {
    "return",
    "typeof",
    "case",
    "do",
    "else",
    "in",
    "of",
    "void",
    "yield",
    "await",
    "throw",
    "new",
    "delete",
}


def strip(source: str, language: str) -> str:
    """The source with comments and string literals replaced by spaces (line breaks kept)."""
    out: list[str] = []
    i, n = 0, len(source)
    braces: list[int] = []  # open `${` depths of template literals (TS/JS)
    depth = 0
    last = ""  # the last significant character or word of code, for the regex-or-division question

    def blank(start: int, end: int) -> None:
        out.append("".join("\n" if c == "\n" else " " for c in source[start:end]))

    while i < n:
        c = source[i]
        two = source[i : i + 2]
        if two == "//":
            end = source.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
            continue
        if two == "/*":
            end = _block_comment_end(source, i, nested=language == "rust")
            blank(i, end)
            i = end
            continue
        if language in ("ts", "js"):
            if c == "`" or (c == "}" and braces and braces[-1] == depth):
                if c == "}":
                    braces.pop()
                    depth -= 1
                end, opens = _template_part(source, i + 1)
                blank(i, end)
                i = end
                if opens:
                    depth += 1
                    braces.append(depth)
                last = "`"
                continue
            if c == "/" and (last in REGEX_BEFORE or last in REGEX_KEYWORDS):
                end = _regex_end(source, i)
                if end > 0:
                    blank(i, end)
                    i = end
                    last = "/"
                    continue
        if c == '"' and source[i : i + 3] == '"""' and language == "java":
            end = source.find('"""', i + 3)
            end = n if end < 0 else end + 3
            blank(i, end)
            i = end
            last = '"'
            continue
        if (
            language == "rust"
            and c == "r"
            and re.match(r'r#*"', source[i:])
            and not _word_char(source, i - 1)
        ):
            hashes = len(re.match(r"r(#*)", source[i:]).group(1))  # type: ignore[union-attr]
            close = '"' + "#" * hashes
            end = source.find(close, i + 2 + hashes)
            end = n if end < 0 else end + len(close)
            blank(i, end)
            i = end
            last = '"'
            continue
        if c == '"' or (c == "'" and language in ("ts", "js")) or (c == "`" and language == "go"):
            end = _quoted_end(source, i, c, raw=c == "`")
            blank(i, end)
            i = end
            last = '"'
            continue
        if c == "'" and language in ("go", "rust", "java"):
            end = _char_end(source, i)
            if end > 0:
                blank(i, end)
                i = end
                last = "'"
                continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if not c.isspace():
            if _word_char(source, i):
                word = re.match(r"[\w$]+", source[i:]).group(0)  # type: ignore[union-attr]
                out.append(word)
                i += len(word)
                last = word
                continue
            last = c
        out.append(c)
        i += 1
    return "".join(out)


def _word_char(source: str, i: int) -> bool:
    return 0 <= i < len(source) and (source[i].isalnum() or source[i] in "_$")


def _block_comment_end(source: str, i: int, nested: bool) -> int:
    level, j = 0, i
    while j < len(source):
        if source.startswith("/*", j):
            level = level + 1 if nested or level == 0 else level
            j += 2
        elif source.startswith("*/", j):
            level -= 1
            j += 2
            if level == 0:
                return j
        else:
            j += 1
    return len(source)


def _quoted_end(source: str, i: int, quote: str, raw: bool) -> int:
    j = i + 1
    while j < len(source):
        if source[j] == "\\" and not raw:
            j += 2
            continue
        if source[j] == quote or (source[j] == "\n" and quote != "`" and quote != '"'):
            return j + 1
        j += 1
    return len(source)


def _char_end(source: str, i: int) -> int:
    """A character literal `'a'`, `'\\n'`, `'\\u{1F600}'`; 0 for a Rust lifetime `'a` (not a
    literal)."""
    match = re.match(
        r"'(\\u\{[0-9a-fA-F]+\}|\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'", source[i:]
    )
    return i + len(match.group(0)) if match else 0


def _template_part(source: str, j: int) -> tuple[int, bool]:
    """From inside a template literal to its end (True: it stopped at a `${`, whose code
    follows)."""
    while j < len(source):
        if source[j] == "\\":
            j += 2
            continue
        if source[j] == "`":
            return j + 1, False
        if source.startswith("${", j):
            return j + 2, True
        j += 1
    return len(source), False


def _regex_end(source: str, i: int) -> int:
    """The end of a regex literal starting at `i`, or 0 when the line holds none (a division)."""
    j, in_class = i + 1, False
    while j < len(source) and source[j] != "\n":
        c = source[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < len(source) and source[j].isalpha():
                j += 1
            return j
        j += 1
    return 0


# --- declarations
# ------------------------------------------------------------------------------------

MODIFIERS = r"(?:(?:export|default|declare|abstract|async|public|private|protected|static|readonly|override|pub(?:\([\w:]+\))?|unsafe|const|extern|final|synchronized|native|transient|volatile|strictfp|sealed|non-sealed)\s+)*"
JAVA_NOT_TYPES = {"return", "new", "throw", "else", "case", "yield", "assert", "throws"}
JAVA_KEYWORDS = JAVA_NOT_TYPES | {
    "if",
    "for",
    "while",
    "switch",
    "catch",
    "synchronized",
    "do",
    "try",
    "super",
    "this",
}


def declaration_patterns(language: str, name: str) -> list[re.Pattern[str]]:
    """Regexes matching a line that declares `name` (anywhere in the file)."""
    n = re.escape(name)
    b = r"(?<![\w$])"
    e = r"(?![\w$])"
    if language in ("ts", "js"):
        return [
            re.compile(
                rf"{b}(?:function\*?|class|interface|type|enum|namespace|module|const|let|var)\s+{n}{e}"
            ),
            re.compile(rf"{b}as\s+{n}{e}"),  # an import's or export's alias binds the name
            # a parameter in a one-line list: `(a, NAME?: T` (a line-start `NAME: T` may be an
            # object's key)
            re.compile(
                rf"\((?:[^()]*,)?\s*(?:(?:public|private|protected|readonly)\s+)*{n}\??\s*:"
            ),
            re.compile(
                rf"^\s*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set|declare)\s+)*\*?{n}\??\s*(?:<[^()]*>)?\(.*\)\s*(?::.*)?[{{;]?\s*$"
            ),
            re.compile(
                rf"^\s*(?:(?:public|private|protected|static|readonly|declare|override)\s+)+{n}\??\s*[:=;]"
            ),
        ]
    if language == "go":
        return [
            re.compile(rf"{b}(?:func|type|const|var)\s+{n}{e}"),
            re.compile(rf"{b}func\s*\([^)]*\)\s*{n}{e}"),
        ]
    if language == "rust":
        return [
            re.compile(
                rf"{b}(?:fn|struct|enum|trait|type|const|static|mod|union|macro_rules!)\s+{n}{e}"
            ),
            re.compile(rf"{b}let\s+(?:mut\s+)?{n}{e}"),
            re.compile(rf"^\s*(?:pub\s+)?use\b.*{b}as\s+{n}{e}"),  # `use a::b as NAME`
        ]
    return [
        re.compile(rf"{b}(?:class|interface|enum|record|@interface)\s+{n}{e}"),
        re.compile(
            rf"^\s*(?:@\w+(?:\([^)]*\))?\s+)*{MODIFIERS}(?:<[^;=()]+>\s+)?(?P<type>[\w$.<>\[\]?, "
            rf"]+?)\s+{n}\s*(?:\(|=|;|,)"
        ),
        re.compile(
            rf"^\s*(?:(?:public|private|protected)\s+)?{n}\s*\([^;]*\)\s*(?:throws [\w., "
            rf"]+)?\s*\{{?\s*$"
        ),
        # a parameter: `(final Type<X> NAME,` or `String... NAME)`
        re.compile(
            rf"[(,]\s*(?:final\s+)?(?:@\w+\s+)*[\w$][\w$.<>\[\]?]*(?:\.\.\.)?\s+{n}\s*(?:[,)]|$)"
        ),
    ]


def declares(language: str, name: str, line: str) -> bool:
    for pattern in declaration_patterns(language, name):
        match = pattern.search(line)
        if match and not (
            language == "java"
            and match.groupdict().get("type", "").split(" ")[-1] in JAVA_NOT_TYPES
        ):
            return True
    return False


TOP_LEVEL = {
    "ts": re.compile(
        r"^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|const|let)\s+([A-Za-z_$][\w$]*)"
    ),
    "go": re.compile(r"^(?:func(?:\s*\([^)]*\))?|type|const|var)\s+([A-Za-z_]\w*)"),
    "rust": re.compile(
        r"^(?:pub(?:\([\w:]+\))?\s+)?(?:unsafe\s+)?(?:const\s+)?(?:fn|struct|enum|trait|type|const|static|union)\s+([A-Za-z_]\w*)"
    ),
    "java": re.compile(
        r"^(?:\s{0,4}|\t?)(?:@\w+\s+)*"
        + MODIFIERS
        + r"(?:class|interface|enum|record|@interface)\s+([A-Za-z_$][\w$]*)"
    ),
}
TOP_LEVEL["js"] = TOP_LEVEL["ts"]
JAVA_MEMBER = re.compile(
    r"^(?P<indent>\s+)(?:@\w+\s+)*"
    + MODIFIERS
    + r"(?:<[^;=()]+>\s+)?([\w$][\w$.<>\[\]?, ]*?)\s+([A-Za-z_$][\w$]*)\s*\("
)


def indent_unit(code: str) -> str:
    """The file's first indent (two spaces, four, a tab): a class member sits exactly one unit
    deep."""
    for text in code.split("\n"):
        stripped = text.lstrip()
        if stripped and text != stripped:
            return text[: len(text) - len(stripped)]
    return "    "


def definitions(language: str, files: dict[str, str]) -> list[tuple[str, str, int]]:
    """(name, path, line) of every top-level declaration (Java: classes and their methods) in
    stripped code."""
    found = []
    for path, code in sorted(files.items()):
        unit = indent_unit(code)
        for number, text in enumerate(code.split("\n"), 1):
            match = TOP_LEVEL[language].match(text)
            if match:
                found.append((match.group(1), path, number))
            elif language == "java":
                member = JAVA_MEMBER.match(text)
                if (
                    member
                    and member.group("indent") == unit
                    and member.group(2).split(" ")[-1] not in JAVA_KEYWORDS
                    and member.group(3) not in JAVA_KEYWORDS
                ):
                    found.append((member.group(3), path, number))
    return found


TYPE_BODY = re.compile(r"(?<![\w$])(?:interface\s+[\w$]+[^{]*|type\s+[\w$]+(?:<[^=]*>)?\s*=\s*)\{")


def member_lines(code: str) -> set[int]:
    """Lines directly inside a TypeScript `interface X {` or `type X = {` body: a `name: T` or
    `name(): T` there declares a member (as a Java field does), where elsewhere it is an object's
    key."""
    lines: set[int] = set()
    number, depth, bodies = 1, 0, []  # depths at which a type body opened
    i = 0
    while i < len(code):
        match = TYPE_BODY.match(code, i) if code[i] in "it" else None
        if match and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_$")):
            number += code.count("\n", i, match.end())
            depth += 1
            bodies.append(depth)
            i = match.end()
            continue
        c = code[i]
        if c == "\n":
            number += 1
            if bodies and bodies[-1] == depth:
                lines.add(number)
        elif c == "{":
            depth += 1
        elif c == "}":
            if bodies and bodies[-1] == depth:
                bodies.pop()
            depth -= 1
        i += 1
    return lines


def references(language: str, files: dict[str, str], name: str) -> set[tuple[str, int]]:
    """(path, line) of every line using `name` in code: a word match that is not a declaration of
    it."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    member = re.compile(rf"^\s*(?:readonly\s+)?{re.escape(name)}\??\s*[:(<]")
    found = set()
    for path, code in files.items():
        if name not in code:
            continue
        members = member_lines(code) if language == "ts" else set()
        for number, text in enumerate(code.split("\n"), 1):
            if number in members and member.match(text):
                continue
            if word.search(text) and not declares(language, name, text):
                found.add((path, number))
    return found


def stripped(language: str, sources: Iterable[tuple[str, bytes]]) -> dict[str, str]:
    return {path: strip(data.decode("utf-8", "replace"), language) for path, data in sources}
