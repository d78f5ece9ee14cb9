"""The plugin as a new user meets it, through the real Claude Code CLI (2.1.328) with a clean HOME.

- `claude plugin validate --strict --profile directory`: what the plugin directory checks before it
  lists a plugin (licence, author, icon, declared hosts, ...), on the folder and on its manifests.
- `claude plugin marketplace add` then `claude plugin install sidekit-hooks@sidekit`, from a clone
  given by its path (a "directory" marketplace) or by a git URL. The CLI copies the plugin to
  `~/.claude/plugins/cache/sidekit/sidekit-hooks/<version>/` (no `.git`, no `.venv`), which is what
  a session runs for a git marketplace; a directory marketplace's plugin is run where it lies, in
  the clone. `$CLAUDE_PLUGIN_DATA` is `~/.claude/plugins/data/sidekit-hooks-sidekit/`. No
  `--plugin-dir` anywhere: the session finds the plugin through the user's settings. Its first hook
  starts `hooks/bootstrap`, which builds the environment in the data folder; here
  `SIDEKIT_BOOTSTRAP_PIP` stands in for pip (offline: the venv is pointed at the plugin's folder and
  this interpreter's packages instead of downloading them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sysconfig
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from testing.claude import (
    REPO,
    Run,
    ToolCall,
    clean_environment,
    reminder,
    result_text,
    run_claude,
    split_result,
)

PROMPT = "Carry on with the task."
WRITE_OUTSIDE = (
    "[sidecar:scope] lib/util.py is outside this task's scope; if it must change, tell the user."
)
MCP = "mcp__plugin_sidekit-hooks_sidekit__"
PASSED = "✔ Validation passed"
NO_MODEL = "http://127.0.0.1:9"  # the plugin commands reach no model (nothing listens there)

# Stands in for `pip install PLUGIN_ROOT` in hooks/bootstrap: the venv sees the installed plugin
# copy (first, so its sidekit_hooks is the one imported) and the test interpreter's third-party
# packages.
OFFLINE_PIP = """#!/bin/sh
python=$1 root=$2
site=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || exit 1
printf '%s\\n%s\\n' "$root" "$SIDEKIT_TEST_PACKAGES" > "$site/sidekit-offline.pth"
"""


def cli_output(
    cli: Path, *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(cli), *args],
        cwd=cwd,
        env=env or clean_environment(cwd / ".no-home", NO_MODEL),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("target", [".", ".claude-plugin/plugin.json"])
def test_the_plugin_directory_would_take_the_plugin(claude_cli: Path, target: str) -> None:
    done = cli_output(
        claude_cli, "plugin", "validate", "--strict", "--profile", "directory", target, cwd=REPO
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith(PASSED), done.stdout
    assert "✔ These checks found nothing to report" in done.stdout


def test_the_marketplace_manifest_validates(claude_cli: Path) -> None:
    done = cli_output(
        claude_cli, "plugin", "validate", "--strict", ".claude-plugin/marketplace.json", cwd=REPO
    )
    assert (done.returncode, done.stdout.rstrip().splitlines()[-1]) == (0, PASSED), (
        done.stdout + done.stderr
    )


def clone_of_head(dest: Path) -> Path:
    """What `marketplace add` of the repository sees: the committed tree, nothing of this worktree's
    state."""
    subprocess.run(
        ["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True, timeout=120
    )
    return dest


def scoped_project(project: Path, sidekit: Callable[..., str]) -> Path:
    """A git work tree with src/** in scope and lib/util.py outside it, no Claude settings at
    all."""
    subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=30)
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("def main():\n    return 0\n")
    (project / "lib").mkdir()
    (project / "lib" / "util.py").write_text("def helper():\n    return 1\n")
    sidekit("scope", "set", "--allow", "src/**")
    return project / "lib" / "util.py"


def wait_for(path: Path, seconds: float = 90) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not path.exists():
        time.sleep(0.2)
    return path.exists()


def read_then_edit(path: Path) -> list[ToolCall]:
    return [
        ToolCall("Read", {"file_path": str(path)}),
        ToolCall(
            "Edit", {"file_path": str(path), "old_string": "return 1", "new_string": "return 2"}
        ),
    ]


# How `marketplace add` is given the repository: the clone's path (a "directory" marketplace, read
# in place), or a git URL (cloned into ~/.claude/plugins/marketplaces/, as `owner/repo` on GitHub
# would be), which the clean HOME's git configuration maps onto a bare clone: nothing leaves the
# machine.
GIT_URL = "https://sidekit.invalid/sidekit-hooks.git"


@pytest.mark.parametrize("form", ["directory", "git"])
def test_marketplace_install_then_a_session_gets_the_scope_nudge(
    claude_cli: Path, project: Path, sidekit: Callable[..., str], tmp_path: Path, form: str
) -> None:
    clone = clone_of_head(tmp_path / "sidekit-hooks")
    home = tmp_path / "home"
    home.mkdir()
    source = str(clone)
    if form == "git":
        bare = tmp_path / "sidekit-hooks.git"
        subprocess.run(
            ["git", "clone", "-q", "--bare", str(clone), str(bare)], check=True, timeout=120
        )
        (home / ".gitconfig").write_text(f'[url "file://{bare}"]\n\tinsteadOf = {GIT_URL}\n')
        source = GIT_URL
    pip = tmp_path / "offline-pip"
    pip.write_text(OFFLINE_PIP)
    pip.chmod(0o755)
    env = {
        "SIDEKIT_BOOTSTRAP_PIP": str(pip),
        "SIDEKIT_TEST_PACKAGES": sysconfig.get_paths()["purelib"],
        # the agent's `sidekit` must be the plugin's bin/, not this venv's
        "PATH": path_without_sidekit(),
    }
    plugin_cli = {**clean_environment(home, NO_MODEL), **env}

    added = cli_output(
        claude_cli, "plugin", "marketplace", "add", source, cwd=tmp_path, env=plugin_cli
    )
    assert added.returncode == 0 and "Successfully added marketplace: sidekit" in added.stdout, (
        added
    )
    installed = cli_output(
        claude_cli, "plugin", "install", "sidekit-hooks@sidekit", cwd=tmp_path, env=plugin_cli
    )
    assert (
        installed.returncode == 0
        and "Successfully installed plugin: sidekit-hooks@sidekit" in installed.stdout
    )

    record = json.loads((home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    [entry] = record["plugins"]["sidekit-hooks@sidekit"]
    copy = Path(entry["installPath"])
    assert (
        copy
        == home / ".claude" / "plugins" / "cache" / "sidekit" / "sidekit-hooks" / entry["version"]
    )
    assert (
        (copy / "hooks" / "run").is_file()
        and not (copy / ".venv").exists()
        and not (copy / ".git").exists()
    )
    # The plugin runs from the cache copy; a directory marketplace's plugin is read where it lies.
    root = clone if form == "directory" else copy
    data = home / ".claude" / "plugins" / "data" / "sidekit-hooks-sidekit"

    util = scoped_project(project, sidekit)
    (
        project / ".claude"
    ).mkdir()  # the plugin's MCP tools allowed, the folder trusted: nothing else
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": [MCP[:-2]]}})
    )
    trusted = (
        json.loads((home / ".claude.json").read_text()) if (home / ".claude.json").exists() else {}
    )
    trusted.setdefault("projects", {})[str(project)] = {"hasTrustDialogAccepted": True}
    (home / ".claude.json").write_text(json.dumps(trusted))

    # First session: the environment is still building; the hooks run on the standard library
    # meanwhile.
    first = session(claude_cli, project, home, env, read_then_edit(util))
    assert (
        split_result(result_text(first.tool_result(0)))[1] == []
    )  # reading outside the scope is fine
    assert split_result(result_text(first.tool_result(1)))[1] == [
        reminder("PostToolUse:Edit hook additional context", WRITE_OUTSIDE)
    ]
    assert wait_for(data / "venv" / ".sidekit-ready"), (data / "bootstrap.log").read_text()
    log = (data / "bootstrap.log").read_text()
    assert f"building {data}/venv with python3 from {root}\n" in log and log.endswith(" ready\n"), (
        log
    )
    # First-session setup, as `sidekit install` would: the project's state folders git-ignored.
    assert wait_for(project / ".sidekit" / "plugin-setup.json")
    assert ".sidekit/" in (project / ".git" / "info" / "exclude").read_text().splitlines()

    # Next session: the built environment answers for bin/sidekit (on the agent's PATH) and the MCP
    # server.
    steps = [
        ToolCall("Bash", {"command": "sidekit scope show", "description": "scope"}),
        ToolCall(MCP + "scope_show", {}),
    ]
    second = session(
        claude_cli, project, home, dict(env, MCP_CONNECTION_NONBLOCKING="false"), steps
    )
    shown = sidekit("scope", "show")
    assert split_result(result_text(second.tool_result(0)))[0] == shown.rstrip("\n")
    assert first_text(second.tool_result(1)) == shown
    assert second.tool_result(1).get("is_error") is not True


def session(
    cli: Path, project: Path, home: Path, env: dict[str, str], steps: list[ToolCall]
) -> Run:
    done = run_claude(cli, project, PROMPT, steps, session_id=str(uuid.uuid4()), home=home, env=env)
    assert (done.returncode, done.result) == (0, "done"), done.stderr[-3000:]
    return done


def first_text(block: dict[str, object]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    assert isinstance(content, list) and content and content[0].get("type") == "text", content
    return str(content[0]["text"])


def path_without_sidekit() -> str:
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(
        part for part in folders if part and not (Path(part) / "sidekit").exists()
    )
