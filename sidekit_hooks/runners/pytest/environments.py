"""The recorder inside the project's own test environments: a plain `pytest` there writes the cache.

`sidekit install --project DIR` puts one `.pth` file into each environment's site-packages. It holds
one line, the path of a folder under the project's `.sidekit/` (ignored by git) that contains:

- a link `sidekit_hooks` to this package;
- a shim module that imports the recorder and does nothing when that fails (sidekit moved or
  removed);
- a `*.dist-info` whose `pytest11` entry point names the shim, so pytest loads it like any plugin.

If the folder is gone, Python skips the `.pth` line silently; if the link dangles, the shim is an
empty plugin. Either way the environment's pytest runs as before, only without recording. Nothing
the project tracks is touched; `sidekit uninstall` deletes exactly the `.pth` files listed in
`.sidekit/recorder-envs.json` (when their content is still ours) and the folder.

Standard library only: the PreToolUse hook asks `can_compact` before rewriting a pytest command.
"""

from __future__ import annotations

import os
import sys

from sidekit_hooks.core import launch, safepath, workspace
from sidekit_hooks.runners.pytest import interpreter

SHIM_FOLDER = "pytest-env"  # under .sidekit/
SHIM_MODULE = "sidekit_pytest_shim"
DIST_INFO = "sidekit_pytest_recorder-0.1.0.dist-info"
RECORD_FILE = "recorder-envs.json"
PTH_PREFIX = "sidekit-recorder-"
PACKAGE_DIR = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
)  # sidekit_hooks/

SHIM_SOURCE = '''"""sidekit's pytest recorder for this environment (written by `sidekit install`, removed by `sidekit uninstall`).

When sidekit is moved or removed, or cannot load here, this plugin is empty and pytest runs as before.
"""
try:
    from sidekit_hooks.runners.pytest.plugin import pytest_addoption, pytest_configure  # noqa: F401
except Exception:  # noqa: BLE001 - never break this environment's pytest
    pass
'''
METADATA = "Metadata-Version: 2.1\nName: sidekit-pytest-recorder\nVersion: 0.1.0\nSummary: sidekit's pytest recorder (a link to the sidekit checkout)\n"
ENTRY_POINTS = f"[pytest11]\nsidekit = {SHIM_MODULE}\n"


def shim_dir(project: str) -> str:
    return os.path.join(workspace.state_dir(project), SHIM_FOLDER)


def pth_name(project: str) -> str:
    """One `.pth` per project, so two projects can share an environment and uninstall separately."""
    import hashlib

    digest = hashlib.sha1(os.path.abspath(project).encode("utf-8", "surrogatepass")).hexdigest()[
        :10
    ]
    return f"{PTH_PREFIX}{digest}.pth"


# -- the hook's question -------------------------------------------------------------------------


def records_in(env: str, project: str) -> bool:
    """Whether a plain pytest in `env` loads sidekit's recorder (and so the compact plugin can
    load)."""
    if not env:
        return False
    if interpreter.same_env(interpreter.bin_python(env), sys.executable):
        return True
    site = interpreter.site_packages(env)
    if not site:
        return False
    if os.path.isfile(os.path.join(site, pth_name(project))):
        return os.path.isfile(
            os.path.join(shim_dir(project), "sidekit_hooks", "runners", "pytest", "plugin.py")
        )
    return _has_dist(site)


def _has_dist(site: str) -> bool:
    """sidekit-hooks installed into that environment itself (its own pytest11 entry point)."""
    try:
        return any(
            name.startswith("sidekit_hooks-") and name.endswith(".dist-info")
            for name in os.listdir(site)
        )
    except OSError:
        return False


# -- install / uninstall (CLI) -------------------------------------------------------------------


def targets(project: str) -> list[interpreter.Interpreter]:
    """The project's test environments to wire: every one discovery finds, bar sidekit's own and an
    active `$VIRTUAL_ENV` outside the project (someone else's environment)."""
    project = os.path.abspath(project)
    found: list[interpreter.Interpreter] = []
    for candidate in interpreter.candidates(project):
        env = candidate.env
        if not env or candidate.is_sidekit:
            continue
        if candidate.source == "VIRTUAL_ENV" and not env.startswith(
            project.rstrip(os.sep) + os.sep
        ):
            continue
        if interpreter.site_packages(env) and not any(e.env == env for e in found):
            found.append(candidate)
    return found


def write_shim(project: str) -> None:
    """The folder the `.pth` files point at (rewritten each time: the link follows a moved
    checkout)."""
    folder = shim_dir(project)
    safepath.makedirs(
        os.path.join(folder, DIST_INFO), safepath.anchor_of(folder)
    )  # no link made through a link out
    link = os.path.join(folder, "sidekit_hooks")
    if os.path.realpath(link) != os.path.realpath(PACKAGE_DIR):
        # A new link renamed over the old one: the plugin's setup worker and a hook may wire at
        # once.
        fresh = f"{link}.tmp-{os.getpid()}-{os.urandom(4).hex()}"
        os.symlink(PACKAGE_DIR, fresh)
        try:
            os.replace(fresh, link)
        except OSError:
            os.unlink(fresh)
            raise
    files = {
        SHIM_MODULE + ".py": SHIM_SOURCE,
        os.path.join(DIST_INFO, "METADATA"): METADATA,
        os.path.join(DIST_INFO, "entry_points.txt"): ENTRY_POINTS,
        os.path.join(DIST_INFO, "top_level.txt"): SHIM_MODULE + "\n",
    }
    for name, text in files.items():
        workspace.atomic_write(os.path.join(folder, name), text)


def wire(project: str, chosen: list[interpreter.Interpreter] | None = None) -> list[str]:
    """Wire every target environment (or those `chosen`); returns one line per environment for
    install's report."""
    project = os.path.abspath(project)
    lines: list[str] = []
    wired = _load(project)
    chosen = targets(project) if chosen is None else chosen
    if not chosen:
        return lines
    write_shim(project)
    for candidate in chosen:
        env = candidate.env
        site = interpreter.site_packages(env)
        shown = interpreter.display(env, project)
        if _has_dist(site):
            lines.append(f"pytest in {shown}: records already (sidekit-hooks is installed there)")
            continue
        pth = os.path.join(site, pth_name(project))
        text = shim_dir(project) + "\n"
        if _read(pth) == text:
            lines.append(f"pytest in {shown}: already records")
        else:
            existed = os.path.exists(pth)
            workspace.atomic_write(pth, text)
            lines.append(f"pytest in {shown}: now records ({interpreter.display(pth, project)})")
            if not existed and pth not in wired:
                wired.append(pth)
    _save(project, wired)
    return lines


# -- the plugin form (#18): no `sidekit install`, so the plugin wires what lies inside the project
# ------


def lies_inside(env: str, project: str) -> bool:
    """Whether the environment and the site-packages a `.pth` goes to both resolve inside the
    project."""
    site = interpreter.site_packages(env)
    return bool(site) and safepath.inside(env, project) and safepath.inside(site, project)


def inside_targets(project: str) -> list[interpreter.Interpreter]:
    """The targets the plugin wires: those inside the project, never one a link leads out of it
    to."""
    return [candidate for candidate in targets(project) if lies_inside(candidate.env, project)]


def wire_unrecorded(project: str, python: str = "") -> list[str]:
    """Wire now the environments inside the project that do not record yet: the setup's targets, and
    the one `python` (a run's interpreter) belongs to. Install's lines; [] when every one records
    already."""
    chosen = inside_targets(project)
    env = interpreter.env_of(python) if python else ""
    known = {os.path.realpath(candidate.env) for candidate in chosen}
    if env and os.path.realpath(env) not in known and lies_inside(env, project):
        chosen.append(interpreter.Interpreter(python, "plugin"))
    pending = [candidate for candidate in chosen if not records_in(candidate.env, project)]
    return wire(project, pending) if pending else []


def unwire(project: str) -> list[str]:
    """Remove exactly the `.pth` files install wrote (if still ours) and the shim folder."""
    project = os.path.abspath(project)
    lines: list[str] = []
    text = shim_dir(project) + "\n"
    for pth in _load(project):
        if _read(pth) == text:
            os.unlink(pth)
            lines.append(f"pytest recorder removed from {interpreter.display(pth, project)}")
        elif os.path.exists(pth):
            lines.append(f"{pth} was changed since install; left in place")
    folder = shim_dir(project)
    if os.path.isdir(folder):
        import shutil

        link = os.path.join(folder, "sidekit_hooks")
        if os.path.islink(link):
            os.unlink(link)  # the link itself, never what it points at
        shutil.rmtree(folder, ignore_errors=True)
    record = os.path.join(workspace.state_dir(project), RECORD_FILE)
    if os.path.exists(record):
        os.unlink(record)
    return lines


# -- doctor ----------------------------------------------------------------------------------------

PROBE = (
    "import importlib.metadata as m, sys\n"
    "eps = [e for e in m.entry_points(group='pytest11') if e.name == 'sidekit']\n"
    "try:\n    import pytest\nexcept ImportError:\n    print('no-pytest'); sys.exit()\n"
    "if not eps:\n    print('no-plugin'); sys.exit()\n"
    "mod = eps[0].load()\n"
    "print('records' if hasattr(mod, 'pytest_configure') else 'empty-shim')\n"
)


def probe(python: str, project: str) -> str:
    """What a plain pytest in that interpreter does: records | no-plugin | empty-shim | no-pytest | broken."""
    import subprocess

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    }
    try:
        done = subprocess.run(
            launch.project_code(python, PROBE),
            capture_output=True,
            text=True,
            timeout=30,
            cwd=project,
            env=env,
        )
    except (OSError, subprocess.SubprocessError):
        return "broken"
    words = done.stdout.split()
    return words[-1] if done.returncode == 0 and words else "broken"


def _load(project: str) -> list[str]:
    import json

    try:
        data = json.loads(
            safepath.read_bytes(
                safepath.check(os.path.join(workspace.state_dir(project), RECORD_FILE))
            )
        )
    except (OSError, ValueError):
        return []
    return [str(p) for p in data.get("pth", ())] if isinstance(data, dict) else []


def _save(project: str, paths: list[str]) -> None:
    import json

    path = os.path.join(workspace.state_dir(project), RECORD_FILE)
    if paths:
        workspace.atomic_write(path, json.dumps({"pth": paths}, indent=2) + "\n")


def _read(path: str) -> str:
    """A `.pth` file of an environment ('' when absent, unreadable, not a regular file, over 64
    KB)."""
    try:
        return safepath.read_regular(path, 64 * 1024).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
