"""Whole scripted sessions on real projects, through the real Claude Code CLI, with labelled nudges.

Each `tests/sessions/<name>.json` is one session on one project from the package registry:

    {"package": "boltons==26.2.0",                    # pinned: its sdist (with its tests) is the project
     "prompt": "...", "scope": {"issue": "...", "allow": [...]},   # scope: `sidekit scope set`
     "files": {"sidecar_rules/team.toml": "..."},     # committed before the session (a team's rule pack)
     "wiring": "settings",                            # or "plugin": `claude --plugin-dir` this checkout
     "steps": [{"tool": "Read", "input": {"file_path": "${PROJECT}/x.py"}}, ...],
     "labels": [{"match": "substring", "label": "useful|noise|wrong", "why": "..."}],
     "misses": [{"step": 12, "what": "...", "why": "..."}]}   # useful findings no sidecar made (visible)

The project is set up the way an agent meets it: the sdist unpacked into a git repository with its own
`.venv` (pytest and the project, installed from the registry), sidekit wired with `sidekit install`
(the settings form) or loaded as a plugin (`--plugin-dir`, the plugin form). The scripted model plays the steps at a model's pace; time is scaled (PACE seconds
per call, cooldowns divided by TIME_SCALE), so a 30 s cooldown meets calls as if they were 10 s apart.

Every nudge the model received is matched to a label (first match wins); an unlabelled one fails the
test, so a new nudge is read and judged before it counts. `score` reports per session: useful delivered
/ useful available (what the detectors found, from the decisions log, delivered or held back), wrong
nudges, noise per 100 tool calls, and nudge bytes against tool-result bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CACHE = HERE / ".cache"  # downloaded sdists (ignored by git)
PACE = 1.0  # seconds the scripted model takes per call
TIME_SCALE = 10.0  # one paced second stands for TIME_SCALE seconds of a real session
LABELS = ("useful", "noise", "wrong")


@dataclass
class Script:
    name: str
    data: dict[str, Any]

    @property
    def steps(self) -> list[dict[str, Any]]:
        return list(self.data["steps"])

    def label_of(self, text: str) -> dict[str, Any] | None:
        for label in self.data.get("labels", []):
            if label["match"] in text:
                return dict(label)
        return None


def load(name: str) -> Script:
    return Script(name, json.loads((HERE / f"{name}.json").read_text()))


def names() -> list[str]:
    return sorted(path.stem for path in HERE.glob("*.json"))


# ---------------------------------------------------------------------------------------------------
# The project, as an agent meets it


def sdist(package: str) -> Path:
    """The package's source distribution (with its tests), downloaded once into tests/sessions/.cache."""
    name, _, version = package.partition("==")
    CACHE.mkdir(exist_ok=True)
    stem = name.replace("-", "_").lower()
    for found in CACHE.glob("*.tar.gz"):
        if found.name.lower().replace("-", "_").startswith(f"{stem}_{version}".lower()) or \
                found.name.lower().startswith(f"{name.lower()}-{version}"):
            return found
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                    "--disable-pip-version-check", package, "-d", str(CACHE)], check=True, capture_output=True,
                   timeout=300)
    return sdist(package)


def prepare(script: Script, root: Path) -> Path:
    """Unpack the sdist into `root`, commit it, give it its own .venv, wire sidekit, set the scope."""
    with tarfile.open(sdist(script.data["package"])) as archive:
        top = archive.getnames()[0].split("/")[0]
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: refuse links and paths out of the folder
            archive.extractall(root.parent, filter="data")
        else:  # pragma: no cover - older 3.11: a pinned sdist from the registry
            archive.extractall(root.parent)  # noqa: S202
    (root.parent / top).rename(root)
    for rel, text in script.data.get("files", {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=corpus", "-c", "user.email=corpus@example.invalid", "commit", "-qm", "sdist")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")], check=True, timeout=120)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(root / ".venv" / "bin" / "python"), "install",
                    "--quiet", "--disable-pip-version-check", "pytest", "-e", str(root)],
                   check=True, capture_output=True, timeout=600)
    if script.data.get("wiring", "settings") == "settings":
        sidekit(root, "install", "--project", str(root))  # else the plugin form: `claude --plugin-dir` this checkout
    scope = script.data.get("scope")
    if scope:
        sidekit(root, "scope", "set", "--issue", scope["issue"], "--allow", *scope["allow"])
    # Time scaled with the pace: a 30 s cooldown is 3 s at 1 s per call, as 30 s at 10 s per call.
    rules = root / ".sidekit" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    (rules / "pace.toml").write_text(f'[pack]\nname = "session-pace"\n\n[policy]\ncooldown = {30 / TIME_SCALE}\n')
    sidekit(root, "rules", "lint")  # a pack the policy could not read would leave the cooldown at 30 s
    return root


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, timeout=60)


def sidekit(root: Path, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "sidekit_hooks.cli", *args], cwd=root, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, CLAUDE_PROJECT_DIR=str(root)))
    assert done.returncode == 0, f"sidekit {' '.join(args)}: {done.stderr}"
    return done.stdout


def expand(value: Any, root: Path) -> Any:
    """`${PROJECT}` in a step's input -> the project's path."""
    if isinstance(value, str):
        return value.replace("${PROJECT}", str(root))
    if isinstance(value, list):
        return [expand(item, root) for item in value]
    if isinstance(value, dict):
        return {key: expand(item, root) for key, item in value.items()}
    return value


# ---------------------------------------------------------------------------------------------------
# What the model received, labelled and scored


@dataclass
class Nudge:
    step: int  # -1: with the prompt
    text: str
    label: str = ""
    why: str = ""


@dataclass
class Result:
    name: str
    calls: int
    delivered: list[Nudge]
    available: dict[str, str]  # every finding text the detectors made -> its label ('' when unlabelled)
    result_bytes: int
    nudge_bytes: int
    misses: list[dict[str, Any]] = field(default_factory=list)
    bodies: list[str] = field(default_factory=list)  # each call's own output, as the model received it

    def unlabelled(self) -> list[str]:
        texts = [n.text for n in self.delivered if not n.label] + [t for t, label in self.available.items() if not label]
        return sorted(set(texts))

    def count(self, label: str) -> int:
        return sum(1 for nudge in self.delivered if nudge.label == label)

    @property
    def useful_available(self) -> set[str]:
        return {text for text, label in self.available.items() if label == "useful"} | {
            n.text for n in self.delivered if n.label == "useful"}

    @property
    def useful_delivered(self) -> set[str]:
        return {n.text for n in self.delivered if n.label == "useful"}

    @property
    def noise_per_100(self) -> float:
        return 100.0 * self.count("noise") / max(self.calls, 1)

    @property
    def byte_share(self) -> float:
        return self.nudge_bytes / max(self.result_bytes, 1)

    def row(self) -> dict[str, Any]:
        return {"session": self.name, "calls": self.calls, "usefulDelivered": len(self.useful_delivered),
                "usefulAvailable": len(self.useful_available), "wrong": self.count("wrong"),
                "noise": self.count("noise"), "noisePer100": round(self.noise_per_100, 2),
                "nudgeBytes": self.nudge_bytes, "resultBytes": self.result_bytes,
                "byteShare": round(self.byte_share, 4), "misses": len(self.misses)}


def nudge_lines(reminder: str) -> list[str]:
    """The `[sidecar:...]` lines of one hook reminder (its label line stripped)."""
    body = reminder.removeprefix("<system-reminder>\n").removesuffix("\n</system-reminder>")
    _, _, text = body.partition(": ")
    return [line for line in text.splitlines() if line.startswith(("[sidecar:", "[from ", "[URGENT"))]


def collect(script: Script, run: Any, root: Path, session_id: str) -> Result:
    from testing.claude import HOOK_TEXT, prompt_reminders, result_text, split_result

    delivered: list[Nudge] = []
    result_bytes = nudge_bytes = 0
    for reminder in prompt_reminders(run.prompt_blocks()):
        nudge_bytes += len(reminder.encode())
        delivered += [Nudge(-1, line) for line in nudge_lines(reminder)]
    steps = script.steps
    bodies: list[str] = []
    for index in range(len(steps)):
        body, reminders = split_result(result_text(run.tool_result(index)))
        bodies.append(body)
        result_bytes += len(body.encode())
        for reminder in reminders:
            if not HOOK_TEXT.match(reminder):
                continue  # the client's own reminders (e.g. after a Read) are not ours to count
            nudge_bytes += len(reminder.encode())
            delivered += [Nudge(index, line) for line in nudge_lines(reminder)]
    for nudge in delivered:
        label = script.label_of(nudge.text)
        if label:
            nudge.label, nudge.why = label["label"], label.get("why", "")
    available: dict[str, str] = {}
    for record in decisions(root, session_id):
        text = str(record.get("text", ""))
        if record.get("decision") in ("fired", "suppressed") and record.get("sidecar") != "policy" and text:
            label = script.label_of(text)
            available[text] = label["label"] if label else ""
    return Result(script.name, len(steps), delivered, available, result_bytes, nudge_bytes,
                  list(script.data.get("misses", [])), bodies)


def decisions(root: Path, session_id: str) -> list[dict[str, Any]]:
    path = root / ".sidekit" / "log" / "decisions.jsonl"
    if not path.exists():
        return []
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [record for record in records if record.get("session") == session_id]


def table(results: list[Result]) -> str:
    """The per-project table for the closing note and docs/sessions.md."""
    head = ("| session | tool calls | useful delivered / available | wrong | noise / 100 calls | nudge bytes / "
            "tool-result bytes | known misses |\n|---|---|---|---|---|---|---|")
    lines = [head]
    for result in results:
        row = result.row()
        lines.append(f"| {row['session']} | {row['calls']} | {row['usefulDelivered']} / {row['usefulAvailable']} | "
                     f"{row['wrong']} | {row['noisePer100']:.1f} | {row['nudgeBytes']} / {row['resultBytes']} "
                     f"({100 * row['byteShare']:.1f}%) | {row['misses']} |")
    return "\n".join(lines)


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)
