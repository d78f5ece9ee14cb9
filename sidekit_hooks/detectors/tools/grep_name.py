"""`grep -rn NAME`, `rg NAME`, `git grep NAME` for a name the index defines: `sidekit
usages`/`symbol`."""

from __future__ import annotations

import os

from sidekit_hooks.detectors.tools.common import MAX_SHOWN, RANK, SIDECAR
from sidekit_hooks.nudges.findings import HABIT, Finding

GREP_VALUE_OPTS = frozenset(
    {
        "-A",
        "-B",
        "-C",
        "-m",
        "-f",
        "-g",
        "-t",
        "-T",
        "--type",
        "--type-not",
        "--glob",
        "--include",
        "--exclude",
        "--exclude-dir",
        "--max-count",
        "--context",
        "--after-context",
        "--before-context",
        "-d",
        "-D",
        "--color",
        "-M",
        "--max-columns",
        "-j",
        "--threads",
    }
)
NOT_CODE_WORDS = frozenset(
    {"TODO", "FIXME", "XXX", "HACK", "NOTE", "BUG", "DEBUG", "ERROR", "WARNING", "INFO"}
)
PYTHON_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg")


def search_finding(words: list[str], project: str) -> Finding | None:
    """`grep -rn NAME`, `rg NAME`, `git grep NAME` for a Python identifier -> sidekit
    usages/symbol."""
    program = words[0]
    if program == "git" and words[1:2] == ["grep"]:
        args = words[2:]
    elif program == "rg":
        args = words[1:]
    elif program in ("grep", "egrep") and any(recursive_flag(a) for a in words[1:]):
        args = words[1:]
    else:
        return None
    pattern, paths, filters = grep_operands(args)
    if pattern is None or not python_search(paths, filters, project):
        return None
    kind, name = code_name(pattern)
    if not name or len(name) > MAX_SHOWN:
        return None
    from sidekit_hooks.code.defined import defines

    if not defines(project, name):
        # a parameter, a key, a word in a docstring (or no index yet): grep was the right tool
        return None
    if kind == "symbol":
        advice = f"`sidekit symbol {name}` says where it is defined"
    else:
        advice = (
            f"`sidekit usages {name}` lists its real uses (AST references, not comments or strings)"
        )
    return Finding(
        SIDECAR,
        f"Searching code text for `{name}`: {advice} in one compact line.",
        key="tools:grep-name",
        rule_id="tools.grep-for-name",
        kind=HABIT,
        rank=RANK,
    )


def recursive_flag(arg: str) -> bool:
    if arg in ("--recursive", "--dereference-recursive"):
        return True
    return arg.startswith("-") and not arg.startswith("--") and ("r" in arg or "R" in arg)


def grep_operands(args: list[str]) -> tuple[str | None, list[str], list[str]]:
    """(pattern, paths, type/include filters) of a grep/rg argument list."""
    pattern: str | None = None
    positional: list[str] = []
    filters: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-e", "--regexp") and i + 1 < len(args):
            pattern = args[i + 1] if pattern is None else pattern
            i += 2
            continue
        if arg in GREP_VALUE_OPTS and i + 1 < len(args):
            if arg in ("-t", "--type", "-g", "--glob", "--include"):
                filters.append(args[i + 1])
            i += 2
            continue
        if arg.startswith("--") and "=" in arg:
            key, value = arg.split("=", 1)
            if key in ("--include", "--type", "--glob"):
                filters.append(value)
        elif arg == "--":
            positional.extend(args[i + 1 :])
            break
        elif not arg.startswith("-") or arg == "-":
            positional.append(arg)
        i += 1
    if pattern is None and positional:
        pattern = positional.pop(0)
    return pattern, positional, filters


def python_search(paths: list[str], filters: list[str], project: str) -> bool:
    """Is this a search over Python code (where sidekit's AST answers apply)?"""
    if filters:
        return any("py" in f for f in filters)
    files = [p for p in paths if "." in p.rsplit("/", 1)[-1].lstrip(".")]
    if files and not any(p.endswith(".py") for p in files):
        return False
    return any(p.endswith(".py") for p in paths) or is_python_project(project)


def is_python_project(project: str) -> bool:
    if any(os.path.exists(os.path.join(project, marker)) for marker in PYTHON_MARKERS):
        return True
    try:
        return any(name.endswith(".py") for name in os.listdir(project))
    except OSError:
        return False


def code_name(pattern: str) -> tuple[str, str]:
    """("symbol", NAME) for `def NAME`/`class NAME`, ("usages", NAME) for a bare identifier, else
    ("", "")."""
    text = pattern.strip()
    for wrapper in ("\\b", "\\<", "\\>", "\\W"):
        text = text.replace(wrapper, "")
    kind = "usages"
    for prefix in ("def ", "class ", "async def "):
        if text.startswith(prefix):
            kind, text = "symbol", text[len(prefix) :].strip()
    if text.endswith("\\(") or text.endswith("("):
        text = text.rstrip("\\(")
    if len(text) < 3 or not text.isidentifier() or text in NOT_CODE_WORDS:
        return "", ""
    return kind, text
