"""Whether sidekit's pytest plugin will load in a run: the rewrite's `-o sidekit_compact=true` is
only harmless where it does (elsewhere `--strict-config` or `filterwarnings = error` turn the
unknown option into a failed run).

It will not when `-p no:sidekit` is anywhere pytest reads options (the command line,
`PYTEST_ADDOPTS`, `addopts` of any ini file pytest may pick from the run's folder upwards:
pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg), or when plugin autoload is off and `-p
sidekit` is not given. An explicit `-c`/`--config-file`/`--rootdir` is read the same way. Wider than
pytest on purpose: a mention in any section of any of those files counts. Standard library only (hot
path).
"""

from __future__ import annotations

import os

BLOCKED = "no:sidekit"
INI_NAMES = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
CONFIG_FLAGS = ("-c", "--config-file", "--inifile", "--rootdir")
AUTOLOAD_OFF = "PYTEST_DISABLE_PLUGIN_AUTOLOAD"
MAX_INI_BYTES = 1 << 20


def plugin_loads(args: list[str], rundir: str, environ: dict[str, str] | None = None) -> bool:
    """Whether the recorder loads for `pytest ARGS` started in `rundir` (False when unsure)."""
    env = os.environ if environ is None else environ
    extra = _words(env.get("PYTEST_ADDOPTS", ""))
    if extra is None:
        return False
    every = [*extra, *args]
    if any(BLOCKED in arg for arg in every):
        return False
    if env.get(AUTOLOAD_OFF) and not _named(every):
        return False
    from sidekit_hooks.core import safepath

    for path in ini_candidates(every, rundir):
        try:  # a regular file, never blocking: a FIFO named pytest.ini is unsure, not a hang
            text = safepath.read_regular(path, MAX_INI_BYTES)
        except FileNotFoundError:
            continue
        except OSError:  # unreadable, too large, a FIFO or a device: unsure
            return False
        if BLOCKED.encode() in text or b"PYTEST_DISABLE_PLUGIN_AUTOLOAD" in text:
            return False
    return True


def _words(text: str) -> list[str] | None:
    """Shell words of `PYTEST_ADDOPTS` (pytest splits it like a shell); None when unsure."""
    from sidekit_hooks.core.shell import tokenize

    words: list[str] = []
    for kind, word in tokenize(text):
        if kind == "op" or word.unclosed:
            return None
        words.append(word.text)
    return words


def _named(args: list[str]) -> bool:
    """`-p sidekit` (or `-psidekit`): pytest loads the plugin by name even with autoload off."""
    previous = ""
    for arg in args:
        if (previous == "-p" and arg == "sidekit") or arg == "-psidekit":
            return True
        previous = arg
    return False


def ini_candidates(args: list[str], rundir: str) -> list[str]:
    """Every ini file pytest could read for this run: named ones, and those in each folder upwards
    from the run's folder and from each path argument's folder."""
    named: list[str] = []
    starts = [rundir]
    previous = ""
    for arg in args:
        flag, eq, value = arg.partition("=")
        if previous in CONFIG_FLAGS:
            named.append(arg)
        elif eq and flag in CONFIG_FLAGS:
            named.append(value)
        elif not arg.startswith("-"):
            path = os.path.join(rundir, os.path.expanduser(arg.split("::")[0]))
            starts.append(path if os.path.isdir(path) else os.path.dirname(path))
        previous = arg
    found = [os.path.join(rundir, os.path.expanduser(path)) for path in named]
    for path in named:  # --rootdir names a folder: its ini files count
        folder = os.path.join(rundir, os.path.expanduser(path))
        if os.path.isdir(folder):
            found.extend(os.path.join(folder, name) for name in INI_NAMES)
    for start in dict.fromkeys(os.path.abspath(s) for s in starts):
        folder = start
        while True:
            found.extend(os.path.join(folder, name) for name in INI_NAMES)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
    return [path for path in dict.fromkeys(found) if not os.path.isdir(path)]
