"""PreToolUse on Bash: a raw pytest run reaches the model as the compact answer, not 30 KB of dots.

The command is rewritten (`updatedInput`) by appending one plain pytest option, `-o
sidekit_compact=true`, to the very command the agent wrote: same interpreter, arguments (byte for
byte), working directory and exit code. The client judges the rewritten command again, so it is
rewritten only when every Bash rule in reach (each settings layer, and the flags the client was
started with) judges both commands alike (`runners.permissions`, applied to every runner's rewrite
by `dispatch.pre_tool_use`), and only where sidekit's plugin will load (`runners.plugin_loads`). The
recorder plugin then loads `runners.pytest.compact`, which keeps pytest's output in a file under
`.sidekit/pytest/` and, when it is longer than about 2 KB, prints the compact answer instead. An ini
override rather than `-p`: in an environment where sidekit does not load after all (the shell found
another `python` than the hook did), pytest only warns about an unknown option and runs as written.

Rewritten: `pytest`, `py.test`, `python[3[.X]] -m pytest`, a venv's `bin/pytest` or `bin/python -m
pytest`, `uv run pytest`, `poetry run pytest`, after `cd DIR &&` and environment assignments.
Left alone: anything else in the command line (pipes, redirections, `;`, `||`, substitutions,
comments), `--collect-only` (every spelling), `--help`, `--version`, `-s`, `--pdb`, `--trace`, `-p no:sidekit`, a
`SIDEKIT_RAW=1` prefix, a project with `compact-pytest = false` under `[tool.sidekit]`, and any
environment where the recorder does not load (the plugin could not either).

Standard library only, and nothing at all is imported for a command that never says "pytest".
"""

from __future__ import annotations

import os

from sidekit_hooks.runners.pytest import environments, interpreter

OPTION = "sidekit_compact"
APPENDED = f" -o {OPTION}=true"
# The old name of `SIDEKIT_COMPACT=0` (dispatch.OFF_ENV, every runner's rewrite), for pytest's
# alone: still works.
OLD_OFF_ENV = "SIDEKIT_COMPACT_PYTEST"
SETTING = "compact-pytest"
# pytest options after which the run is not one to compact (output the user asked for as it is).
LEAVE_ALONE = frozenset(
    {
        "--collect-only",
        "--collectonly",
        "--co",
        "--help",
        "-h",
        "--version",
        "-V",
        "--pdb",
        "--trace",
        "--pdbcls",
        "-s",
        "--capture=no",
        "--setup-plan",
        "--setup-only",
        "--setup-show",
        "--fixtures",
        "--funcargs",
        "--markers",
        "--fixtures-per-test",
        "--",
        "--sw-skip",
    }
)
# Short options that take a value: in a cluster such as `-rs` the rest is that value, not `-s`.
SHORT_WITH_VALUE = frozenset("kmpcnoWr")
PYTHON_NAMES = ("python", "python3")


def wired_then_rewritten(command: str, cwd: str, project: str) -> str:
    """pytest's own rewrite (runners.OWN_REWRITES), after the plugin form has wired the project's
    environments (wire_for_plugin)."""
    wire_for_plugin(command, cwd, project)
    return rewrite(command, cwd, project)


def rewrite(command: str, cwd: str, project: str) -> str:
    """`command` with the compact plugin appended, or '' to leave it alone (before the permission
    judgment, which `dispatch.pre_tool_use` applies to every rewrite)."""
    if OPTION in command or "pytest_compact" in command:
        return ""
    if os.environ.get(OLD_OFF_ENV, "") == "0":
        return ""
    run = parse_run(command, cwd)
    if run is None:
        return ""
    python, args, rundir = run
    env = interpreter.env_of(python)
    if not environments.records_in(env, project) or not enabled(project):
        return ""
    from sidekit_hooks.runners.pytest import plugin_loads as plugin_loads

    if not plugin_loads.plugin_loads(args, rundir):
        return ""
    # Only the shell's own blanks are trimmed: a trailing \r, \v, \f, NBSP or U+2028 is part of an
    # argument. The permission rules judge this proposal in dispatch.pre_tool_use, as every
    # runner's.
    return command.rstrip(" \t") + APPENDED


def wire_for_plugin(command: str, cwd: str, project: str) -> None:
    """Plugin form (#18): a plugin user never ran `sidekit install`, and the first session's setup
    (pipeline/plugin_setup.py) may not have run yet when the first raw run comes. So before a Bash
    command that names pytest, the environments inside the project (links resolved) that do not
    record yet are wired, as install would: a `.pth` and a small folder under `.sidekit/`. Rewritten
    or left as written (a pipe, `-s`, `compact-pytest = false`), the run then records, as in the
    settings form."""
    from sidekit_hooks.core import hooklog, pluginform

    if not pluginform.plugin_root():
        return
    try:
        environments.wire_unrecorded(project, interpreter_of(command, cwd))
    except OSError as exc:
        hooklog.error(project, "PreToolUse", "plugin-setup", exc)


def interpreter_of(command: str, cwd: str) -> str:
    """The Python a plain pytest command line runs in ('' when it is not one to rewrite)."""
    run = parse_run(command, cwd)
    return run[0] if run else ""


def parse_run(command: str, cwd: str) -> tuple[str, list[str], str] | None:
    """(interpreter, pytest's arguments, the folder it runs in) for a plain pytest command line,
    else None."""
    from sidekit_hooks.runners.dispatch import plain_run

    plain = plain_run(
        command
    )  # `cd DIR &&`, assignments and words, as every runner's rewrite reads them
    if plain is None:
        return None
    folders, assignments, words = plain
    for folder in folders:  # only `cd DIR &&` before the run
        if folder == "-":
            return None
        cwd = os.path.normpath(os.path.join(cwd, os.path.expanduser(folder)))
    path_env = os.environ.get("PATH", "")
    for name, value in assignments:
        if name in (
            "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
            "PYTEST_ADDOPTS",
            "VIRTUAL_ENV",
            "PYTEST_PLUGINS",
        ):
            return None
        if name == "PATH":
            path_env = value
    if len(words) < 1:
        return None
    python, rest = _runner(words, cwd, path_env)
    if not python or not _plain_run(rest):
        return None
    return python, rest, cwd


def _runner(words: list[str], cwd: str, path_env: str) -> tuple[str, list[str]]:
    """(interpreter, pytest's arguments) for the forms we know, else ('', [])."""
    head = words[0]
    name = head.rsplit("/", 1)[-1]
    if head in ("uv", "poetry") and len(words) >= 3 and words[1] == "run":
        env = _runner_env(head, cwd)
        inner = words[2:]
        if not env:
            return "", []
        if inner[0] in ("pytest", "py.test"):
            return interpreter.bin_python(env), inner[1:]
        if inner[0] in PYTHON_NAMES and inner[1:3] == ["-m", "pytest"]:
            return interpreter.bin_python(env), inner[3:]
        return "", []
    if name in ("pytest", "py.test"):
        script = _locate(head, cwd, path_env)
        return (os.path.join(os.path.dirname(script), "python") if script else ""), words[1:]
    if (name in PYTHON_NAMES or (name.startswith("python3.") and name[8:].isdigit())) and words[
        1:3
    ] == [
        "-m",
        "pytest",
    ]:
        return _locate(head, cwd, path_env), words[3:]
    return "", []


def _runner_env(tool: str, cwd: str) -> str:
    """The environment `uv run` / `poetry run` uses for the project around `cwd` (no network, no
    subprocess)."""
    root = cwd
    while not os.path.isfile(os.path.join(root, "pyproject.toml")):
        parent = os.path.dirname(root)
        if parent == root:
            return ""
        root = parent
    if tool == "uv" and os.environ.get("UV_PROJECT_ENVIRONMENT"):
        return os.path.join(root, os.path.expanduser(os.environ["UV_PROJECT_ENVIRONMENT"]))
    local = os.path.join(root, ".venv")
    if os.path.isfile(os.path.join(local, "pyvenv.cfg")):
        return local
    return interpreter.poetry_env(root) if tool == "poetry" else ""


def _locate(program: str, cwd: str, path_env: str) -> str:
    """Where the shell finds `program`: a path relative to `cwd`, else the first match on PATH."""
    if "/" in program:
        found = os.path.normpath(os.path.join(cwd, os.path.expanduser(program)))
        return found if os.path.isfile(found) else ""
    for folder in path_env.split(os.pathsep):
        candidate = os.path.join(folder or ".", program)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate if os.path.isabs(candidate) else os.path.join(cwd, candidate)
    return ""


def _plain_run(args: list[str]) -> bool:
    """Whether pytest's arguments ask for an ordinary run (no debugger, no live output, no
    listing)."""
    previous = ""
    for arg in args:
        if (previous == "-p" and arg in ("no:sidekit", "no:terminal")) or (
            previous == "--capture" and arg == "no"
        ):
            return False
        previous = arg
        if (
            arg in LEAVE_ALONE
            or "no:sidekit" in arg
            or arg.startswith(("--capture=no", "--pdbcls=", "--help"))
        ):
            return False
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2:
            for char in arg[1:]:
                if char in SHORT_WITH_VALUE:
                    break
                if char in "shV":
                    return False
    return True


def enabled(project: str) -> bool:
    """`compact-pytest = false` under `[tool.sidekit]` in pyproject.toml turns the rewrite off for
    the project."""
    return interpreter.project_setting(project).get(SETTING, True) is not False
