"""Which Python runs this project's tests: one answer for every command, the hook and doctor.

Order: `--python` (an override), an explicit setting (`$SIDEKIT_PYTHON`, else `python` under
`[tool.sidekit]` in the project's pyproject.toml when it lies inside the project), the project's
`.venv` / `venv`, an active `$VIRTUAL_ENV`, uv's project environment (`$UV_PROJECT_ENVIRONMENT`) and
Poetry's (found the way Poetry names it, without running Poetry or touching the network), and
sidekit's own interpreter last.

Standard library only: the PreToolUse hook asks which environment a Bash pytest runs in. The hook
half (`of_command`) reads no TOML; settings are read by the CLI half.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

SETTING_ENV = "SIDEKIT_PYTHON"
PROJECT_VENVS = (".venv", "venv")
# Where the answer need not name the interpreter: the project's own venv, or sidekit's when there is
# none.
OBVIOUS = frozenset({".venv", "venv", "sidekit", "option"})
MAX_PYPROJECT = 1 << 20


class Interpreter:
    """A Python executable and where the choice came from (`source`)."""

    __slots__ = ("path", "source")

    def __init__(self, path: str, source: str) -> None:
        # absolute, not symlink-resolved: a venv is found through its own bin/python
        self.path = path
        # option | setting | .venv | venv | VIRTUAL_ENV | uv | poetry | sidekit
        self.source = source

    def __repr__(self) -> str:
        return f"Interpreter({self.path!r}, {self.source!r})"

    @property
    def env(self) -> str:
        """The virtual environment folder (holding pyvenv.cfg), or '' for a base interpreter."""
        return env_of(self.path)

    @property
    def is_sidekit(self) -> bool:
        return same_env(self.path, sys.executable)

    def label(self, project: str) -> str:
        """How an answer names it: project-relative inside the project, else the path."""
        return display(self.path, project)


def find(project: str, explicit: str | None = None) -> Interpreter:
    """The interpreter that runs `project`'s tests (see the module docstring for the order)."""
    if explicit:
        return Interpreter(_absolute(explicit, os.getcwd()), "option")
    for found in candidates(project):
        return found
    return Interpreter(os.path.abspath(sys.executable), "sidekit")


def candidates(project: str) -> Iterator[Interpreter]:
    """Every project interpreter that exists, in discovery order (sidekit's own not included)."""
    project = os.path.abspath(project)
    seen: set[str] = set()
    for path, source in _listed(project):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            key = os.path.normpath(path)
            if key not in seen:
                seen.add(key)
                yield Interpreter(path, source)


def _listed(project: str) -> Iterator[tuple[str, str]]:
    setting = os.environ.get(SETTING_ENV, "")
    if setting:
        yield _absolute(setting, project), "setting"
    else:
        named, inside = project_python(project)
        if named and inside:
            yield named, "setting"
    for name in PROJECT_VENVS:
        yield bin_python(os.path.join(project, name)), name
    active = os.environ.get("VIRTUAL_ENV", "")
    if active:
        yield bin_python(active), "VIRTUAL_ENV"
    uv_env = os.environ.get("UV_PROJECT_ENVIRONMENT", "")
    if uv_env:
        yield bin_python(_absolute(uv_env, project)), "uv"
    poetry = poetry_env(project)
    if poetry:
        yield bin_python(poetry), "poetry"


def project_python(project: str) -> tuple[str, bool]:
    """(`python` under `[tool.sidekit]`, made absolute; whether it lies inside the project), ('',
    False) for none. A committed setting never points sidekit outside the project
    (docs/settings.md): one whose folder resolves elsewhere is not used; the user names such an
    interpreter with $SIDEKIT_PYTHON or --python."""
    named = project_setting(project).get("python", "")
    if not isinstance(named, str) or not named.strip():
        return "", False
    from sidekit_hooks.core import safepath

    path = os.path.normpath(
        os.path.join(os.path.abspath(project), named.strip())
    )  # no `~`: the user's home is not the repository's
    return path, safepath.inside(os.path.dirname(path), project)


def project_setting(project: str) -> dict[str, object]:
    """`[tool.sidekit]` of the project's pyproject.toml ({} when absent or unreadable)."""
    raw = pyproject_bytes(project)
    if b"[tool.sidekit]" not in raw:  # most projects: no TOML parse at all
        return {}
    try:
        import tomllib

        data = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}
    table = (data.get("tool") or {}).get("sidekit")
    return table if isinstance(table, dict) else {}


def pyproject_bytes(project: str) -> bytes:
    """The project's pyproject.toml (b"" when absent, unreadable, over MAX_PYPROJECT, or not a
    regular file inside the project: a FIFO or a link to /dev/zero never holds up the PreToolUse
    hook)."""
    from sidekit_hooks.core import safepath

    return safepath.read_project_file(project, "pyproject.toml", MAX_PYPROJECT) or b""


def poetry_env(project: str) -> str:
    """Poetry's environment for `project` when it exists, found as Poetry names it (no
    subprocess)."""
    name = _poetry_name(project)
    if not name:
        return ""
    import base64
    import hashlib
    import re

    cwd = os.path.normcase(os.path.realpath(project))
    digest = base64.urlsafe_b64encode(hashlib.sha256(cwd.encode()).digest()).decode()[:8]
    prefix = re.sub(r'[ $`!*@"\\\r\n\t]', "_", name.lower())[:42] + f"-{digest}-py"
    base = os.environ.get("POETRY_VIRTUALENVS_PATH") or os.path.join(
        os.environ.get("POETRY_CACHE_DIR")
        or os.path.join(os.path.expanduser("~"), ".cache", "pypoetry"),
        "virtualenvs",
    )
    try:
        found = sorted(entry for entry in os.listdir(base) if entry.startswith(prefix))
    except OSError:
        return ""
    return os.path.join(base, found[-1]) if found else ""


def _poetry_name(project: str) -> str:
    raw = pyproject_bytes(project)
    if b"[tool.poetry" not in raw:
        return ""
    try:
        import tomllib

        data = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return ""
    name = ((data.get("tool") or {}).get("poetry") or {}).get("name") or (
        data.get("project") or {}
    ).get("name")
    return name if isinstance(name, str) else ""


# -- environments --------------------------------------------------------------------------------


def bin_python(env: str) -> str:
    return os.path.join(env, "bin", "python")


def env_of(python: str) -> str:
    """The venv holding `python` (its `bin/`'s parent has pyvenv.cfg), else ''."""
    folder = os.path.dirname(os.path.dirname(os.path.abspath(python)))
    return folder if os.path.isfile(os.path.join(folder, "pyvenv.cfg")) else ""


def same_env(first: str, second: str) -> bool:
    """Same environment: venv interpreters are links to one base, so compare folders, not files."""
    return os.path.normpath(os.path.dirname(os.path.abspath(first))) == os.path.normpath(
        os.path.dirname(os.path.abspath(second))
    )


def site_packages(env: str) -> str:
    """`<env>/lib/pythonX.Y/site-packages` of a venv ('' when there is none)."""
    lib = os.path.join(env, "lib")
    try:
        names = sorted(name for name in os.listdir(lib) if name.startswith("python"))
    except OSError:
        return ""
    for name in reversed(names):
        folder = os.path.join(lib, name, "site-packages")
        if os.path.isdir(folder):
            return folder
    return ""


def display(path: str, project: str) -> str:
    project = os.path.abspath(project).rstrip(os.sep) + os.sep
    return path[len(project) :] if path.startswith(project) else path


def _absolute(path: str, base: str) -> str:
    path = os.path.expanduser(path)
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(base, path))
