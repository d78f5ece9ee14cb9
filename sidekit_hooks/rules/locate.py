"""Key paths of a TOML document -> line numbers (tomllib keeps none). Standard library only.

`lines_of(text)` maps ("rules", 2, "when", "added") to the line its value starts on; `line_of` falls
back to the nearest enclosing table, so a missing key points at its [[rules]] header. The text has
already parsed with tomllib, so this scanner only needs to follow valid TOML.
"""

from __future__ import annotations

KeyPath = tuple[str | int, ...]
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def line_of(lines: dict[KeyPath, int], path: KeyPath) -> int:
    """The line of `path`, else of its nearest recorded parent; 1 when nothing is recorded."""
    for end in range(len(path), 0, -1):
        if path[:end] in lines:
            return lines[path[:end]]
    return 1


def lines_of(text: str) -> dict[KeyPath, int]:
    scanner = _Scanner(text)
    try:
        scanner.document()
    except (IndexError, ValueError):  # not the TOML we expected: keep what was found so far
        pass
    return scanner.lines


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines: dict[KeyPath, int] = {}
        self.tables: dict[KeyPath, int] = {}  # array-of-tables path -> how many seen so far

    def document(self) -> None:
        table: KeyPath = ()
        while self._skip_space(newlines=True):
            if self._peek() == "[":
                table = self._header()
            else:
                self._pair(table)

    # -- structure --

    def _header(self) -> KeyPath:
        array = self.text.startswith("[[", self.pos)
        self._advance(2 if array else 1)
        keys = self._key()
        self._advance(2 if array else 1)
        path = self._resolve(keys)
        self.lines.setdefault(path, self.line)
        if array:
            index = self.tables.get(path, 0)
            self.tables[path] = index + 1
            path = path + (index,)
            self.lines[path] = self.line
        return path

    def _resolve(self, keys: list[str]) -> KeyPath:
        """Dotted header keys -> a path through the latest element of every array of tables on the
        way."""
        path: KeyPath = ()
        for position, key in enumerate(keys):
            path = path + (key,)
            if path in self.tables and position < len(keys) - 1:
                path = path + (self.tables[path] - 1,)
        return path

    def _pair(self, table: KeyPath) -> None:
        keys = self._key()
        path = table
        for key in keys:
            path = path + (key,)
            self.lines.setdefault(path, self.line)
        self._skip_space()
        self._advance(1)  # "="
        self._skip_space()
        self._value(path)

    def _value(self, path: KeyPath) -> None:
        self.lines[path] = self.line
        char = self._peek()
        if char in "\"'":
            self._string()
        elif char == "[":
            self._advance(1)
            index = 0
            while self._skip_space(newlines=True) and self._peek() != "]":
                self._value(path + (index,))
                index += 1
                self._skip_space(newlines=True)
                if self._peek() == ",":
                    self._advance(1)
            self._advance(1)
        elif char == "{":
            self._advance(1)
            while self._skip_space() and self._peek() != "}":
                self._pair(path)
                self._skip_space()
                if self._peek() == ",":
                    self._advance(1)
            self._advance(1)
        else:
            while self.pos < len(self.text) and self.text[self.pos] not in ",]}#\n":
                self.pos += 1

    def _key(self) -> list[str]:
        keys = []
        while True:
            self._skip_space()
            char = self._peek()
            if char in "\"'":
                start = self.pos
                self._string()
                keys.append(self.text[start + 1 : self.pos - 1])
            else:
                start = self.pos
                while self.pos < len(self.text) and self.text[self.pos] in _BARE:
                    self.pos += 1
                keys.append(self.text[start : self.pos])
            self._skip_space()
            if self._peek() != ".":
                return keys
            self._advance(1)

    # -- lexing --

    def _string(self) -> None:
        quote = self.text[self.pos]
        if self.text.startswith(quote * 3, self.pos):
            end = self.text.find(quote * 3, self.pos + 3)
            while quote == '"' and self._escaped(end):
                end = self.text.find(quote * 3, end + 1)
            end += 3
            while self.text.startswith(quote, end):  # up to two quotes may close the content
                end += 1
            self._advance(end - self.pos)
            return
        end = self.text.index(quote, self.pos + 1)
        while quote == '"' and self._escaped(end):
            end = self.text.index(quote, end + 1)
        self._advance(end + 1 - self.pos)

    def _escaped(self, at: int) -> bool:
        slashes = 0
        while at - 1 - slashes >= 0 and self.text[at - 1 - slashes] == "\\":
            slashes += 1
        return slashes % 2 == 1

    def _skip_space(self, newlines: bool = False) -> bool:
        """Skip blanks (and newlines and comments when allowed); False at the end of the text."""
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char in " \t\r":
                self.pos += 1
            elif char == "#" and newlines:
                end = self.text.find("\n", self.pos)
                self.pos = len(self.text) if end < 0 else end
            elif char == "\n" and newlines:
                self.pos += 1
                self.line += 1
            else:
                return True
        return False

    def _advance(self, count: int) -> None:
        self.line += self.text.count("\n", self.pos, self.pos + count)
        self.pos += count

    def _peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""
