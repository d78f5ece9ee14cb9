"""Workers that end (#19 Deliver 5): FIFOs, sockets and devices are skipped, links out of the
project are not followed, every background worker has a wall-clock cap, and none outlives its
work."""

from __future__ import annotations

import ast
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from testing.hostile import ROOT, cli, env_for, hook, payload
from testing.parsed import parsed

BACKGROUND_MODULES = (
    "sidekit_hooks.code.function_index",
    "sidekit_hooks.rules.snapshot",
    "sidekit_hooks.detectors.judge",
    "sidekit_hooks.detectors.tests",
    "sidekit_hooks.nudges.city_handoff",
)


def edit(project: Path, path: str) -> dict[str, object]:
    tool_input = {"file_path": path, "old_string": "a", "new_string": "b"}
    return payload(
        "PostToolUse", project, tool_name="Edit", tool_use_id="t1", tool_input=tool_input
    )


def sidekit_processes(folder: Path) -> list[str]:
    """Live sidekit processes tied to `folder` (their cwd, or a path in their environment, lies
    under it)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read().decode(errors="replace")
            with open(f"/proc/{pid}/stat") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if (
            state != "Z"
            and "sidekit_hooks" in cmdline
            and int(pid) != os.getpid()
            and (cwd.startswith(str(folder)) or str(folder) in environ)
        ):
            found.append(f"{pid}: {cmdline.strip()}")
    return found


@pytest.fixture
def hazards(project: Path, tmp_path: Path) -> Iterator[Path]:
    """A project with a FIFO, a socket and a device link named *.py, and a link to code outside
    it."""
    (project / "pkg").mkdir()
    (project / "pkg" / "real.py").write_text("def real_one():\n    return 1\n\n\nreal_one()\n")
    os.mkfifo(project / "pkg" / "fifo.py")
    os.mkfifo(project / "fifo_test.py")
    (project / "pkg" / "zero.py").symlink_to("/dev/zero")
    held = socket.socket(socket.AF_UNIX)
    held.bind(str(project / "pkg" / "sock.py"))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.py").write_text("def leaked_function():\n    return 'outside'\n")
    (project / "pkg" / "leak.py").symlink_to(outside / "secret.py")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    yield project
    held.close()
    for line in sidekit_processes(
        project.parent
    ):  # against an older checkout: leave nothing blocked behind
        os.kill(int(line.split(":")[0]), 9)


@pytest.mark.parametrize(
    "args",
    [
        ["symbol", "real_one"],
        ["usages", "real_one"],
        ["select"],
        ["tests-for", "pkg/real.py"],
        ["blast-radius", "pkg/real.py"],
    ],
)
def test_fifos_sockets_and_devices_never_hang_a_command(hazards: Path, args: list[str]) -> None:
    started = time.monotonic()
    try:
        done = cli(
            *args, "--project", str(hazards), project=hazards, cwd=hazards.parent, timeout=30
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"sidekit {' '.join(args)} hung on a FIFO")
    assert time.monotonic() - started < 30
    assert done.returncode in (0, 1), done.stderr
    if args[0] in ("symbol", "usages"):
        assert "pkg/real.py" in done.stdout, done.stdout


def test_the_index_does_not_follow_a_link_out_of_the_project(hazards: Path) -> None:
    for command in ("symbol", "usages"):
        done = cli(
            command,
            "leaked_function",
            "--project",
            str(hazards),
            project=hazards,
            cwd=hazards.parent,
            timeout=30,
        )
        assert "secret" not in done.stdout and "leak.py" not in done.stdout, done.stdout


def test_the_function_index_worker_ends_on_fifos(hazards: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-P",
            "-S",
            "-m",
            "sidekit_hooks.code.function_index",
            "refresh",
            str(hazards),
        ],
        cwd=hazards.parent,
        env=env_for(hazards, PYTHONPATH=str(ROOT)),
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr


def test_a_hook_on_a_fifo_leaves_no_worker_behind(project: Path) -> None:
    """The case tests/hostile ran into: an Edit of a FIFO named *.py left two refreshers blocked
    forever."""
    assert (
        cli(
            "scope",
            "set",
            "--project",
            str(project),
            "--allow",
            "other/**",
            project=project,
            cwd=project.parent,
        ).returncode
        == 0
    )
    (project / "a.py").write_text("def a():\n    return 1\n")
    os.mkfifo(project / "pipe.py")
    hook("PostToolUse", edit(project, str(project / "pipe.py")), project)
    deadline = time.monotonic() + 20
    while sidekit_processes(project.parent) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = sidekit_processes(project.parent)
    for line in left:
        os.kill(int(line.split(":")[0]), 9)
    assert left == []


def test_a_worker_ends_at_its_wall_clock_cap(project: Path) -> None:
    code = (
        "import sys, time; sys.path.insert(0, sys.argv[1]); from sidekit_hooks.core import "
        "background; "
        "background.wall_clock_cap(); time.sleep(60)"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-P", "-S", "-c", code, str(ROOT)],
        env=env_for(project, SIDEKIT_WORKER_SECONDS="1"),
        timeout=30,
    )
    assert done.returncode == -14  # SIGALRM
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("module", BACKGROUND_MODULES)
def test_every_background_worker_sets_its_cap_first(module: str) -> None:
    tree = parsed((ROOT / (module.replace(".", "/") + ".py")).read_text())
    main_blocks = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
    ]
    assert main_blocks, module
    calls = [ast.unparse(node) for node in ast.walk(main_blocks[0]) if isinstance(node, ast.Call)]
    assert "background.wall_clock_cap()" in calls, calls


def test_every_spawned_module_is_a_capped_worker() -> None:
    spawned = set()
    for path in (ROOT / "sidekit_hooks").rglob("*.py"):
        for node in ast.walk(parsed(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func).endswith("spawn_module")
                and node.args
            ):
                if isinstance(node.args[0], ast.Constant):
                    spawned.add(node.args[0].value)
    assert spawned and spawned <= set(BACKGROUND_MODULES), spawned


def test_a_fifo_named_mcp_json_holds_neither_doctor_nor_install(project: Path) -> None:
    os.mkfifo(project / ".mcp.json")
    try:
        doctor = cli(
            "doctor", "--project", str(project), project=project, cwd=project.parent, timeout=120
        )
        install = cli(
            "install",
            "--project",
            str(project),
            "--mcp",
            project=project,
            cwd=project.parent,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("a FIFO named .mcp.json held sidekit")
    assert "Traceback" not in doctor.stderr + install.stderr
    assert (
        install.returncode != 0
        and "is not a regular file inside the project; nothing was changed" in install.stderr
    )
