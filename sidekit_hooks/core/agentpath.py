"""Make `sidekit`, as the nudges and the CLAUDE.md block write it, run in the agent's own shell.

Plugin form: Claude Code puts the plugin's `bin/` on the Bash tool's PATH, and `bin/sidekit` finds
the plugin's environment. Settings form: nothing puts sidekit's venv on that PATH, so the
SessionStart hook writes two lines into `$CLAUDE_ENV_FILE` (which Claude Code sources before every
Bash command of the session): `SIDEKIT_RUNTIME_PYTHON`, the interpreter the hooks run with, and the
checkout's `bin/` (or, with no checkout, the package's `entries/bin/`) in front of PATH. That folder
holds only the `sidekit` launcher, so the venv's python, pip and pytest never shadow the project's
own. Standard library only (SessionStart hot path).
"""

from __future__ import annotations

import os
import sys

from sidekit_hooks.core import safepath

PYTHON_VAR = "SIDEKIT_RUNTIME_PYTHON"  # read by bin/sidekit before it looks for a venv of its own
# plugin form: tells `sidekit doctor` in the agent's shell how it is wired
PLUGIN_VAR = "SIDEKIT_PLUGIN_ROOT"


def launcher_dir() -> str:
    """The folder of the `sidekit` launcher (only it inside): the checkout's `bin/`, else, in an
    install with no checkout (pip, pipx, uv tool), the package's own `entries/bin/`; '' when neither
    has it."""
    import sidekit_hooks
    from sidekit_hooks.core.hook_table import PACKAGED

    package = os.path.dirname(os.path.abspath(sidekit_hooks.__file__))
    for folder in (
        os.path.join(os.path.dirname(package), "bin"),
        os.path.join(package, PACKAGED, "bin"),
    ):
        if os.path.isfile(os.path.join(folder, "sidekit")):
            return folder
    return ""


def env_lines(python: str, folder: str) -> str:
    """What the agent's shell sources: sidekit's interpreter, and its launcher first on PATH."""
    return f'export {PYTHON_VAR}={_quote(python)}\nexport PATH={_quote(folder)}:"$PATH"\n'


def export_for_agent(environ: dict[str, str] | None = None, python: str = "") -> bool:
    """At SessionStart: append the lines to `$CLAUDE_ENV_FILE` (once). True if written.

    Settings form: the interpreter and the launcher's folder. Plugin form: only the plugin's
    folder."""
    env = os.environ if environ is None else environ
    target = env.get("CLAUDE_ENV_FILE", "")
    if not target:
        return False  # not a session start
    plugin = env.get("CLAUDE_PLUGIN_ROOT", "")
    folder = launcher_dir()
    if plugin:  # the plugin's bin/ is on PATH already; say which plugin this session runs
        text = f"export {PLUGIN_VAR}={_quote(plugin)}\n"
    elif folder:
        text = env_lines(python or os.path.abspath(sys.executable), folder)
    else:
        return False
    try:  # the client's file: a regular one, never blocking, bounded
        if text in safepath.read_regular(target, 1 << 20).decode("utf-8", "replace"):
            return False
    except OSError:
        pass
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(text)
    return True


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"
