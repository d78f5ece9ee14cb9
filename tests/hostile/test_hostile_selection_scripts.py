"""TypeScript selection (`sidekit select`, `sidekit tests-for` for vitest) reads only the workspace:
a tsconfig `extends` or a package.json that leads outside is not followed, a FIFO in their place
does not hang it, and it still answers from the imports it can see (old main answered `all` for
vitest)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from testing.code import GIT
from testing.hostile import cli

FILES = {
    "package.json": '{"name":"app","private":true,"devDependencies":{"vitest":"*"}}\n',
    # the aliases live outside the workspace: following them would read a file sidekit must not
    # touch
    # shared/: a link to a folder outside
    "tsconfig.json": '{"extends": "./shared/tsconfig.json"}\n',
    "src/parse.ts": "export const parse = (s: string) => s;\n",
    "src/other.ts": "export const other = 1;\n",
    "test/parse.test.ts": "import { parse } from '../src/parse';\ntest('p', () => parse('a'));\n",
    "test/alias.test.ts": "import { parse } from '@outside/parse';\ntest('a', () => parse('a'));\n",
    "test/other.test.ts": "import { other } from '../src/other';\ntest('o', () => other);\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "tsconfig.json").write_text(
        '{"compilerOptions":{"baseUrl":"..","paths":{"@outside/*":["src/*"]}}}'
    )
    (outside / "package.json").write_text('{"name":"@outside/parse","main":"../src/parse.ts"}\n')
    (root / "shared").symlink_to(outside, target_is_directory=True)
    (root / "vendor").mkdir()
    (root / "vendor" / "package.json").symlink_to(
        outside / "package.json"
    )  # a link out of the workspace
    (root / "fifo").mkdir()
    os.mkfifo(root / "fifo" / "package.json")  # a FIFO where a package.json would be: must not hang
    (root / ".gitignore").write_text(".sidekit/\nfifo/\n")
    for argv in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fixture"]):
        subprocess.run([*GIT, *argv], cwd=root, check=True, capture_output=True)
    return root


def test_tests_for_follows_no_alias_from_outside_the_workspace(project: Path) -> None:
    done = cli("tests-for", "src/parse.ts", "--project", str(project), project=project, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == {
        "runner": "vitest",
        "files": ["test/parse.test.ts"],
        "basis": "imports",
    }


def test_select_follows_no_link_out_and_does_not_hang_on_a_fifo(project: Path) -> None:
    (project / "src" / "parse.ts").write_text("export const parse = (s: string) => s + '!';\n")
    done = cli("select", "--project", str(project), project=project, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == {
        "runner": "vitest",
        "changed": 1,
        "files": ["test/parse.test.ts"],
        "ofFiles": 3,
        "basis": "imports",
    }


def test_control_select_of_an_unchanged_workspace_selects_nothing(project: Path) -> None:
    done = cli("select", "--project", str(project), project=project, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert json.loads(done.stdout)["runner"] == "vitest"
