"""Talk to `sidekit mcp` the way a client does: the official MCP SDK's client over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from testing.hooks import SIDEKIT

GIT = [
    "git",
    "-c",
    "user.email=t@example.invalid",
    "-c",
    "user.name=t",
    "-c",
    "commit.gpgsign=false",
]

SMALL_PROJECT = {
    "pytest.ini": "[pytest]\n",
    "calc/__init__.py": "",
    "calc/ops.py": """\
        def add(a, b):
            return a + b


        def mul(a, b):
            total = 0
            for _ in range(b):
                total = add(total, a)
            return total
        """,
    "calc/report.py": """\
        from calc.ops import add, mul


        def summary(a, b):
            return f"{add(a, b)} {mul(a, b)}"
        """,
    "tests/test_ops.py": """\
        from calc.ops import add, mul


        def test_add():
            assert add(2, 3) == 5


        def test_mul():
            assert mul(2, 3) == 7
        """,
    "tests/test_report.py": """\
        from calc.report import summary


        def test_summary():
            assert summary(2, 3) == "5 6"
        """,
}


def write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def make_project(root: Path, files: dict[str, str] | None = None) -> Path:
    write(root, SMALL_PROJECT if files is None else files)
    (root / ".gitignore").write_text(".sidekit/\n__pycache__/\n")
    subprocess.run([*GIT, "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", "fixture"], cwd=root, check=True)
    return root


def environment() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE_", "GT_", "PYTEST_", "SIDEKIT_"))
    }
    env["PYTEST_ADDOPTS"] = "-p no:hypothesispytest -p no:anyio -p no:xdist -p no:randomly"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SIDEKIT, *args], cwd=root, env=environment(), capture_output=True, text=True, timeout=120
    )


@asynccontextmanager
async def connect(root: Path) -> AsyncIterator[Any]:
    """An initialised ClientSession with `sidekit mcp --project ROOT` (its cwd is ROOT too, as in
    Claude Code)."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "sidekit_hooks.cli", "mcp", "--project", str(root)],
        env=environment(),
        cwd=str(root),
    )
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write_):
            async with ClientSession(read, write_) as session:
                await session.initialize()
                yield session


def text_of(result: Any) -> str:
    """The one text item a sidekit tool answers with."""
    assert len(result.content) == 1, result.content
    assert result.content[0].type == "text"
    return str(result.content[0].text)


def wire_size(tools: list[Any]) -> int:
    """Bytes of the tool definitions as tools/list serialises them (compact JSON)."""
    listed = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in tools]
    return len(json.dumps(listed, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def processes_in(root: Path) -> list[str]:
    """Command lines of live processes whose working directory is ROOT (or below it)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (cwd == str(root) or cwd.startswith(str(root) + "/")):
            found.append(f"{pid}: {cmdline}")
    return found
