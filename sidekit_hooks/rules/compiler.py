"""A pack's TOML -> the compiled form the snapshot stores. Standard library only: the hook runs it.

The hook calls this on the rare event that a pack changed (tomllib imports `re`; that is the price
of a stale pack, paid once). `sidekit rules lint` validates with the pydantic schema first and then
runs `semantic_problems` from here, so the hook and the linter agree on what makes a pack broken.
"""

from __future__ import annotations

from sidekit_hooks import __version__
from sidekit_hooks.code import languages
from sidekit_hooks.core import globs
from sidekit_hooks.rules import MAX_NUDGE, MAX_PACK_BYTES, MAX_PATTERN, MAX_RULES, SEVERITIES, cited
from sidekit_hooks.rules.match import PATH_TOOLS, SHELL_TOOLS, WRITE_TOOLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KeyPath = tuple[str | int, ...]
LANGUAGES = (
    languages.PYTHON,
    *languages.MODULE_OF,
)  # what `languages` may name: the code index's ids
REGEX_KEYS = ("added", "absent", "command", "output")
GLOB_KEYS = ("paths", "exclude")
LIST_KEYS = ("tools", "languages")  # arrays of plain strings
WHEN_KEYS = LIST_KEYS + GLOB_KEYS + REGEX_KEYS


class Problem:
    """One thing wrong with a pack: where (key path, or a line), what, and the fix; error or
    warning."""

    __slots__ = ("path", "what", "fix", "level", "line")

    def __init__(
        self, path: KeyPath, what: str, fix: str, level: str = "error", line: int = 0
    ) -> None:
        self.path = path
        self.what = what
        self.fix = fix
        self.level = level
        self.line = line  # known up front (TOML syntax errors); else found from `path`

    def __repr__(self) -> str:
        return f"Problem({dotted(self.path)}: {self.what})"


class PackError(Exception):
    """A pack the hook cannot use. `problems` holds at least one error."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].what)
        self.problems = problems


def dotted(path: KeyPath) -> str:
    """("rules", 2, "when", "added") -> "rules[2].when.added"."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def render(
    problem: Problem, display: str, text: str, lines: dict[KeyPath, int] | None = None
) -> str:
    """`file:line: key.path: what` and, indented below it, `fix: ...` (pre-commit-style
    breadcrumbs)."""
    from sidekit_hooks.rules import locate

    line = problem.line
    if not line and problem.path and text:
        line = locate.line_of(lines if lines is not None else locate.lines_of(text), problem.path)
    where = f"{display}:{line}" if line else display
    key = f" {dotted(problem.path)}:" if problem.path else ""
    warning = " warning:" if problem.level == "warning" else ""
    return f"{where}:{warning}{key} {problem.what}\n  fix: {problem.fix}"


def read_toml(path: str, project: str = "") -> tuple[str, dict[str, Any]]:
    """The text and the parsed table of a pack file. Raises PackError (size, encoding, syntax, not a
    regular file, or, for a pack of the `project`, a link that leads out of it) or OSError
    (unreadable)."""
    import tomllib

    from sidekit_hooks.core import safepath

    # never blocking (a FIFO named x.toml), never more than MAX_PACK_BYTES (a link to /dev/zero)
    try:
        if project:
            raw = safepath.read_inside(project, path, MAX_PACK_BYTES, follow_inside=True)
        else:
            raw = safepath.read_regular(path, MAX_PACK_BYTES)
    except safepath.TooLarge:
        raise PackError(
            [
                Problem(
                    (),
                    f"the file is over {MAX_PACK_BYTES // 1024} KB",
                    "split it into smaller packs",
                )
            ]
        ) from None
    except safepath.UnsafePath as exc:
        what = (
            "not a regular file"
            if exc.reason == safepath.NOT_REGULAR
            else "a link that leads out of the project"
        )
        raise PackError(
            [Problem((), what, "put the pack itself there, as a regular file")]
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PackError(
            [Problem((), f"not UTF-8 ({exc.reason} at byte {exc.start})", "save the file as UTF-8")]
        ) from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PackError([syntax_problem(str(exc))]) from None


def syntax_problem(message: str) -> Problem:
    """tomllib says "... (at line 3, column 5)": move the line to the front like every other
    error."""
    head, found, tail = message.rpartition(" (at line ")
    if not found:
        return Problem((), f"TOML syntax: {message}", "fix the TOML syntax there")
    line, _, column = tail.rstrip(")").partition(", ")
    return Problem(
        (),
        f"TOML syntax: {head} ({column})",
        "fix the TOML syntax on that line",
        line=int(line) if line.isdigit() else 0,
    )


def compile_pack(data: dict[str, Any], origin: dict[str, str]) -> dict[str, Any]:
    """The compiled pack: name, policy and rules (each rule carries `origin`). Raises PackError."""
    problems = structure_problems(data)
    if not problems:
        problems = [p for p in semantic_problems(data) if p.level == "error"]
    if problems:
        raise PackError(problems)
    pack = data["pack"]
    rules = [compile_rule(rule, pack["name"], origin) for rule in data.get("rules", [])]
    return {
        "name": pack["name"],
        "version": pack.get("version", ""),
        "policy": data.get("policy", {}),
        "rules": rules,
    }


def compile_rule(rule: dict[str, Any], pack_name: str, origin: dict[str, str]) -> dict[str, Any]:
    """One rule in the form `match` reads. Only the conditions given appear under "when"."""
    compiled: dict[str, Any] = {
        "id": rule["id"],
        "enabled": rule.get("enabled", True),
        "sidecar": rule.get("sidecar") or pack_name,
        "message": rule.get("message", ""),
        "see": rule.get("see", ""),
        "severity": rule.get("severity", "medium"),
        "when": {
            key: [globs.normalise(g) for g in value] if key in GLOB_KEYS else value
            for key, value in rule.get("when", {}).items()
            if key in WHEN_KEYS
        },
        "pack": pack_name,
        **origin,
    }
    if rule.get("metadata"):
        compiled["metadata"] = rule["metadata"]
    return compiled


# --- the shape, checked without pydantic (the linter checks it with the schema instead) ----------

_RULE_TYPES: dict[str, type | tuple[type, ...]] = {
    "id": str,
    "sidecar": str,
    "message": str,
    "see": str,
    "severity": str,
    "enabled": bool,
    "when": dict,
    "examples": list,
    "metadata": dict,
}


def structure_problems(data: dict[str, Any]) -> list[Problem]:
    """Missing required keys and wrong types, enough that compiling cannot crash."""
    problems: list[Problem] = []
    pack = data.get("pack")
    if not isinstance(pack, dict):
        return [
            missing(("pack",)) if "pack" not in data else wrong_type(("pack",), "a table", pack)
        ]
    if "name" not in pack:
        problems.append(missing(("pack", "name")))
    elif not isinstance(pack["name"], str) or not pack["name"]:
        problems.append(wrong_type(("pack", "name"), "a non-empty string", pack["name"]))
    for key in ("version", "requires", "description"):
        if key in pack and not isinstance(pack[key], str):
            problems.append(wrong_type(("pack", key), "a string", pack[key]))
    if not isinstance(data.get("policy", {}), dict):
        problems.append(
            Problem(
                ("policy",),
                f"expected a table, got {describe(data['policy'])}",
                "write [policy] as a table",
            )
        )
    rules = data.get("rules", [])
    if not isinstance(rules, list):
        return problems + [
            Problem(
                ("rules",),
                f"expected an array of tables, got {describe(rules)}",
                "write each rule under [[rules]]",
            )
        ]
    for index, rule in enumerate(rules):
        problems += _rule_structure(rule, ("rules", index))
    return problems


def _rule_structure(rule: object, at: KeyPath) -> list[Problem]:
    if not isinstance(rule, dict):
        return [
            Problem(
                at, f"expected a table, got {describe(rule)}", "write each rule under [[rules]]"
            )
        ]
    problems = [] if "id" in rule else [missing(at + ("id",))]
    for key, expected in _RULE_TYPES.items():
        if key in rule and not isinstance(rule[key], expected):
            problems.append(wrong_type(at + (key,), _TYPE_WORDS[expected], rule[key]))
    when = rule.get("when", {})
    if isinstance(when, dict):
        for key in GLOB_KEYS + LIST_KEYS:
            value = when.get(key)
            if value is not None and not isinstance(value, list):
                problems.append(wrong_type(at + ("when", key), "an array", value))
            elif value is not None:
                problems += [
                    wrong_type(at + ("when", key, index), "a string", item)
                    for index, item in enumerate(value)
                    if not isinstance(item, str)
                ]
        for key in REGEX_KEYS:
            if key in when and not isinstance(when[key], str):
                problems.append(wrong_type(at + ("when", key), "a string", when[key]))
    return problems


_TYPE_WORDS: dict[type | tuple[type, ...], str] = {
    str: "a string",
    bool: "true or false",
    dict: "a table",
    list: "an array",
}

# How each key is written, for the fix line of an error (and the reference docs).
EXAMPLES: dict[str, str] = {
    "pack": '[pack] with name = "acme-api"',
    "name": '"acme-api"',
    "version": '"1.2.0"',
    "requires": '">=0.1"',
    "description": '"API spec constraints"',
    "rules": "[[rules]] tables",
    "id": '"acme.api.status-422"',
    "sidecar": '"specs"',
    "message": '"Spec 4.1: validation errors return HTTP 422, not 400."',
    "see": '"docs/api-spec.md#validation-errors"',
    "severity": '"high"',
    "enabled": "false",
    "when": "[rules.when]",
    "tools": '["Edit", "Write"]',
    "paths": '["api/**/*.py"]',
    "languages": '["ts", "js"]',
    "exclude": '["tests/**"]',
    "added": "'status_code\\s*=\\s*400'",
    "absent": "'\\bcode\\b'",
    "command": "'^\\s*pytest\\b'",
    "output": "'Traceback'",
    "examples": "[[rules.examples]] tables",
    "fires": "true",
    "tool": '"Write"',
    "path": '"api/users.py"',
    "content": '"return JSONResponse(..., status_code=400)"',
    "old": '"return 1"',
    "new": '"return 2"',
    "error": '"Exit code 1"',
    "metadata": "{ prevalence = 0.9 }",
    "policy": "[policy]",
}


# An example call is written differently from a condition: `command = "pytest -x"`, not a regex.
EXAMPLE_CALL: dict[str, str] = {
    "command": '"pytest -q tests/"',
    "output": '"Traceback (most recent call last):"',
}


def example_for(path: KeyPath) -> str:
    key = str(path[-1]) if not isinstance(path[-1], int) else str(path[-2])
    if "examples" in path[:-1] and key in EXAMPLE_CALL:
        return EXAMPLE_CALL[key]
    return EXAMPLES.get(key, "...")


def table_of(path: KeyPath) -> str:
    """The TOML table a key sits in, as a person would find it in the file."""
    names = [part for part in path[:-1] if isinstance(part, str)]
    if not names:
        return "the top level"
    header = ".".join(names)
    return f"[[{header}]]" if isinstance(path[-2], int) else f"[{header}]"


def missing(path: KeyPath) -> Problem:
    key = str(path[-1])
    if key == "pack":
        return Problem(
            path, "required table is missing", 'add a [pack] table with name = "my-pack" at the top'
        )
    return Problem(
        path, "required key is missing", f"add {key} = {example_for(path)} under {table_of(path)}"
    )


def wrong_type(path: KeyPath, expected: str, value: object) -> Problem:
    key = str(path[-1]) if not isinstance(path[-1], int) else str(path[-2])
    return Problem(
        path, f"expected {expected}, got {describe(value)}", f"write {key} = {example_for(path)}"
    )


def describe(value: object) -> str:
    """How a TOML value reads in an error: 'a string ("Edit")', 'an integer (3)', 'a table'."""
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, str):
        return f'a string ("{value[:40]}")'
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a float ({value})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


# --- what the shape cannot say: shared by the hook's compile and `sidekit rules lint` -------------


def semantic_problems(data: dict[str, Any]) -> list[Problem]:
    """Caps, requires, duplicate ids, empty or impossible conditions, regexes, globs, message
    length, policy."""
    problems = requires_problems(data["pack"].get("requires", "")) + policy_problems(
        data.get("policy", {})
    )
    rules = data.get("rules", [])
    if len(rules) > MAX_RULES:
        problems.append(
            Problem(
                ("rules",),
                f"{len(rules)} rules; a pack holds at most {MAX_RULES}",
                "split the pack in two",
            )
        )
        return problems
    first_seen: dict[str, int] = {}
    for index, rule in enumerate(rules):
        at: KeyPath = ("rules", index)
        if rule["id"] in first_seen:
            problems.append(
                Problem(
                    at + ("id",),
                    f'duplicate id "{rule["id"]}" (also rules[{first_seen[rule["id"]]}])',
                    "give each rule in a pack its own id",
                )
            )
        first_seen.setdefault(rule["id"], index)
        problems += rule_problems(rule, at, data["pack"]["name"])
    return problems


def policy_problems(policy: dict[str, Any]) -> list[Problem]:
    """Unknown `[policy]` keys and values the policy would not use, each with the values it
    accepts."""
    from sidekit_hooks.nudges.policy import ACCEPTS

    problems = []
    for key, value in policy.items():
        if key not in ACCEPTS:
            problems.append(
                Problem(
                    ("policy", key),
                    f'unknown [policy] key "{key}"',
                    "use one of " + ", ".join(ACCEPTS) + " (docs/policy.md)",
                )
            )
            continue
        valid, words, example = ACCEPTS[key]
        if not valid(value):
            problems.append(
                Problem(
                    ("policy", key),
                    f"expected {words}, got {describe(value)}",
                    f"write {key} = {example}",
                )
            )
    return problems


def nudge_line(rule: dict[str, Any], pack_name: str) -> str:
    """The line the model reads when the rule fires."""
    return f"[sidecar:{rule.get('sidecar') or pack_name}] {cited(rule)}"


def rule_problems(rule: dict[str, Any], at: KeyPath, pack_name: str = "") -> list[Problem]:
    problems = []
    if (
        "message" not in rule and rule.get("enabled", True) is not False
    ):  # turning a rule off needs no message
        problems.append(missing(at + ("message",)))
    if not rule["id"].strip():
        problems.append(
            Problem(
                at + ("id",), "the id is empty", 'use a namespaced id such as "acme.api.status-422"'
            )
        )
    if rule.get("severity", "medium") not in SEVERITIES:
        problems.append(
            Problem(
                at + ("severity",),
                f'expected one of low, medium, high, got "{rule["severity"]}"',
                'write severity = "low", "medium" or "high"',
            )
        )
    line = nudge_line(rule, pack_name)
    if len(line) >= MAX_NUDGE:
        problems.append(
            Problem(
                at + ("message",),
                f"the nudge would be {len(line)} characters "
                f"([sidecar:...] tag, message{', see' if rule.get('see') else ''}); it must stay "
                f"under {MAX_NUDGE}",
                "shorten the message and put the details in the file `see` points at",
            )
        )
    if rule.get("enabled", True) is False:
        return problems
    when = rule.get("when", {})
    if not any(key in when for key in WHEN_KEYS):
        problems.append(
            Problem(
                at + ("when",),
                "no condition: the rule would fire on every tool call",
                "add at least one of tools, paths, languages, added, absent, command or output "
                "under [rules.when]",
            )
        )
    for key in REGEX_KEYS:
        if key in when:
            problems += _regex_problems(when[key], at + ("when", key))
    for index, language in enumerate(when.get("languages", [])):
        if language not in LANGUAGES:
            problems.append(
                Problem(
                    at + ("when", "languages", index),
                    f'unknown language "{str(language)[:40]}"',
                    f"write one of {', '.join(LANGUAGES)} (TSX is ts, JSX is js)",
                )
            )
    for key in GLOB_KEYS:
        for index, glob in enumerate(when.get(key, [])):
            found = _glob_problem(glob)
            if found:
                what, fix, level = found
                problems.append(Problem(at + ("when", key, index), what, fix, level=level))
    return problems + _impossible(when, at)


def _glob_problem(glob: str) -> tuple[str, str, str] | None:
    """(what, fix, level) for a glob that cannot match or costs too much, else None."""
    why = globs.problem(glob) or (
        "" if len(glob) <= MAX_PATTERN else f"over {MAX_PATTERN} characters"
    )
    if why:
        return (
            f'glob "{glob[:80]}" cannot match: {why}',
            'write a project-relative glob such as "src/**/*.py"',
            "error",
        )
    costly = globs.budget_problem(glob)  # matched on every tool call: keep it cheap
    if costly and "consecutive" in costly:  # harmless once collapsed, which the compiler does
        what = f'glob "{glob[:80]}": {costly}; the hook reads it that way'
        return what, f'write "{globs.normalise(glob)[:80]}"', "warning"
    if costly:
        return (
            f'glob "{glob[:80]}" is too costly: {costly}',
            'name fewer folders, e.g. "src/**/*.py"',
            "error",
        )
    return None


def _regex_problems(pattern: str, at: KeyPath) -> list[Problem]:
    import re

    if len(pattern) > MAX_PATTERN:
        return [
            Problem(
                at, f"the regex is over {MAX_PATTERN} characters", "shorten it, or split the rule"
            )
        ]
    try:
        re.compile(pattern, re.MULTILINE)
    except re.error as exc:
        return [
            Problem(
                at,
                f"regex does not compile: {exc}",
                "fix the pattern; in TOML write it in single quotes ('...') so backslashes stay "
                "as written",
            )
        ]
    return []


def _impossible(when: dict[str, Any], at: KeyPath) -> list[Problem]:
    """Conditions that no single tool call can satisfy together."""
    tools = when.get("tools")

    def any_tool(allowed: tuple[str, ...]) -> bool:
        return tools is None or any(
            globs.match_name(tool, name) for tool in tools for name in allowed
        )

    problems = []
    needs = [
        ("added", WRITE_TOOLS, "the text a call added comes only from"),
        ("absent", WRITE_TOOLS, "the text a call added comes only from"),
        ("command", SHELL_TOOLS, "a command comes only from"),
    ]
    for key, allowed, says in needs:
        if key in when and not any_tool(allowed):
            problems.append(
                Problem(
                    at + ("when", key),
                    f"cannot match: {says} {', '.join(allowed)}, and tools leaves them out",
                    f"add one of {', '.join(allowed)} to tools, or drop {key}",
                )
            )
    if "command" in when and ("added" in when or "absent" in when):
        problems.append(
            Problem(
                at + ("when", "command"),
                "cannot match: no tool call both runs a command and adds text",
                "split this into two rules",
            )
        )
    for key in GLOB_KEYS + ("languages",):
        if (
            key in ("paths", "languages")
            and key in when
            and (("command" in when) or not any_tool(PATH_TOOLS))
        ):
            problems.append(
                Problem(
                    at + ("when", key),
                    "cannot match: the tools this rule sees carry no file path",
                    f"drop {key}, or add a file tool (Edit, Write, Read, ...) to tools",
                )
            )
    return problems


def requires_problems(spec: str) -> list[Problem]:
    """`requires` against the running sidekit: ">=0.1", ">=0.1,<1", "==0.1.0", "~=0.1"."""
    if not spec.strip():
        return []
    at: KeyPath = ("pack", "requires")
    for clause in spec.split(","):
        clause = clause.strip()
        op = next((o for o in ("~=", ">=", "<=", "==", "!=", ">", "<") if clause.startswith(o)), "")
        wanted = version_tuple(clause[len(op) :].strip())
        if not op or wanted is None:
            return [
                Problem(
                    at,
                    f'cannot read "{spec}"',
                    'write a version range such as ">=0.1" or ">=0.1,<1"',
                )
            ]
        if not _holds(op, version_tuple(__version__) or (0,), wanted):
            return [
                Problem(
                    at,
                    f"this pack needs sidekit {spec}; this is sidekit {__version__}",
                    "upgrade sidekit-hooks (pip install -U sidekit-hooks), or relax requires",
                )
            ]
    return []


def version_tuple(text: str) -> tuple[int, ...] | None:
    parts = text.split(".")
    if not text or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def _holds(op: str, have: tuple[int, ...], want: tuple[int, ...]) -> bool:
    width = max(len(have), len(want))
    a, b = have + (0,) * (width - len(have)), want + (0,) * (width - len(want))
    if op == "~=":
        return a >= b and have[: len(want) - 1] == want[:-1]
    return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b, "==": a == b, "!=": a != b}[op]
