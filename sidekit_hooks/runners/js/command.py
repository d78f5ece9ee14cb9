"""Which command lines run vitest or jest, and the options the PreToolUse rewrite appends to them.

Hot path: standard library only, no subprocess, a package.json read at most. A command is one simple
command's words with its environment assignments already stripped. The rewrite only ever APPENDS
options; whether the user's permission rules still judge it as the command written is decided for
every runner in one place (`runners.dispatch.permitted`).

Forms: `vitest run`, `npx vitest run`, `node_modules/.bin/vitest run` (and `--run` for `run`);
`jest`, `npx jest`; `npm test` / `npm run test` / `npm t` when package.json's test script runs the
runner as its last command (options go after `--`, or npm eats them). Recognised but not rewritten,
because how they pass options on was not measured here: `pnpm exec`, `pnpm test`, `yarn`, `yarn
test`, `bunx`.
"""

from __future__ import annotations

import os

LAUNCHERS = {"npx": 1, "bunx": 1}  # launcher -> words before the program
EXEC_FORMS = (("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "exec"), ("npm", "exec"))
PACKAGE_MANAGERS = frozenset({"npm", "pnpm", "yarn"})
TEST_SCRIPTS = (("test",), ("t",), ("run", "test"), ("run-script", "test"), ("tst",))
SCRIPT_WRAPPERS = frozenset({"cross-env", "dotenv", "env"})
MAX_PACKAGE_JSON = 1_000_000
MAX_SETTINGS_BYTES = 4 << 20  # a settings file larger than this is not read (its rules: unknown)


def program_and_args(words: list[str], runner: str) -> tuple[bool, list[str]]:
    """(whether `words` start the runner directly, the runner's own arguments)."""
    if not words:
        return False, []
    head = words[0].rsplit("/", 1)[-1]
    rest = words[1:]
    if head in LAUNCHERS:
        while rest and rest[0].startswith("-"):  # npx --yes vitest run
            if rest[0] in ("-p", "--package"):
                return False, []
            rest = rest[1:]
        return (bool(rest) and _is_program(rest[0], runner)), rest[1:]
    for manager, verb in EXEC_FORMS:
        if head == manager and rest[:1] == [verb]:
            return (len(rest) > 1 and _is_program(rest[1], runner)), rest[2:]
    if head in ("pnpm", "yarn") and rest and _is_program(rest[0], runner):  # `yarn vitest run`
        return True, rest[1:]
    return _is_program(words[0], runner), rest


def _is_program(word: str, runner: str) -> bool:
    name = word.rsplit("/", 1)[-1]
    if name != runner:
        return False
    return (
        "/" not in word
        or word.endswith(f"node_modules/.bin/{runner}")
        or word.startswith(("./", "/"))
    )


def test_script_call(words: list[str]) -> tuple[str, list[str]]:
    """(package manager, words after the script name) for `npm test ...`-like words, else ('',
    [])."""
    if len(words) < 2 or words[0].rsplit("/", 1)[-1] not in PACKAGE_MANAGERS:
        return "", []
    manager = words[0].rsplit("/", 1)[-1]
    for form in TEST_SCRIPTS:
        if tuple(words[1 : 1 + len(form)]) == form:
            return manager, words[1 + len(form) :]
    return "", []


def read_package_json(folder: str) -> dict[str, object]:
    """The folder's package.json ({} when absent, unreadable, too large, or not a regular file
    inside the folder: a package.json linked to /dev/zero or made a FIFO never holds up the
    hook)."""
    import json

    from sidekit_hooks.core import safepath

    raw = safepath.read_project_file(folder, "package.json", MAX_PACKAGE_JSON)
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def test_script(folder: str) -> str:
    scripts = read_package_json(folder).get("scripts")
    script = scripts.get("test") if isinstance(scripts, dict) else None
    return script if isinstance(script, str) else ""


def script_words(script: str, runner: str) -> list[str] | None:
    """The runner's arguments in a test script whose LAST command runs it (`tsc && vitest run`),
    else None.

    Options appended to `npm test --` land at the end of the script, so only then do they reach the
    runner.
    """
    import shlex

    try:
        words = shlex.split(script, comments=False)
    except ValueError:
        return None
    if any(w in (";", "|", "||", "&", "|&") or w.endswith(";") for w in words) or any(
        c in script for c in "`$(<>"
    ):
        return None
    last = words[len(words) - words[::-1].index("&&") :] if "&&" in words else words
    while last and (
        "=" in last[0] and last[0].split("=", 1)[0].isidentifier() or last[0] in SCRIPT_WRAPPERS
    ):
        last = last[1:]
    found, args = program_and_args(last, runner)
    return args if found else None


def runner_args(words: list[str], runner: str, folder: str) -> tuple[str, list[str]] | None:
    """(how it is run: 'direct' or the package manager, the runner's arguments) or None if not this
    runner."""
    direct, args = program_and_args(words, runner)
    # through pnpm, yarn or bunx: recognised, not rewritten (how they pass options on is unmeasured)
    if direct:
        launcher = words[0].rsplit("/", 1)[-1]
        return (launcher if launcher in ("pnpm", "yarn", "bunx") else "direct"), args
    manager, extra = test_script_call(words)
    if not manager:
        return None
    in_script = script_words(test_script(folder), runner)
    if in_script is None:
        return None
    passed = (
        extra[extra.index("--") + 1 :] if "--" in extra else ([] if manager == "npm" else extra)
    )
    return manager, in_script + passed


def rewritable(
    words: list[str], runner: str, project: str, leave_alone: frozenset[str]
) -> tuple[str, list[str]] | None:
    """(how it is run, the runner's arguments) when sidekit may append its options to `words`, else
    None: run directly or through npm (pnpm, yarn and bunx are not measured), no `--` and no option
    of `leave_alone` among the runner's arguments, and `.sidekit/<runner>/` inside the project."""
    found = runner_args(words, runner, project)
    if found is None:
        return None
    how, args = found
    if how in ("pnpm", "yarn", "bunx") or "--" in args:
        return None
    if any(name in leave_alone for name in options(args)):
        return None
    if not report_folder_inside(project, runner):
        return None
    return found


def new_report_path(project: str, runner: str) -> str:
    """A fresh report file under `.sidekit/<runner>/` for one run (runs in parallel never share
    one)."""
    import time

    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime())
    return os.path.join(project, ".sidekit", runner, f"report-{stamp}-{os.urandom(3).hex()}.json")


def report_folder_inside(project: str, runner: str) -> bool:
    """Whether `.sidekit/<runner>/` stays inside the project (a committed symlink could lead it
    out)."""
    from sidekit_hooks.core import safepath

    return safepath.inside(os.path.join(project, ".sidekit", runner), project)


def options(args: list[str]) -> list[str]:
    """The option names among a runner's arguments (`--reporter=json` -> `--reporter`)."""
    return [arg.partition("=")[0] for arg in args if arg.startswith("-")]


def append(words: list[str], how: str, extra: list[str]) -> list[str]:
    """`words` plus `extra`, after a `--` for npm (npm takes options before it for itself)."""
    if how == "npm" and "--" not in words:
        return [*words, "--", *extra]
    return [*words, *extra]


def reporter_path(name: str) -> str:
    """The shipped reporter file, by absolute path (the runner loads it from there, not from the
    project)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def detected(project: str, runner: str, configs: tuple[str, ...], package_key: str = "") -> bool:
    """Whether the project uses the runner: a dependency, the test script naming it, a config file
    of its own, or (jest) its key in package.json."""
    package = read_package_json(project)
    scripts = package.get("scripts")
    script = scripts.get("test") if isinstance(scripts, dict) else ""
    return (
        has_dependency(package, runner)
        or (bool(package_key) and package_key in package)
        or (isinstance(script, str) and runner in script)
        or has_config(project, configs)
    )


def has_dependency(package: dict[str, object], name: str) -> bool:
    for key in ("devDependencies", "dependencies", "peerDependencies"):
        section = package.get(key)
        if isinstance(section, dict) and name in section:
            return True
    return False


def has_config(folder: str, stems: tuple[str, ...]) -> bool:
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return any(
        name.startswith(stems)
        and name.rsplit(".", 1)[-1] in ("js", "mjs", "cjs", "ts", "mts", "cts", "json")
        for name in names
    )
