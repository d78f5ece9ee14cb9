"""`pip install` / `pipx install` / `uv tool install` of sidekit-hooks, with no checkout anywhere.

A wheel is built from a copy of the sources and installed into a fresh venv far from this checkout.
That venv's `sidekit install --project P` wires hooks that run the package it holds with its own
interpreter (`-I -S` on the entry scripts the wheel carries, sidekit_hooks/entries/); a hook started
the way Claude Code starts it says the scope nudge; `sidekit uninstall` gives P back as it was.

Offline: the wheel is built without build isolation (setuptools from the dev extras), and the fresh
venv borrows its third-party dependencies (pydantic, rapidfuzz, tomli-w, mcp) from this
interpreter's site-packages through a `.pth` instead of downloading them. That folder holds no
sidekit_hooks (this checkout reaches the test interpreter through an editable-install `.pth`, which
a path named in another `.pth` does not process); the test checks both.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from sidekit_hooks.cli.wiring import settings_merge
from sidekit_hooks.core import agentpath
from testing.hooks import REPO, context_of, edited, payload
from testing.runs import CHECKOUT_ONLY, plugin_copy, run_text, through_sh

pytestmark = pytest.mark.slow

WRITE_OUTSIDE = (
    "[sidecar:scope] lib/util.py is outside this task's scope; if it must change, tell the user."
)
# the user's own, in their own layout
USER_SETTINGS = '{\n    "permissions": {"allow": ["Bash(ls)"]}\n}\n'
USER_IGNORES = "node_modules/\n"
# On the hook's PYTHONPATH: a sidekit_hooks that refuses to be imported. Isolated mode never reads
# it.
TRAP = 'raise SystemExit("imported the sidekit_hooks on PYTHONPATH")\n'


def build_wheel(tmp: Path) -> Path:
    source = plugin_copy(
        tmp / "source",
        *CHECKOUT_ONLY,
        "tests",
        "build",
        "dist",
        ".plugin-*",
        ".sidekit-plugin-data",
    )
    dist = tmp / "dist"
    built = run_text(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(source),
        ],
        cwd=tmp,
        env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"),
        timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = dist.glob("sidekit_hooks-*.whl")
    return wheel


def fresh_venv(folder: Path, wheel: Path) -> tuple[Path, Path]:
    """(its python, its site-packages) with the wheel installed and the dependencies lent."""
    venv.create(folder, with_pip=True, symlinks=True)
    python = folder / "bin" / "python"
    installed = run_text(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        cwd=folder,
        env={"PATH": os.environ["PATH"], "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        timeout=300,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    site = Path(
        run_text([str(python), "-I", "-c", PURELIB], cwd=folder, env={}, timeout=60).stdout.strip()
    )
    lent = sysconfig.get_paths()["purelib"]
    assert not (
        Path(lent) / "sidekit_hooks"
    ).exists()  # the lent folder cannot stand in for the wheel
    (site / "lent-dependencies.pth").write_text(lent + "\n")
    return python, site


PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


def snapshot(root: Path, skip: tuple[str, ...] = ()) -> dict[str, bytes | None]:
    """Every folder (None) and file (its bytes) under `root`, by relative path, less the `skip`
    folders."""
    found: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] in skip:
            continue
        found[relative] = None if path.is_dir() else path.read_bytes()
    return found


def test_a_wheel_installed_with_no_checkout_wires_working_hooks_and_takes_them_back(
    tmp_path: Path,
) -> None:
    wheel = build_wheel(tmp_path / "build")
    python, site = fresh_venv(tmp_path / "tools" / "sidekit-hooks", wheel)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "sidekit_hooks").mkdir(parents=True)
    (elsewhere / "sidekit_hooks" / "__init__.py").write_text(TRAP)
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": f"{python.parent}:/usr/bin:/bin", "HOME": str(home)}
    located = run_text(
        [str(python), "-c", "import sidekit_hooks; print(sidekit_hooks.__file__)"],
        cwd=home,
        env=env,
        timeout=60,
    )
    assert located.stdout == f"{site}/sidekit_hooks/__init__.py\n"

    project = tmp_path / "P"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("def main():\n    return 0\n")
    (project / "lib").mkdir()
    (project / "lib" / "util.py").write_text("def helper():\n    return 1\n")
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(USER_SETTINGS)
    (project / ".gitignore").write_text(USER_IGNORES)

    def sidekit(*args: str) -> str:
        done = run_text([str(python.parent / "sidekit"), *args], cwd=home, env=env, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    sidekit("scope", "set", "--allow", "src/**", "--project", str(project))
    before = snapshot(project)

    # Install then uninstall: the project byte for byte as it was, folders included.
    sidekit("install", "--project", str(project))
    sidekit("uninstall", "--project", str(project))
    assert snapshot(project) == before
    bare = tmp_path / "bare"  # no .claude/, .sidekit/ or .gitignore before: none after
    (bare / "src").mkdir(parents=True)
    sidekit("install", "--project", str(bare))
    sidekit("uninstall", "--project", str(bare))
    assert snapshot(bare) == {"src": None}

    sidekit("install", "--project", str(project))
    text = (project / ".claude" / "settings.json").read_text()
    assert str(REPO) not in text
    settings = json.loads(text)
    assert settings["permissions"] == {"allow": ["Bash(ls)"]}
    entries = site / "sidekit_hooks" / "entries"
    wanted = settings_merge.wanted_handlers(str(python), str(entries), "-I -S")
    assert sorted(
        handler["command"] for _event, handler in settings_merge.marked_handlers(settings)
    ) == sorted(handler["command"] for handler in wanted.values())
    [post_tool_use] = [
        handler["command"]
        for event, handler in settings_merge.marked_handlers(settings)
        if event == "PostToolUse"
    ]
    assert post_tool_use == (
        f"{shlex.quote(str(python))} -I -S {shlex.quote(str(entries / 'post_tool_use.py'))} "
        f"{settings_merge.MARKER}"
    )

    # The hook as Claude Code runs it: `sh -c` on the command, the event on stdin, in the project,
    # with a PYTHONPATH whose sidekit_hooks would stop it.
    event = edited(project, "lib/util.py", "return 1", "return 2", "def helper():\n    return 1\n")
    hook_env = dict(env, CLAUDE_PROJECT_DIR=str(project), PYTHONPATH=str(elsewhere))
    done = through_sh(post_tool_use, event, cwd=project, env=hook_env, timeout=30)
    assert (done.returncode, done.stderr) == (0, "")
    assert context_of(done.stdout) == WRITE_OUTSIDE
    (project / "lib" / "util.py").write_text(
        "def helper():\n    return 1\n"
    )  # the edit undone by hand

    # SessionStart puts the package's own launcher on the agent's PATH: `sidekit` answers in a shell
    # that has neither the venv nor this checkout on its PATH.
    [session_start] = [
        handler["command"]
        for event, handler in settings_merge.marked_handlers(settings)
        if event == "SessionStart"
    ]
    env_file = tmp_path / "claude-env.sh"
    started = payload("SessionStart", project, source="startup")
    done = through_sh(
        session_start,
        started,
        cwd=project,
        env=dict(hook_env, CLAUDE_ENV_FILE=str(env_file)),
        timeout=30,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert env_file.read_text() == agentpath.env_lines(str(python), str(entries / "bin"))
    agent_shell = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CLAUDE_PROJECT_DIR": str(project)}
    shown = run_text(
        ["/bin/sh", "-c", f". {shlex.quote(str(env_file))}; sidekit scope show"],
        cwd=project,
        env=agent_shell,
        timeout=60,
    )
    assert (shown.returncode, shown.stdout) == (
        0,
        sidekit("scope", "show", "--project", str(project)),
    )

    sidekit("uninstall", "--project", str(project))
    # What install wrote is gone; the hook's own state (.sidekit/, .runtime/: logs, the session's
    # records) stays, as after any session, and what the project held there before is untouched.
    state = (".sidekit", ".runtime")
    assert snapshot(project, skip=state) == {
        k: v for k, v in before.items() if k.split("/")[0] not in state
    }
    assert all(snapshot(project)[k] == v for k, v in before.items())
