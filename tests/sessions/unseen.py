"""The five sessions of issue #18 on projects this repository had never used (written by build.py).

Each is a small task a model would be given in that project, played at a model's pace, and each
carries the corpus' three cases at the steps its `covers` names:
- copy: a new private helper that re-implements one the project already has, renamed and
  restructured (branches swapped, a ternary for an `if`, a temporary inlined);
- red_run: a raw `python -m pytest -q` through Bash after an edit that breaks something (then a fix
  and a green run);
- out_of_scope: an edit of a file the scope set at the start leaves out.

No labels here: a reviewer who did not write these sessions labels them in
tests/sessions/<name>.labels.json.
"""

from __future__ import annotations

from typing import Any

from build import bash, edit, glob, grep, read

P = "${PROJECT}/"


def write(path: str, content: str) -> dict[str, Any]:
    return {"tool": "Write", "input": {"file_path": P + path, "content": content}}


# --- humanize (number formatting): number.percentage, settings form, /compact after call 17
# -----------------

HUMANIZE_NOT_FINITE_END = """    if math.isinf(value) and value > 0:
        return "+Inf"
    return ""
"""

PERCENTAGE = '''

def _non_finite_label(number: float) -> str:
    """Text for a number that is not finite."""
    import math

    if not math.isinf(number):
        return "NaN" if math.isnan(number) else ""
    return "+Inf" if number > 0 else "-Inf"


def percentage(value: NumberOrString, ndigits: int = 1) -> str:
    """Formats a ratio as a percentage.

    Examples:
        ```pycon
        >>> percentage(0.256)
        '25.6%'
        >>> percentage(1)
        '100.0%'
        >>> percentage(0.5, 0)
        '50%'
        >>> percentage("not a number")
        'not a number'

        ```

    Args:
        value (int, float, str): The ratio, 1 being 100%.
        ndigits (int): Digits after the decimal point.

    Returns:
        str: The percentage, or str(value) when it is not a number.
    """
    import math

    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if not math.isfinite(number):
        return _non_finite_label(number)
    return f"{number:.{ndigits}f}%"
'''

PERCENTAGE_TESTS = """

@pytest.mark.parametrize(
    ("test_args", "expected"),
    [
        ([0.256], "25.6%"),
        ([1], "100.0%"),
        ([0.5, 0], "50%"),
        (["0.125", 2], "12.50%"),
        (["text"], "text"),
        ([math.inf], "+Inf"),
    ],
    ids=str,
)
def test_percentage(test_args: list[typing.Any], expected: str) -> None:
    assert humanize.percentage(*test_args) == expected
"""

METRIC_TEST = """def test_metric(test_args: list[typing.Any], expected: str) -> None:
    assert humanize.metric(*test_args) == expected
"""

README_SCIENTIFIC_END = ">>> humanize.scientific(1**10, precision=0)\n'1 x 10⁰'\n```\n"

HUMANIZE = {
    "package": "humanize==4.17.0",
    "requirements": [
        "freezegun",
        "pytest-codspeed",
    ],  # the project's own test extra, less coverage tooling
    "prompt": "Add humanize.percentage(value, ndigits=1): format a ratio such as 0.256 as "
    "'25.6%', with NaN and "
    "infinities handled like the other number helpers, and export it. Tests too.",
    "scope": {
        "issue": "HUM-42",
        "allow": ["src/humanize/number.py", "src/humanize/__init__.py", "tests/test_number.py"],
    },
    "compact_after": 18,
    "resume_prompt": "Continue: also cover NaN and negative infinity in the tests, then check "
    "everything.",
    "covers": {"copy": 8, "red_run": 12, "out_of_scope": 15},
    "steps": [
        bash("ls src/humanize tests", "layout"),
        read("src/humanize/__init__.py"),
        read("src/humanize/number.py"),
        grep("_format_not_finite", "src/humanize"),
        read("tests/test_number.py", 280, 100),
        bash(".venv/bin/python -m pytest -q tests/test_number.py", "run the number tests first"),
        read("README.md", 150, 60),
        read("src/humanize/time.py", 1, 60),
        edit(
            "src/humanize/number.py", HUMANIZE_NOT_FINITE_END, HUMANIZE_NOT_FINITE_END + PERCENTAGE
        ),
        edit(
            "src/humanize/__init__.py",
            "    metric,\n    ordinal,\n",
            "    metric,\n    ordinal,\n    percentage,\n",
        ),
        edit(
            "src/humanize/__init__.py",
            '    "ordinal",\n    "precisedelta",',
            '    "ordinal",\n    "percentage",\n    "precisedelta",',
        ),
        edit("tests/test_number.py", METRIC_TEST, METRIC_TEST + PERCENTAGE_TESTS),
        bash(".venv/bin/python -m pytest -q", "run the whole suite"),
        read("src/humanize/number.py", 80, 70),
        edit(
            "src/humanize/number.py",
            '    return f"{number:.{ndigits}f}%"',
            '    return f"{number * 100:.{ndigits}f}%"',
        ),
        edit(
            "README.md",
            README_SCIENTIFIC_END,
            README_SCIENTIFIC_END
            + "\n### Percentages\n\n```pycon\n>>> import humanize\n>>> humanize.percentage(0.256)\n"
            "'25.6%'\n>>> humanize.percentage(0.5, 0)\n'50%'\n```\n",
        ),
        bash(".venv/bin/python -m pytest -q", "run the whole suite again"),
        bash("git diff --stat", "what changed"),
        # --- /compact here: the rest is a new turn after the summary
        bash("git status --short", "where things are"),
        read("tests/test_number.py", 370, 40),
        edit(
            "tests/test_number.py",
            '        (["text"], "text"),\n        ([math.inf], "+Inf"),\n',
            '        (["text"], "text"),\n        ([math.inf], "+Inf"),\n        ([-math.inf], '
            '"-Inf"),\n'
            '        ([math.nan], "NaN"),\n',
        ),
        bash("sidekit test tests/test_number.py", "run the number tests"),
        bash(
            '.venv/bin/python -c "import humanize; print(humanize.percentage(0.1234, 2), '
            "humanize.percentage(float('nan')))\"",
            "try it",
        ),
        grep("percentage", "src/humanize"),
        read("src/humanize/number.py", 80, 60),
        bash("sidekit status", "the test status"),
        bash(
            ".venv/bin/python -m pytest -q tests/test_number.py src/humanize/number.py",
            "tests and doctests",
        ),
        bash("git diff src/humanize/__init__.py", "the export"),
    ],
}

# --- inflection (text): kebabize, plugin form
# -------------------------------------------------------------

DASHERIZE_END = "    return word.replace('_', '-')\n"

KEBABIZE = '''

def _snake_words(text: str) -> str:
    """Break a CamelCase expression into lowercase words joined by underscores."""
    return re.sub(r"([a-z\\d])([A-Z])", r'\\1_\\2',
                  re.sub(r"([A-Z]+)([A-Z][a-z])", r'\\1_\\2', text)).replace("-", "_").lower()


def kebabize(word: str) -> str:
    """Make a lowercase, dash-separated form from a CamelCase expression.

    Example::

        >>> kebabize("DeviceType")
        'device-type'

    """
    return _snake_words(word).replace('-', '_')
'''

KEBAB_TABLE = """
CAMEL_TO_KEBAB = (
    ("Product",               "product"),
    ("SpecialGuest",          "special-guest"),
    ("ApplicationController", "application-controller"),
    ("Area51Controller",      "area51-controller"),
    ("HTMLTidy",              "html-tidy"),
)
"""

DASHERIZE_TEST = """def test_dasherize(input, expected):
    assert inflection.dasherize(input) == expected
"""

KEBAB_TEST = """

@pytest.mark.parametrize(("camel", "kebab"), CAMEL_TO_KEBAB)
def test_kebabize(camel, kebab):
    assert inflection.kebabize(camel) == kebab
"""

TABLEIZE_TABLE = "STRING_TO_TABLEIZE = (\n"

INFLECTION = {
    "package": "inflection==0.5.1",
    "wiring": "plugin",
    "prompt": "Add inflection.kebabize(word): 'DeviceType' -> 'device-type', the dashed "
    "counterpart of underscore(). "
    "Add tests next to the others.",
    "scope": {"issue": "INF-9", "allow": ["inflection/__init__.py", "test_inflection.py"]},
    "covers": {"copy": 8, "red_run": 11, "out_of_scope": 15},
    "steps": [
        bash("ls", "layout"),
        read("inflection/__init__.py"),
        grep("def (dasherize|underscore|parameterize)", "inflection"),
        read("test_inflection.py", 100, 40),
        read("test_inflection.py", 400, 40),
        read("docs/index.rst"),
        bash(
            ".venv/bin/python -m pytest -q test_inflection.py -k 'underscore or dasherize'",
            "the related tests",
        ),
        bash("git log --oneline -1", "history"),
        edit("inflection/__init__.py", DASHERIZE_END, DASHERIZE_END + KEBABIZE),
        edit(
            "test_inflection.py", TABLEIZE_TABLE, KEBAB_TABLE.lstrip("\n") + "\n" + TABLEIZE_TABLE
        ),
        edit("test_inflection.py", DASHERIZE_TEST, DASHERIZE_TEST + KEBAB_TEST),
        bash(".venv/bin/python -m pytest -q", "run the tests"),
        bash("sidekit failures", "why they fail"),
        edit(
            "inflection/__init__.py",
            "    return _snake_words(word).replace('-', '_')",
            "    return dasherize(_snake_words(word))",
        ),
        bash(".venv/bin/python -m pytest -q", "run the tests again"),
        edit(
            "docs/index.rst",
            ".. autofunction:: humanize\n",
            ".. autofunction:: humanize\n.. autofunction:: kebabize\n",
        ),
        bash("git diff --stat", "what changed"),
        bash("git checkout -- docs/index.rst", "leave the docs for a separate change"),
        edit(
            "inflection/__init__.py",
            "        >>> kebabize(\"DeviceType\")\n        'device-type'\n",
            "        >>> kebabize(\"DeviceType\")\n        'device-type'\n        >>> "
            'kebabize("HTMLTidy")\n'
            "        'html-tidy'\n",
        ),
        bash("sidekit test test_inflection.py", "run the tests"),
        grep("kebab", "inflection"),
        read("inflection/__init__.py", 165, 40),
        bash(
            ".venv/bin/python -c \"import inflection; print(inflection.kebabize('SpecialGuest'))\"",
            "try it",
        ),
        bash("git status --short", "status"),
        bash(".venv/bin/python -m pytest -q --doctest-modules inflection", "the doctests"),
        bash("sidekit status", "the test status"),
        bash("git diff", "the change"),
    ],
}

# --- xmltodict (serialization): flatten, plugin form, /compact after call 15
# ------------------------------

NAMESPACE_END = "    return name\n\n\ndef _emit("

FLATTEN = '''

def _as_text(obj, charset='utf-8', on_error='replace'):
    """Turn a leaf value into the text the XML writer would emit for it."""
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return bytes(obj).decode(charset, errors=on_error)
    if not isinstance(obj, bool):
        return obj if isinstance(obj, str) else str(obj)
    return "true" if obj else "false"


def flatten(document, sep='.'):
    """Flatten a parsed document into ``{"a.b.@c": "text"}`` pairs, list items by index."""
    flat = {}

    def walk(prefix, node):
        if isinstance(node, dict):
            for key, child in node.items():
                walk(f"{prefix}{sep}{key}" if prefix else key, child)
        elif isinstance(node, list):
            for index, child in enumerate(node):
                walk(f"{prefix}{index}", child)
        else:
            flat[prefix] = _as_text(node)

    walk("", document)
    return flat'''

FLATTEN_TESTS = """from xmltodict import flatten, parse


def test_flatten_nested_elements_and_attributes():
    doc = parse('<a x="1"><b>text</b><c><d>2</d></c></a>')
    assert flatten(doc) == {"a.@x": "1", "a.b": "text", "a.c.d": "2"}


def test_flatten_lists_by_index():
    doc = parse("<a><b>1</b><b>2</b></a>")
    assert flatten(doc) == {"a.b.0": "1", "a.b.1": "2"}


def test_flatten_empty_elements_as_empty_text():
    doc = parse("<a><b/><c></c></a>")
    assert flatten(doc) == {"a.b": "", "a.c": ""}


def test_flatten_values_as_the_writer_writes_them():
    assert flatten({"a": {"on": True, "off": False, "n": 3, "raw": b"hi"}}, sep="/") == {
        "a/on": "true", "a/off": "false", "a/n": "3", "a/raw": "hi"}
"""

README_EXAMPLES = "## Examples\n"

XMLTODICT = {
    "package": "xmltodict==1.0.4",
    "wiring": "plugin",
    "prompt": "Add xmltodict.flatten(document, sep='.'): flatten a parsed document into dotted "
    "keys with text values "
    "(attributes keep their '@', list items go by index, values as unparse writes them). Tests in "
    "tests/test_flatten.py.",
    "scope": {"issue": "XTD-3", "allow": ["xmltodict.py", "tests/test_flatten.py"]},
    "compact_after": 16,
    "resume_prompt": "Continue: reject an empty separator with a clear error, test it, and wrap "
    "up.",
    "covers": {"copy": 8, "red_run": 10, "out_of_scope": 13},
    "steps": [
        bash("ls; ls tests", "layout"),
        read("xmltodict.py", 1, 60),
        grep("^def ", "xmltodict.py"),
        read("xmltodict.py", 360, 90),
        read("tests/test_dicttoxml.py", 1, 60),
        read("README.md", 120, 80),
        bash(".venv/bin/python -m pytest -q tests", "run the tests first"),
        read("xmltodict.py", 540, 110),
        edit("xmltodict.py", NAMESPACE_END, "    return name" + FLATTEN + "\n\n\ndef _emit("),
        write("tests/test_flatten.py", FLATTEN_TESTS),
        bash(".venv/bin/python -m pytest -q", "run the whole suite"),
        edit(
            "xmltodict.py",
            '                walk(f"{prefix}{index}", child)\n        else:\n            '
            "flat[prefix] = _as_text(node)",
            '                walk(f"{prefix}{sep}{index}", child)\n        else:\n'
            '            flat[prefix] = "" if node is None else _as_text(node)',
        ),
        bash(".venv/bin/python -m pytest -q tests/test_flatten.py", "run the new tests"),
        edit(
            "README.md",
            README_EXAMPLES,
            "### xmltodict.flatten()\n\n```python\n>>> xmltodict.flatten(xmltodict.parse('<a "
            'x="1"><b>t</b></a>\'))\n'
            "{'a.@x': '1', 'a.b': 't'}\n```\n\n" + README_EXAMPLES,
        ),
        bash("git diff --stat", "what changed"),
        bash("sidekit status", "the test status"),
        # --- /compact here
        bash("git status --short", "where things are"),
        read("xmltodict.py", 440, 50),
        edit(
            "xmltodict.py",
            '    """Flatten a parsed document into ``{"a.b.@c": "text"}`` pairs, list items by '
            'index."""\n',
            '    """Flatten a parsed document into ``{"a.b.@c": "text"}`` pairs, list items by '
            'index."""\n'
            '    if not sep:\n        raise ValueError("sep must be a non-empty string")\n',
        ),
        read("tests/test_flatten.py"),
        edit(
            "tests/test_flatten.py",
            "from xmltodict import flatten, parse\n",
            "import pytest\n\nfrom xmltodict import flatten, parse\n\n\ndef "
            "test_flatten_needs_a_separator():\n"
            '    with pytest.raises(ValueError, match="sep must be a non-empty string"):\n'
            '        flatten({"a": "1"}, sep="")\n',
        ),
        bash("sidekit test tests/test_flatten.py", "run the new tests"),
        bash("git checkout -- README.md", "keep the README out of this change"),
        grep("flatten", "tests"),
        bash(".venv/bin/python -m pytest -q", "the whole suite"),
        bash("git diff xmltodict.py", "the change"),
        bash("git status --short", "status"),
    ],
}

# --- tabulate (formatting): markdown_rule, plugin form
# ------------------------------------------------------

PIPE_LINE_END = '    return f"|{segments}|"\n'

MARKDOWN_RULE = '''

def _rule_segment(alignment, width):
    """One column of a Markdown rule line: dashes, with colons on the side the column aligns to."""
    if alignment not in ("left", "center", "right", "decimal"):
        return "-" * width
    if alignment == "center":
        return ":" + "-" * (width - 1) + ":"
    return ":" + "-" * (width - 1) if alignment == "left" else "-" * (width - 1) + ":"


def markdown_rule(colwidths, colaligns=None):
    """The rule line under a Markdown table's header, e.g. ``|:---|---:|``, for tables built by hand."""
    return "|" + "|".join(_rule_segment(a, w) for a, w in zip(colaligns or [""] * len(colwidths), colwidths)) + "|"
'''

RULE_TESTS = """


def test_markdown_rule():
    assert T.markdown_rule([4, 5], ["left", "right"]) == "|:---|----:|"
    assert T.markdown_rule([5], ["center"]) == "|:---:|"
    assert T.markdown_rule([3, 3]) == "|---|---|"
    assert T.markdown_rule([4], ["decimal"]) == "|---:|"


def test_markdown_rule_matches_the_pipe_format():
    table = T.tabulate([["a", 1.5], ["bb", 22.0]], headers=["name", "value"], tablefmt="pipe", colalign=["center", "right"])
    assert table.splitlines()[1] == T.markdown_rule([8, 9], ["center", "right"])
"""

TABULATE = {
    "package": "tabulate==0.10.0",
    "wiring": "plugin",
    "prompt": "Add tabulate.markdown_rule(colwidths, colaligns=None) that returns the alignment "
    "rule line of a "
    "Markdown table (like '|:---|---:|') for callers that build tables by hand; export it, with "
    "tests in "
    "test/test_internal.py.",
    "scope": {"issue": "TAB-17", "allow": ["tabulate/__init__.py", "test/test_internal.py"]},
    "covers": {"copy": 8, "red_run": 11, "out_of_scope": 16},
    "steps": [
        bash("ls; ls test", "layout"),
        grep("_pipe_segment_with_colons|_pipe_line_with_colons", "tabulate"),
        read("tabulate/__init__.py", 1, 130),
        read("tabulate/__init__.py", 130, 40),
        read("test/test_internal.py", 1, 40),
        read("test/common.py"),
        bash(".venv/bin/python -m pytest -q test/test_internal.py", "run the internal tests"),
        glob("test/*.py"),
        edit("tabulate/__init__.py", PIPE_LINE_END, PIPE_LINE_END + MARKDOWN_RULE),
        edit(
            "tabulate/__init__.py",
            '__all__ = ["tabulate", "tabulate_formats", "simple_separated_format"]',
            '__all__ = ["tabulate", "tabulate_formats", "simple_separated_format", '
            '"markdown_rule"]',
        ),
        edit(
            "test/test_internal.py",
            "    assert_equal(expected, rows_to_pipe_table_str(sans_rows))\n",
            "    assert_equal(expected, rows_to_pipe_table_str(sans_rows))" + RULE_TESTS,
        ),
        bash(".venv/bin/python -m pytest -q", "the whole suite"),
        bash("sidekit failures", "why it fails"),
        edit(
            "tabulate/__init__.py",
            '        return ":" + "-" * (width - 1) + ":"',
            '        return ":" + "-" * (width - 2) + ":"',
        ),
        bash(".venv/bin/python -m pytest -q test/test_internal.py", "run the internal tests again"),
        read("CHANGELOG", 1, 20),
        edit(
            "CHANGELOG",
            "- 0.10.0: Add support for Python 3.11, 3.12, 3.13.\n",
            "- Unreleased: New helper markdown_rule() for the rule line of a hand-built Markdown "
            "table.\n"
            "- 0.10.0: Add support for Python 3.11, 3.12, 3.13.\n",
        ),
        bash("git diff --stat", "what changed"),
        edit(
            "tabulate/__init__.py",
            '    """The rule line under a Markdown table\'s header, e.g. ``|:---|---:|``, for '
            'tables built by hand."""\n',
            '    """The rule line under a Markdown table\'s header, for tables built by hand.\n\n'
            '    >>> markdown_rule([4, 5], ["left", "right"])\n    \'|:---|----:|\'\n\n    """\n',
        ),
        bash("sidekit test test/test_internal.py", "run the internal tests"),
        bash(".venv/bin/python -m pytest -q --doctest-modules tabulate", "the doctests"),
        grep("markdown_rule", "tabulate"),
        bash("git status --short", "status"),
        read("tabulate/__init__.py", 150, 40),
        bash(
            '.venv/bin/python -c "import tabulate; print(tabulate.markdown_rule([3, 4], '
            "['center', 'left']))\"",
            "try it",
        ),
        bash("git diff tabulate/__init__.py", "the change"),
        bash(".venv/bin/python -m pytest -q", "the whole suite"),
    ],
}

# --- webcolors (text): normalize_hex_alpha, settings form
# --------------------------------------------------

NORMALIZE_HEX_END = '    return f"#{hex_digits.lower()}"\n'

HEX_ALPHA = '''

def _canonical_hex(text: str) -> str:
    """The ``#rrggbb`` form of a hexadecimal color value; :exc:`ValueError` when it is not one."""
    found = _HEX_COLOR_RE.match(text)
    if found is not None:
        digits = found.group(1)
        return "#" + (digits if len(digits) != 3 else "".join(c * 2 for c in digits)).lower()
    raise ValueError(f'"{text}" is not a valid hexadecimal color value.')


def normalize_hex_alpha(hex_value: str) -> str:
    """
    Normalize a hexadecimal color value with an alpha channel (``#rgba`` or
    ``#rrggbbaa``; a value without one is opaque) to ``#`` followed by eight
    lowercase hexadecimal digits.

    :param hex_value: The hexadecimal color value to normalize.
    :raises ValueError: when the input is not a valid hexadecimal color value.

    """
    if (match := _HEX_ALPHA_RE.match(hex_value)) is None:
        return _canonical_hex(hex_value) + "ff"
    digits = match.group(1)
    if len(digits) == 4:
        digits = "".join(2 * s for s in digits)
    return f"#{digits}"
'''

HEX_ALPHA_TESTS = '''


@pytest.mark.parametrize(
    ["raw", "normalized"],
    [
        ("#0099cc80", "#0099cc80"),
        ("#0099CC80", "#0099cc80"),
        ("#09c8", "#0099cc88"),
        ("#09C", "#0099ccff"),
        ("#0099cc", "#0099ccff"),
    ],
    ids=["lowercase", "uppercase", "short", "short-opaque", "opaque"],
)
def test_normalize_hex_alpha(raw: str, normalized: str):
    """
    Alpha hex normalization gives eight lowercase digits, opaque when no alpha is given.

    """
    assert webcolors.normalize_hex_alpha(raw) == normalized


@pytest.mark.parametrize("raw", ["0099cc80", "#0099cc8", "#0099gg80", "#"])
def test_normalize_hex_alpha_rejects(raw: str):
    """
    Values that are not hexadecimal colors raise ValueError.

    """
    with pytest.raises(ValueError, match="is not a valid hexadecimal color value"):
        webcolors.normalize_hex_alpha(raw)
'''

PERCENT_TEST_END = """    result = webcolors.normalize_percent_triplet(triplet)
    assert isinstance(result, webcolors.PercentRGB)
    assert normalized == result
"""

CHANGELOG_25_10 = "Version 25.10.0\n~~~~~~~~~~~~~~~\n"

WEBCOLORS = {
    "package": "webcolors==25.10.0",
    "prompt": "Add webcolors.normalize_hex_alpha(hex_value): accept #rgba and #rrggbbaa (and "
    "plain #rgb/#rrggbb as "
    "opaque) and return '#rrggbbaa' in lowercase, raising ValueError like normalize_hex. Export "
    "it; tests in "
    "tests/test_normalization.py.",
    "scope": {
        "issue": "WC-58",
        "allow": [
            "src/webcolors/_normalization.py",
            "src/webcolors/__init__.py",
            "tests/test_normalization.py",
        ],
    },
    "covers": {"copy": 9, "red_run": 13, "out_of_scope": 18},
    "steps": [
        bash("ls src/webcolors tests docs", "layout"),
        read("src/webcolors/_normalization.py"),
        read("src/webcolors/__init__.py"),
        grep("_HEX_COLOR_RE", "src"),
        read("src/webcolors/_definitions.py", 1, 40),
        read("tests/test_normalization.py"),
        bash(
            ".venv/bin/python -m pytest -q tests/test_normalization.py",
            "run the normalization tests",
        ),
        read("docs/conventions.rst", 1, 50),
        edit(
            "src/webcolors/_normalization.py",
            "from ._definitions import _HEX_COLOR_RE\n",
            "import re\n\nfrom ._definitions import _HEX_COLOR_RE\n",
        ),
        edit("src/webcolors/_normalization.py", NORMALIZE_HEX_END, NORMALIZE_HEX_END + HEX_ALPHA),
        edit(
            "src/webcolors/_normalization.py",
            "from ._types import IntegerRGB, IntTuple, PercentRGB, PercentTuple\n",
            "from ._types import IntegerRGB, IntTuple, PercentRGB, PercentTuple\n\n"
            '_HEX_ALPHA_RE = re.compile(r"^#([a-fA-F0-9]{4}|[a-fA-F0-9]{8})$")\n',
        ),
        edit(
            "src/webcolors/__init__.py",
            "    normalize_hex,\n    normalize_integer_triplet,\n",
            "    normalize_hex,\n    normalize_hex_alpha,\n    normalize_integer_triplet,\n",
        ),
        edit("tests/test_normalization.py", PERCENT_TEST_END, PERCENT_TEST_END + HEX_ALPHA_TESTS),
        bash(".venv/bin/python -m pytest -q", "the whole suite"),
        read("src/webcolors/_normalization.py", 50, 50),
        edit(
            "src/webcolors/_normalization.py",
            '    return f"#{digits}"\n',
            '    return f"#{digits.lower()}"\n',
        ),
        bash("sidekit test tests/test_normalization.py", "run the normalization tests"),
        read("docs/changelog.rst", 50, 30),
        edit(
            "docs/changelog.rst",
            CHANGELOG_25_10,
            "Unreleased\n~~~~~~~~~~\n\n* New :func:`normalize_hex_alpha` for ``#rgba`` and "
            "``#rrggbbaa`` values.\n\n\n" + CHANGELOG_25_10,
        ),
        bash("git diff --stat", "what changed"),
        bash("git restore docs/changelog.rst", "the changelog is the maintainers' to write"),
        grep("normalize_hex_alpha", "src"),
        edit(
            "src/webcolors/__init__.py",
            '    "normalize_hex",\n',
            '    "normalize_hex",\n    "normalize_hex_alpha",\n',
        ),
        bash("sidekit status", "the test status"),
        bash(".venv/bin/python -m pytest -q", "the whole suite"),
        bash(
            '.venv/bin/python -c "import webcolors; '
            "print(webcolors.normalize_hex_alpha('#09C8'))\"",
            "try it",
        ),
        bash("git status --short", "status"),
        bash("git diff src/webcolors/__init__.py", "the export"),
    ],
}

SESSIONS = {
    "humanize": HUMANIZE,
    "inflection": INFLECTION,
    "xmltodict": XMLTODICT,
    "tabulate": TABULATE,
    "webcolors": WEBCOLORS,
}
