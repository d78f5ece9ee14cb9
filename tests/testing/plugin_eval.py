"""Run the plugin's eval suite (`evals/`) through the real `claude plugin eval` against a scripted
model.

`claude plugin eval` (Claude Code 2.1.328) runs each case twice, with the plugin and with no plugin,
each run a `claude` child in its own temporary home (`<tmp>/claude-eval-*/home/cwd` is the
workspace), and honours `ANTHROPIC_BASE_URL`, so the same scripted model as the other e2e tests can
play every run. The model picks a case's script by a phrase of the case's prompt (`CASE_MARKERS`).

Facts found by trying it (docs/evals.md):
- a granted shell tool needs the OS sandbox (bubblewrap and socat on Linux), else every run is
  refused;
- the suite's folder may hold no symbolic link to a folder nor a hard-linked file; and when the
  plugin's own folder is named `evals` (as a worktree can be) the whole plugin folder is screened
  that way, so this repository (its `sidecar_rules` link, the cached CLI's hard link) cannot be the
  target. The test therefore evaluates a *view* of the plugin: a folder that links to each part the
  plugin ships and holds a plain copy of `evals/` and `.claude-plugin/`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from testing.claude import REPO, ScriptedModel, Step, clean_environment

EVAL_TIMEOUT = 900.0  # seconds for the whole suite, one run per arm per case
# What a plugin install carries (the parts `claude --plugin-dir` loads and the hooks run).
PLUGIN_PARTS = (
    ".mcp.json",
    ".venv",
    "bin",
    "hooks",
    "sidekit_hooks",
    "sidecar_rules",
    "pyproject.toml",
    "install.sh",
)
GRANTED = ("Bash", "Write", "Edit", "Read")
# Outside /tmp (see run_suite), and short: the run's sandbox makes its bridge sockets under the
# run's folder, and a Unix socket's path has at most 107 bytes ("Failed to create bridge sockets"
# past that). Removed after the test.
RUNS_FOLDER = Path.home() / ".cache" / "sk-eval"


def suite_cases(root: Path = REPO) -> list[str]:
    """The case folders of the suite, as `claude plugin eval` finds them (`evals/*/case.yaml`)."""
    return sorted(path.parent.name for path in (root / "evals").glob("*/case.yaml"))


def plugin_view(folder: Path, repo: Path = REPO) -> Path:
    """`folder/sidekit-hooks`: links to the plugin's parts, plain copies of its manifest and its
    suite."""
    view = folder / "sidekit-hooks"
    view.mkdir(parents=True)
    for part in PLUGIN_PARTS:
        if (repo / part).exists():
            (view / part).symlink_to((repo / part).resolve())
    shutil.copytree(repo / ".claude-plugin", view / ".claude-plugin")
    shutil.copytree(
        repo / "evals", view / "evals", symlinks=False, ignore=shutil.ignore_patterns("results")
    )
    return view


class CaseModel(ScriptedModel):
    """One scripted model for the whole suite: each conversation plays the script of the case whose
    marker its first user message holds (an unknown prompt ends the turn at once, visibly)."""

    def __init__(self, scripts: Mapping[str, Sequence[Step]]) -> None:
        super().__init__([])
        self.scripts = {marker: list(steps) for marker, steps in scripts.items()}

    def reply_to(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        messages = body.get("messages") or [{}]
        opening = json.dumps(messages[0].get("content", ""))
        for marker, steps in self.scripts.items():
            if marker in opening:
                self.steps = steps
                return super().reply_to(body)
        self.steps = ["scripted model: no script for this prompt"]
        return super().reply_to(body)


@dataclass
class ArmRun:
    """One run of one case in one arm, as the eval's JSON result and its kept folder say."""

    case: str
    arm: str
    error: str | None
    verdicts: dict[str, bool]  # grader name -> passed
    trace: str  # the run's stream-json trace
    workspace: Path  # the run's workspace, kept (--keep-temp)


@dataclass
class SuiteRun:
    returncode: int
    stderr: str
    result: dict[str, Any]
    runs: list[ArmRun]

    def arm(self, case: str, arm: str) -> ArmRun:
        found = [run for run in self.runs if run.case == case and run.arm == arm]
        assert len(found) == 1, f"{case}/{arm}: {len(found)} runs\n{self.stderr[-3000:]}"
        return found[0]


def run_suite(
    cli: Path,
    plugin: Path,
    scripts: Mapping[str, Sequence[Step]],
    home: Path,
    out: Path,
    runs: Path,
    *extra: str,
) -> SuiteRun:
    """`claude plugin eval PLUGIN --scaffold --runs 1 ...` with every case played by `scripts`; each
    run's folder goes under `runs`, which must not be under /tmp: the run's sandbox denies writes to
    /tmp (`denyWrite: //tmp` in the settings it writes), so a workspace there is read-only to
    Bash."""
    home.mkdir(parents=True, exist_ok=True)
    runs.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    argv = [
        str(cli),
        "plugin",
        "eval",
        str(plugin),
        "--trust-plugin",
        "--scaffold",
        "--no-publish",
        "--keep-temp",
        "--runs",
        "1",
        "--threshold",
        "0",
        "--json",
        str(out / "result.json"),
        "--output-dir",
        str(out / "results"),
        "--report",
        str(out / "report.html"),
        "--allow-tools",
        *GRANTED,
        *extra,
    ]
    with CaseModel(scripts) as model:
        env = clean_environment(home, model.base_url)
        env["TMPDIR"] = str(
            runs
        )  # where the eval makes (and, with --keep-temp, keeps) each run's folder
        done = subprocess.run(
            argv,
            cwd=out,
            env=env,
            capture_output=True,
            text=True,
            timeout=EVAL_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    result = json.loads((out / "result.json").read_text()) if (out / "result.json").exists() else {}
    return SuiteRun(done.returncode, done.stderr, result, list(arm_runs(result)))


def arm_runs(result: dict[str, Any]) -> list[ArmRun]:
    runs = []
    for case in result.get("cases", []):
        for arm, attempts in case.get("arms", {}).items():
            for attempt in attempts:
                trace = Path(attempt.get("tracePath") or "/nonexistent")
                runs.append(
                    ArmRun(
                        case["name"],
                        arm,
                        attempt.get("error"),
                        {
                            grader["name"]: bool(grader["passed"])
                            for grader in attempt.get("graders", [])
                        },
                        trace.read_text(errors="replace") if trace.is_file() else "",
                        trace.parent.parent / "home" / "cwd",
                    )
                )
    return runs


def remove_kept(folder: Path) -> None:
    """The kept run folders are closed (modes) by the eval: open them again, then remove them."""
    for root, dirs, _files in os.walk(folder):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
    shutil.rmtree(folder, ignore_errors=True)
