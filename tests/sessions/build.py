"""Writes tests/sessions/<name>.json, the scripted sessions of the corpus (the output is committed).

    .venv/bin/python tests/sessions/build.py

Each session is what a model does on a small task in a real project: explore, read outside the task,
implement (copying a helper the project has), break a test and fix it, run the suite raw and through
sidekit, step outside the scope once. The first three are here; the five of issue #18 are in
unseen.py, the TypeScript and Go sessions of issue #34 in languages.py. Labels are not written here:
a reviewer keeps them in tests/sessions/<name>.labels.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
P = "${PROJECT}/"


def house_pack(project: str) -> str:
    """The project's house rules, as its team would keep them: packs/<project>.toml."""
    return (HERE / "packs" / f"{project}.toml").read_text(encoding="utf-8")


def read(path: str, offset: int | None = None, limit: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"file_path": P + path}
    if offset is not None:
        data["offset"] = offset
    if limit is not None:
        data["limit"] = limit
    return {"tool": "Read", "input": data}


def bash(command: str, description: str = "run") -> dict[str, Any]:
    return {"tool": "Bash", "input": {"command": command, "description": description}}


def edit(path: str, old: str, new: str) -> dict[str, Any]:
    return {"tool": "Edit", "input": {"file_path": P + path, "old_string": old, "new_string": new}}


def grep(pattern: str, path: str = "", glob: str = "") -> dict[str, Any]:
    data: dict[str, Any] = {"pattern": pattern, "output_mode": "content", "-n": True}
    if path:
        data["path"] = P + path
    if glob:
        data["glob"] = glob
    return {"tool": "Grep", "input": data}


def glob(pattern: str) -> dict[str, Any]:
    return {"tool": "Glob", "input": {"pattern": pattern}}


def label(match: str, verdict: str, why: str) -> dict[str, str]:
    return {"match": match, "label": verdict, "why": why}


# --- boltons: strutils.summarize ------------------------------------------------------------------

BOLTONS_PACK = house_pack("boltons")

JOIN_PARAGRAPHS = '''

def _join_paragraphs(text, sep='\\n\\n'):
    paragraphs = []
    current = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            current.append(line)
        else:
            paragraphs.append(' '.join(current))
            current = []
    if current:
        paragraphs.append(' '.join(current))
    return sep.join(paragraphs)


def summarize(text, max_len=80):
    """Join *text*'s wrapped lines into one paragraph and cut it to *max_len*."""
    flat = _join_paragraphs(text, sep=' ')
    return ellipsize(flat, max_len + 1)
'''

SUMMARIZE_TESTS = """


def test_summarize():
    text = "Short\\n lines\\nwrapped.\\n\\nAnother paragraph here."
    assert strutils.summarize(text, 80) == 'Short lines wrapped. Another paragraph here.'
    assert strutils.summarize(text, 20) == 'Short lines…'
"""

BOLTONS = {
    "package": "boltons==26.2.0",
    "prompt": "Add strutils.summarize(text, max_len=80): unwrap the text into one line and "
    "ellipsize it. Add tests.",
    "scope": {"issue": "BOLT-12", "allow": ["boltons/strutils.py", "tests/test_strutils.py"]},
    "files": {"sidecar_rules/boltons.toml": BOLTONS_PACK},
    "covers": {"copy": 10, "red_run": 13, "out_of_scope": 18},
    "steps": [
        bash("ls", "list the project"),
        bash("git log --oneline -3", "recent history"),
        glob("boltons/*.py"),
        grep("def ellipsize", "boltons"),
        read("boltons/strutils.py"),
        read("tests/test_strutils.py"),
        bash('grep -rn "unwrap_text" boltons tests', "who uses unwrap_text"),
        read("boltons/iterutils.py", 1, 120),
        read("boltons/formatutils.py", 1, 30),
        edit(
            "boltons/strutils.py",
            "           'human_readable_list', 'ellipsize']",
            "           'human_readable_list', 'ellipsize', 'summarize']",
        ),
        edit(
            "boltons/strutils.py",
            "    return text[:end] + ellipsis",
            "    return text[:end] + ellipsis" + JOIN_PARAGRAPHS,
        ),
        bash(
            ".venv/bin/python -c \"from boltons.strutils import summarize; print(summarize('a "
            "b\\nc', 3))\"",
            "try it",
        ),
        edit(
            "tests/test_strutils.py",
            "    assert strutils.args2cmd(['a a', 'bb'], sep='|') == '\"a a\"|bb'",
            "    assert strutils.args2cmd(['a a', 'bb'], sep='|') == '\"a a\"|bb'"
            + SUMMARIZE_TESTS,
        ),
        bash(".venv/bin/python -m pytest -q tests/test_strutils.py", "run the tests"),
        bash("sidekit test tests/test_strutils.py", "run the tests compactly"),
        bash("sidekit failures", "why it fails"),
        edit(
            "boltons/strutils.py",
            "    return ellipsize(flat, max_len + 1)",
            "    return ellipsize(flat, max_len)",
        ),
        bash("sidekit test tests/test_strutils.py", "run the tests again"),
        edit(
            "boltons/iterutils.py",
            "# Copyright (c) 2013, Mahmoud Hashemi\n",
            "# Copyright (c) 2013-2026, Mahmoud Hashemi\n",
        ),
        bash("git diff --stat", "what changed"),
        bash("git checkout -- boltons/iterutils.py", "undo the stray edit"),
        edit(
            "boltons/strutils.py",
            "    flat = _join_paragraphs(text, sep=' ')",
            "    flat = unwrap_text(text, ending=' ')",
        ),
        edit(
            "boltons/strutils.py",
            '    """Join *text*\'s wrapped lines into one paragraph and cut it to *max_len*."""',
            '    """Join *text*\'s wrapped lines into one paragraph and cut it to *max_len*.\n\n'
            "    >>> summarize('Short\\\\n lines.', 20)\n    'Short lines.'\n    \"\"\"",
        ),
        bash("sidekit test tests/test_strutils.py", "run the tests"),
        bash("tail -n 30 boltons/strutils.py", "look at the end of the file"),
        grep("summarize", "tests"),
        bash("git status --short", "status"),
        bash(".venv/bin/python -m pytest -q -x", "the whole suite"),
        bash("git diff --stat", "what changed"),
        read("boltons/strutils.py", 1330, 60),
    ],
}

# --- isodate: parse_week_date
# -----------------------------------------------------------------------

ISODATE_PACK = house_pack("isodate")

DAYS_IN_MONTH = '''

def _days_in_month(year, month):
    """How many days the month has."""
    if month in (1, 3, 5, 7, 8, 10, 12):
        return 31
    if month in (4, 6, 9, 11):
        return 30
    if ((year % 400) == 0) or ((year % 100) != 0) and ((year % 4) == 0):
        return 29
    return 28
'''  # written with the week date, never used, taken out again

WEEK_DATE = (
    "\n"
    + DAYS_IN_MONTH
    + '''

def parse_week_date(text):
    """Parse an ISO week date such as 2024-W05-3 into a date."""
    match = re.match(r"^(\\d{4})-?W(\\d{2})-?(\\d)$", text)
    if not match:
        raise ValueError("not a week date: %r" % text)
    year, week, day = (int(part) for part in match.groups())
    start = date(year, 1, 4)
    start -= timedelta(days=start.isoweekday() - 1)
    return start + timedelta(weeks=week - 1, days=day - 1)
'''
)

WEEK_TESTS = """


def test_parse_week_date():
    from isodate.isodates import parse_week_date

    assert parse_week_date("2024-W05-3") == date(2024, 1, 31)
    assert parse_week_date("2020W011") == date(2019, 12, 30)
    with pytest.raises(ISO8601Error):
        parse_week_date("2024-13-01")
"""

ISODATE = {
    "package": "isodate==0.7.2",
    "prompt": "Add isodate.isodates.parse_week_date(text) for ISO week dates like 2024-W05-3, "
    "with tests.",
    "scope": {"issue": "ISO-7", "allow": ["src/isodate/isodates.py", "tests/test_date.py"]},
    "files": {"sidecar_rules/isodate.toml": ISODATE_PACK},
    "covers": {"copy": 10, "red_run": 13, "out_of_scope": 19},
    "steps": [
        bash("ls src/isodate tests", "layout"),
        read("src/isodate/isodates.py"),
        grep("def parse_date", "src/isodate"),
        read("src/isodate/isostrf.py", 1, 60),
        read("tests/test_date.py"),
        bash("grep -rn ISO8601Error src/isodate | head -5", "how errors are raised"),
        read("src/isodate/isoerror.py"),
        read("src/isodate/duration.py"),
        glob("src/isodate/*.py"),
        edit("src/isodate/isodates.py", "DATE_REGEX_CACHE = {}", "DATE_REGEX_CACHE: dict = {}"),
        edit(
            "src/isodate/isodates.py",
            "    return strftime(tdate, format, yeardigits)",
            "    return strftime(tdate, format, yeardigits)" + WEEK_DATE,
        ),
        bash(
            '.venv/bin/python -c "from isodate.isodates import parse_week_date as p; '
            "print(p('2024-W05-3'))\"",
            "try it",
        ),
        edit(
            "tests/test_date.py",
            "        assert date_isoformat(expected, format, yeardigits) == datestring",
            "        assert date_isoformat(expected, format, yeardigits) == datestring"
            + WEEK_TESTS,
        ),
        bash(".venv/bin/python -m pytest -q tests/test_date.py", "run the tests"),
        bash("sidekit failures", "why it fails"),
        edit(
            "src/isodate/isodates.py",
            '        raise ValueError("not a week date: %r" % text)',
            '        raise ISO8601Error("Unrecognised ISO 8601 week date: %r" % text)',
        ),
        bash("sidekit test tests/test_date.py", "run the tests again"),
        edit(
            "src/isodate/isodates.py",
            DAYS_IN_MONTH,
            "",
        ),
        read("src/isodate/__init__.py"),
        edit(
            "src/isodate/__init__.py",
            "from isodate.isodates import date_isoformat, parse_date",
            "from isodate.isodates import date_isoformat, parse_date, parse_week_date",
        ),
        bash("git diff --stat", "what changed"),
        bash("cat src/isodate/__init__.py | grep week", "check the export"),
        bash("git checkout -- src/isodate/__init__.py", "keep the export out of this change"),
        bash("sidekit test", "the whole suite"),
        grep("week", "tests"),
        bash("git status --short", "status"),
        read("src/isodate/isodates.py", 200, 40),
        bash(".venv/bin/python -m pytest -q", "the whole suite, raw"),
        bash("git diff", "the change"),
    ],
}

# --- cachetools: keys.kwkey
# ------------------------------------------------------------------------

CACHETOOLS_PACK = house_pack("cachetools")

KWKEY = '''


def _sorted_key(*args, **kwargs):
    if kwargs:
        return args + _kwmark + tuple(sorted(kwargs.items()))
    else:
        return args


def kwkey(*args, **kwargs):
    """Return a cache key that ignores keyword arguments that are None."""
    kept = {name: value for name, value in kwargs.items() if value is not None}
    return _HashedTuple(_sorted_key(*args, **kept))
'''

KWKEY_TESTS = """

    def test_kwkey(self, key=cachetools.keys.kwkey):
        self.assertEqual(key(1, x=None), key(1))
        self.assertEqual(key(1, x=0), key(1, x=0))
        self.assertNotEqual(key(1, x=0), key(1))
        self.assertIs(type(key(1, x=2)), tuple)
"""

CACHETOOLS = {
    "package": "cachetools==8.0.2",
    # the plugin form (`claude --plugin-dir` this checkout); the others use `sidekit install`
    "wiring": "plugin",
    "prompt": "Add cachetools.keys.kwkey: like hashkey, but keyword arguments that are None do "
    "not count. Tests too.",
    "scope": {
        "issue": "CT-31",
        "allow": ["src/cachetools/keys.py", "src/cachetools/keys.pyi", "tests/test_keys.py"],
    },
    "files": {"sidecar_rules/cachetools.toml": CACHETOOLS_PACK},
    "covers": {"copy": 9, "red_run": 11, "out_of_scope": 19},
    "steps": [
        bash("ls src/cachetools tests", "layout"),
        read("src/cachetools/keys.py"),
        read("src/cachetools/keys.pyi"),
        read("tests/test_keys.py"),
        grep("keys.hashkey", "src"),
        read("src/cachetools/__init__.py"),
        bash("grep -rn hashkey src/cachetools", "where hashkey is used"),
        edit(
            "src/cachetools/keys.py",
            '__all__ = ("hashkey", "methodkey", "typedkey", "typedmethodkey")',
            '__all__ = ("hashkey", "kwkey", "methodkey", "typedkey", "typedmethodkey")',
        ),
        bash("sleep 2", "let the editor settle"),
        edit(
            "src/cachetools/keys.py",
            "    return key + tuple(map(type, args))\n\n\ndef typedmethodkey",
            "    return key + tuple(map(type, args))" + KWKEY + "\n\ndef typedmethodkey",
        ),
        edit(
            "tests/test_keys.py",
            "    def test_methodkey(self, key=cachetools.keys.methodkey):",
            KWKEY_TESTS.lstrip("\n")
            + "\n    def test_methodkey(self, key=cachetools.keys.methodkey):",
        ),
        bash(".venv/bin/python -m pytest -q tests/test_keys.py", "run the key tests"),
        bash("sidekit failures", "why it fails"),
        edit(
            "src/cachetools/keys.py",
            "    return _HashedTuple(_sorted_key(*args, **kept))",
            "    return _sorted_key(*args, **kept)",
        ),
        bash("sidekit test tests/test_keys.py", "run them again"),
        edit(
            "src/cachetools/keys.pyi",
            "def typedkey(*args: Hashable, **kwargs: Hashable) -> tuple[Hashable, ...]: ...",
            "def kwkey(*args: Hashable, **kwargs: Hashable | None) -> tuple[Hashable, ...]: ...\n"
            "def typedkey(*args: Hashable, **kwargs: Hashable) -> tuple[Hashable, ...]: ...",
        ),
        edit(
            "src/cachetools/keys.pyi",
            '__all__: Final = ("hashkey", "methodkey", "typedkey", "typedmethodkey")',
            '__all__: Final = ("hashkey", "kwkey", "methodkey", "typedkey", "typedmethodkey")',
        ),
        grep("hashkey", "docs"),
        read("docs/index.rst", 320, 30),
        edit(
            "docs/index.rst",
            "   default is to call :func:`cachetools.keys.hashkey`.",
            "   default is to call :func:`cachetools.keys.hashkey` (or "
            ":func:`cachetools.keys.kwkey`).",
        ),
        bash("git diff --stat", "what changed"),
        edit(
            "src/cachetools/keys.py",
            "def _sorted_key(*args, **kwargs):\n    if kwargs:\n        return args + _kwmark + "
            "tuple(sorted(kwargs.items()))\n"
            "    else:\n        return args\n\n\n",
            "",
        ),
        edit(
            "src/cachetools/keys.py",
            "    return _sorted_key(*args, **kept)",
            "    return hashkey(*args, **kept)",
        ),
        bash("sidekit test tests/test_keys.py", "run them again"),
        bash("find . -name '*.pyi'", "stubs"),
        bash("git status --short", "status"),
        bash(".venv/bin/python -m pytest -q", "the whole suite, raw"),
        bash("sidekit status", "the status"),
        bash("git diff src/cachetools/keys.py", "the change"),
    ],
}


def main() -> None:
    from languages import SESSIONS as LANGUAGES  # issue #34: a TypeScript and a Go session
    from unseen import (
        SESSIONS,
    )  # the five sessions of issue #18, on projects new to this repository

    sessions = {
        "boltons": BOLTONS,
        "isodate": ISODATE,
        "cachetools": CACHETOOLS,
        **SESSIONS,
        **LANGUAGES,
    }
    for name, session in sessions.items():
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(session, indent=1, ensure_ascii=False) + "\n")
        labels = HERE / f"{name}.labels.json"
        print(
            f"{path.name}: {len(session['steps'])} steps, "
            + ("labelled" if labels.exists() else "PENDING REVIEW")
        )


if __name__ == "__main__":
    main()
