"""Whole scripted sessions on real projects, through the real Claude Code CLI, with labelled nudges.

Each `tests/sessions/<name>.json` is one session on one project from the package registry (written
by build.py):

    {"package": "boltons==26.2.0",                    # pinned: its sdist (with its tests) is the project
     "requirements": ["freezegun"],                   # what the project's tests need besides pytest
     "prompt": "...", "scope": {"issue": "...", "allow": [...]},   # scope: `sidekit scope set`
     "files": {"sidecar_rules/team.toml": "..."},     # committed before the session (a team's rule pack)
     "wiring": "settings",                            # or "plugin": `claude --plugin-dir` this checkout
     "compact_after": 16,                             # optional: `/compact` after the first 16 calls,
     "resume_prompt": "...",                          #   then the rest in a new turn with this prompt
     "covers": {"copy": 9, "red_run": 12, "out_of_scope": 20},   # steps that carry the corpus' three cases
     "steps": [{"tool": "Read", "input": {"file_path": "${PROJECT}/x.py"}}, ...]}

Its labels are kept apart, in `tests/sessions/<name>.labels.json`, written by a reviewer who did not
write the session, from its transcript (`tests/sessions/transcripts/<name>.md`) and the project's
source:

    {"reviewer": "...", "labels": [{"match": "substring", "label": "useful|noise|wrong", "why": "..."}],
     "misses": [{"step": 12, "what": "...", "why": "..."}]}   # useful findings no sidecar made (visible)

A session without its labels file is pending review: it is played and measured, and the corpus test
fails naming it.

The project is set up the way an agent meets it: the sdist unpacked into a git repository with its
own `.venv` (pytest and the project, installed from the registry), sidekit wired with `sidekit
install` (the settings form) or loaded as a plugin (`--plugin-dir`, the plugin form). A session may
name its project from another registry with `"registry"`:

    {"registry": "npm", "package": "@scope/name@1.2.3", "requirements": ["vitest@2"], ...}
        # the npm package (its tarball, when it ships its tests), with its dependencies and
        `requirements` # installed into node_modules by npm (which git is told to ignore, as the
        project's own clone would)
    {"registry": "go", "package": "github.com/owner/name@v1.2.3", ...}
        # the module's source from the Go module proxy, its own modules downloaded (`go mod
        download`) The scripted model plays the
steps at a model's pace; time is scaled (PACE seconds per call, cooldowns divided by TIME_SCALE), so
a 30 s cooldown meets calls as if they were 10 s apart.

Every nudge the model received (with the prompt, in a tool result, after the turn ended) is matched
to a label (first match wins); an unlabelled one fails the test, so a new nudge is read and judged
before it counts. `score` reports per session: useful delivered / useful available (what the
detectors found, from the decisions log, delivered or held back), wrong nudges, noise per 100 tool
calls, and nudge bytes against tool-result bytes.
"""

from __future__ import annotations

import json
import os
import re
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
LABELS_SUFFIX = ".labels.json"
TRANSCRIPTS = HERE / "transcripts"
RESUME_PROMPT = "Carry on with the task."


@dataclass
class Script:
    name: str
    data: dict[str, Any]
    review: dict[str, Any] | None = None  # the labels file; None: pending review

    @property
    def steps(self) -> list[dict[str, Any]]:
        return list(self.data["steps"])

    @property
    def labelled(self) -> bool:
        return self.review is not None

    @property
    def turns(self) -> list[tuple[int, list[dict[str, Any]]]]:
        """(index of the first step, steps) per turn: one turn, or two around a `/compact`."""
        cut = self.data.get("compact_after")
        steps = self.steps
        return [(0, steps)] if cut is None else [(0, steps[:cut]), (cut, steps[cut:])]

    def label_of(self, text: str) -> dict[str, Any] | None:
        for label in (self.review or {}).get("labels", []):
            if label["match"] in text:
                return dict(label)
        return None


def labels_path(name: str) -> Path:
    return HERE / f"{name}{LABELS_SUFFIX}"


def load(name: str) -> Script:
    review = labels_path(name)
    return Script(
        name,
        json.loads((HERE / f"{name}.json").read_text()),
        json.loads(review.read_text()) if review.exists() else None,
    )


def names() -> list[str]:
    return sorted(
        path.stem for path in HERE.glob("*.json") if not path.name.endswith(LABELS_SUFFIX)
    )


# ---------------------------------------------------------------------------------------------------
# The project, as an agent meets it


REGISTRIES = ("pypi", "npm", "go")


def registry_of(data: dict[str, Any]) -> str:
    """Where a session's project comes from: "pypi" (the default), "npm" or "go"."""
    registry = str(data.get("registry", "pypi"))
    assert registry in REGISTRIES, f"registry {registry!r}: one of {', '.join(REGISTRIES)}"
    return registry


def project_name(data: dict[str, Any]) -> str:
    """The project's name without its version: "humanize==4.17.0" -> "humanize", "name@1.0" ->
    "name"."""
    package = str(data["package"])
    if registry_of(data) == "pypi":
        return package.partition("==")[0].lower()
    return package.rpartition("@")[0].lower()


def download(data: dict[str, Any]) -> Path:
    """The session's project, downloaded once: a PyPI sdist or an npm tarball (a file in .cache), or
    a Go module's source (a folder in the Go module cache)."""
    registry = registry_of(data)
    if registry == "npm":
        return npm_tarball(str(data["package"]))
    if registry == "go":
        return go_module(str(data["package"]))
    return sdist(str(data["package"]))


def npm_tarball(package: str) -> Path:
    """The npm package's tarball (`npm pack`), downloaded once into tests/sessions/.cache."""
    name, _, version = package.rpartition("@")
    CACHE.mkdir(exist_ok=True)
    found = (
        CACHE / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    )  # npm pack's own file name
    if not found.exists():
        subprocess.run(
            ["npm", "pack", package, "--silent", "--pack-destination", str(CACHE)],
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
    return found


def go_module(package: str) -> Path:
    """The Go module's source folder in the module cache (`go mod download`: read-only there)."""
    CACHE.mkdir(exist_ok=True)
    done = subprocess.run(
        ["go", "mod", "download", "-json", package],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=CACHE,
    )
    return Path(json.loads(done.stdout)["Dir"])


def toolchain_env(data: dict[str, Any]) -> dict[str, str]:
    """What the agent's shell needs to find what the setup downloaded: a Go project's module and
    build caches (the session's HOME is its own, so Go's defaults under it would be empty and the
    proxy out of reach)."""
    if registry_of(data) != "go":
        return {}
    done = subprocess.run(
        ["go", "env", "-json", "GOMODCACHE", "GOCACHE"], check=True, capture_output=True, timeout=60
    )
    return {key: str(value) for key, value in json.loads(done.stdout).items()}


def sdist(package: str) -> Path:
    """The package's source distribution (with its tests), downloaded once into
    tests/sessions/.cache."""
    name, _, version = package.partition("==")
    CACHE.mkdir(exist_ok=True)
    stem = name.replace("-", "_").lower()
    for found in CACHE.glob("*.tar.gz"):
        if found.name.lower().replace("-", "_").startswith(
            f"{stem}_{version}".lower()
        ) or found.name.lower().startswith(f"{name.lower()}-{version}"):
            return found
    download = [
        "download",
        "--quiet",
        "--no-deps",
        "--no-binary",
        ":all:",
        "--disable-pip-version-check",
    ]
    subprocess.run(
        [sys.executable, "-m", "pip", *download, package, "-d", str(CACHE)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return sdist(package)


def prepare(script: Script, root: Path, venv: bool = True, time_scale: float = TIME_SCALE) -> Path:
    """Unpack the project into `root`, commit it, install what its tests need (`venv`: the session's
    calls run its tests; a .venv, node_modules or Go's modules), wire sidekit, set the scope; the
    policy's cooldown scaled as a paced call is (`time_scale`)."""
    registry = registry_of(script.data)
    if registry == "go":
        shutil.copytree(download(script.data), root)
        for path in [root, *root.rglob("*")]:  # the module cache is read-only; a checkout is not
            path.chmod(path.stat().st_mode | 0o200)
    else:
        unpack(download(script.data), root)
    for rel, text in script.data.get("files", {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "init", "-q")
    if registry == "npm":  # ignored as the project's own .gitignore ignores it in its repository
        (root / ".git" / "info" / "exclude").write_text("node_modules/\n")
    git(root, "add", "-A")
    message = {"pypi": "sdist", "npm": "npm package", "go": "module"}[registry]
    git(
        root,
        "-c",
        "user.name=corpus",
        "-c",
        "user.email=corpus@example.invalid",
        "commit",
        "-qm",
        message,
    )
    if venv:
        {"pypi": install_venv, "npm": install_node_modules, "go": download_modules}[registry](
            script, root
        )
    if script.data.get("wiring", "settings") == "settings":
        sidekit(
            root, "install", "--project", str(root)
        )  # else the plugin form: `claude --plugin-dir` this checkout
    scope = script.data.get("scope")
    if scope:
        sidekit(root, "scope", "set", "--issue", scope["issue"], "--allow", *scope["allow"])
    # Time scaled with the pace: a 30 s cooldown is 3 s at 1 s per call, as 30 s at 10 s per call.
    rules = root / ".sidekit" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    (rules / "pace.toml").write_text(
        f'[pack]\nname = "session-pace"\n\n[policy]\ncooldown = {30 / time_scale}\n'
    )
    sidekit(
        root, "rules", "lint"
    )  # a pack the policy could not read would leave the cooldown at 30 s
    return root


def unpack(archive_path: Path, root: Path) -> None:
    """A tarball (an sdist, an npm package) unpacked as `root`: its one top folder renamed."""
    with tarfile.open(archive_path) as archive:
        top = archive.getnames()[0].split("/")[0]
        if hasattr(
            tarfile, "data_filter"
        ):  # Python >= 3.11.4: refuse links and paths out of the folder
            archive.extractall(root.parent, filter="data")
        else:  # pragma: no cover - older 3.11: a pinned sdist from the registry
            archive.extractall(root.parent)  # noqa: S202
    (root.parent / top).rename(root)


def install_node_modules(script: Script, root: Path) -> None:
    """node_modules: the package's dependencies and devDependencies, and the script's requirements
    (what its tests need that a monorepo's root would have brought: the runner), without its install
    scripts."""
    subprocess.run(
        [
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--ignore-scripts",
            "--loglevel=error",
        ]
        + list(script.data.get("requirements", [])),
        cwd=root,
        check=True,
        capture_output=True,
        timeout=600,
    )


def download_modules(script: Script, root: Path) -> None:
    """The module's own requirements, downloaded into the module cache the session's shell is
    pointed at."""
    subprocess.run(
        ["go", "mod", "download"],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=600,
        env=go_env(script),
    )


def go_env(script: Script) -> dict[str, str]:
    return dict(os.environ, **toolchain_env(script.data))


def install_venv(script: Script, root: Path) -> None:
    """The project's own .venv: pytest, the script's requirements, the project itself (editable)."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / ".venv")],
        check=True,
        timeout=120,
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(root / ".venv" / "bin" / "python"),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "pytest",
            *script.data.get("requirements", []),
            "-e",
            str(root),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, timeout=60)


def sidekit(root: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sidekit_hooks.cli", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, CLAUDE_PROJECT_DIR=str(root)),
    )
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
    # -1: with the prompt; else the call it came with (or after, for a reminder between calls)
    step: int
    text: str
    label: str = ""
    why: str = ""


@dataclass
class Received:
    """One thing the model received, in order: a call's result, a hook reminder between calls, or
    user text."""

    kind: (
        str  # "call" | "reminder" | "text" | "compact" (where a `/compact` cut the session in two)
    )
    step: int  # the call (for "call"), else the last call before it (-1: none yet)
    body: str  # the tool's own output, the reminder, or the text
    reminders: list[str] = field(default_factory=list)  # a call's hook reminders, in full
    is_error: bool = False


@dataclass
class Result:
    name: str
    calls: int
    delivered: list[Nudge]
    available: dict[
        str, str
    ]  # every finding text the detectors made -> its label ('' when unlabelled)
    result_bytes: int
    nudge_bytes: int
    misses: list[dict[str, Any]] = field(default_factory=list)
    bodies: list[str] = field(
        default_factory=list
    )  # each call's own output, as the model received it
    received: list[Received] = field(default_factory=list)
    pending: bool = False  # no labels file yet: measured, not judged
    decided: dict[str, str] = field(
        default_factory=dict
    )  # finding text -> 'fired' | 'suppressed' (its last word)
    # A `useful` label nothing matched this run: a finding the reviewer expected that no detector
    # made any more.
    lost: list[str] = field(default_factory=list)
    review: dict[str, Any] = field(
        default_factory=dict
    )  # the labels file ({} while pending review)

    def unlabelled(self) -> list[str]:
        texts = [n.text for n in self.delivered if not n.label]
        texts += [text for text, label in self.available.items() if not label]
        return sorted(set(texts))

    def count(self, label: str) -> int:
        return sum(1 for nudge in self.delivered if nudge.label == label)

    @property
    def useful_available(self) -> set[str]:
        return (
            {text for text, label in self.available.items() if label == "useful"}
            | {n.text for n in self.delivered if n.label == "useful"}
            | {f"(lost) {match}" for match in self.lost}
        )

    @property
    def useful_delivered(self) -> set[str]:
        return {n.text for n in self.delivered if n.label == "useful"}

    def expected(self) -> list[tuple[str, str]]:
        """What the reviewer expected: (label match or miss, kind) for each `useful` label and each
        miss. A label's match is the product's own text (a label judges a nudge or a finding); a
        miss is the reviewer's."""
        labels = [
            label
            for label in (self.review.get("labels", []) if self.review else [])
            if label["label"] == "useful"
        ]
        out = [(str(label["match"]), kind_of(str(label["match"]))) for label in labels]
        return out + [
            (f"(miss at call {miss.get('step')}) {miss.get('what', '')}", FIRST)
            for miss in self.misses
        ]

    def expected_delivered(self, kind: str = "") -> tuple[int, int]:
        """(expected findings delivered, expected findings), of one kind (FIRST, REMINDER, PRIMER)
        or all."""
        wanted = [(match, k) for match, k in self.expected() if not kind or k == kind]
        said = [nudge.text for nudge in self.delivered]
        return sum(1 for match, _ in wanted if any(match in text for text in said)), len(wanted)

    @property
    def from_product(self) -> int:
        """Labels whose match is the product's own text this run (delivered, or found and held
        back)."""
        texts = [nudge.text for nudge in self.delivered] + list(self.available)
        labels = self.review.get("labels", []) if self.review else []
        return sum(1 for label in labels if any(str(label["match"]) in text for text in texts))

    @property
    def noise_per_100(self) -> float:
        return 100.0 * self.count("noise") / max(self.calls, 1)

    @property
    def byte_share(self) -> float:
        return self.nudge_bytes / max(self.result_bytes, 1)

    def row(self) -> dict[str, Any]:
        return {
            "session": self.name,
            "calls": self.calls,
            "delivered": len(self.delivered),
            "pending": self.pending,
            "usefulDelivered": len(self.useful_delivered),
            "usefulAvailable": len(self.useful_available),
            "wrong": self.count("wrong"),
            "noise": self.count("noise"),
            "noisePer100": round(self.noise_per_100, 2),
            "lost": len(self.lost),
            "nudgeBytes": self.nudge_bytes,
            "resultBytes": self.result_bytes,
            "byteShare": round(self.byte_share, 4),
            "misses": len(self.misses),
            # Against the reviewer's expectations (useful labels and misses), first findings apart
            # from the Stop and post-compaction reminders and the scope primer (issue #35).
            "expectedDelivered": self.expected_delivered()[0],
            "expected": self.expected_delivered()[1],
            "firstDelivered": self.expected_delivered(FIRST)[0],
            "firstExpected": self.expected_delivered(FIRST)[1],
            "remindersDelivered": sum(1 for n in self.delivered if kind_of(n.text) == REMINDER),
            "primersDelivered": sum(1 for n in self.delivered if kind_of(n.text) == PRIMER),
            "labels": len(self.review.get("labels", [])) if self.review else 0,
            "labelsFromProduct": self.from_product,
        }


FIRST, REMINDER, PRIMER = "first", "reminder", "primer"
REMINDER_LEADS = (
    "Still there as you finish: ",
    "Still open from before the compaction: ",
)  # lifecycle.AT_STOP, AFTER_COMPACT
PRIMER_LEAD = "This task's scope"  # lifecycle.scope_primer


def kind_of(text: str) -> str:
    """A nudge (or a label's match) is a reminder of an earlier finding, the scope primer, or a
    first finding."""
    if any(lead in text for lead in REMINDER_LEADS):
        return REMINDER
    return PRIMER if PRIMER_LEAD in text else FIRST


def nudge_lines(reminder: str) -> list[str]:
    """The `[sidecar:...]` lines of one hook reminder (its label line stripped)."""
    body = reminder.removeprefix("<system-reminder>\n").removesuffix("\n</system-reminder>")
    _, _, text = body.partition(": ")
    return [
        line for line in text.splitlines() if line.startswith(("[sidecar:", "[from ", "[URGENT"))
    ]


REMINDER_BLOCK = re.compile(
    r"<system-reminder>\n.*?\n</system-reminder>", re.DOTALL
)  # not REMINDER: a kind


def text_parts(text: str) -> tuple[str, list[str]]:
    """A user text block -> (its own text, the hook reminders in it). The client's own reminders are
    dropped."""
    from testing.claude import HOOK_TEXT

    hooks = [found for found in REMINDER_BLOCK.findall(text) if HOOK_TEXT.match(found)]
    return REMINDER_BLOCK.sub("", text).strip(), hooks


def blocks_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content", "")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [block for block in content if isinstance(block, dict)]


def received_in(run: Any, offset: int, count: int) -> list[Received]:
    """Everything the model received in one `claude -p` run whose calls are steps
    offset..offset+count-1."""
    from testing.claude import HOOK_TEXT, result_text, split_result, tool_use_id

    ids = {tool_use_id(index): offset + index for index in range(count)}
    out: list[Received] = []
    last = offset - 1
    for message in run.final_messages():
        for block in blocks_of(message):
            if message.get("role") == "assistant":
                last = (
                    ids.get(str(block.get("id")), last) if block.get("type") == "tool_use" else last
                )
            elif block.get("type") == "tool_result" and block.get("tool_use_id") in ids:
                body, reminders = split_result(result_text(block))
                out.append(
                    Received(
                        "call",
                        ids[str(block["tool_use_id"])],
                        body,
                        [r for r in reminders if HOOK_TEXT.match(r)],
                        bool(block.get("is_error")),
                    )
                )
            elif block.get("type") == "text":
                text, hooks = text_parts(str(block.get("text", "")))
                if text:
                    out.append(Received("text", last, text))
                out += [Received("reminder", last, hook) for hook in hooks]
    return out


def collect(script: Script, runs: list[tuple[int, Any]], root: Path, session_id: str) -> Result:
    """`runs`: (index of the turn's first step, its `claude -p` run), one per turn."""
    steps = script.steps
    received: list[Received] = []
    for (offset, run), (_, turn) in zip(runs, script.turns, strict=True):
        received += [Received("compact", offset - 1, "")] if offset else []
        received += received_in(run, offset, len(turn))
    calls = [item for item in received if item.kind == "call"]
    assert [item.step for item in calls] == list(range(len(steps))), (
        f"{script.name}: the model received results for steps {[item.step for item in calls]}, "
        f"not for each of the {len(steps)} steps once"
    )
    delivered: list[Nudge] = []
    nudge_bytes = 0
    for item in received:
        reminders = (
            item.reminders
            if item.kind == "call"
            else [item.body]
            if item.kind == "reminder"
            else []
        )
        for reminder in reminders:
            nudge_bytes += len(reminder.encode())
            delivered += [Nudge(item.step, line) for line in nudge_lines(reminder)]
    for nudge in delivered:
        label = script.label_of(nudge.text)
        if label:
            nudge.label, nudge.why = label["label"], label.get("why", "")
    available: dict[str, str] = {}
    decided: dict[str, str] = {}
    for record in decisions(root, session_id):
        text = str(record.get("text", ""))
        if (
            record.get("decision") in ("fired", "suppressed")
            and record.get("sidecar") != "policy"
            and text
        ):
            label = script.label_of(text)
            available[text] = label["label"] if label else ""
            decided[text] = str(record["decision"])
    bodies = [item.body for item in calls]
    lost = lost_findings(script, [n.text for n in delivered] + list(available))
    return Result(
        script.name,
        len(steps),
        delivered,
        available,
        sum(len(b.encode()) for b in bodies),
        nudge_bytes,
        list((script.review or {}).get("misses", [])),
        bodies,
        received,
        not script.labelled,
        decided,
        lost,
        script.review or {},
    )


def lost_findings(script: Script, found: list[str]) -> list[str]:
    """The `useful` labels that match none of the findings made this run (delivered or held
    back)."""
    return [
        label["match"]
        for label in (script.review or {}).get("labels", [])
        if label["label"] == "useful" and not any(label["match"] in text for text in found)
    ]


def decisions(root: Path, session_id: str) -> list[dict[str, Any]]:
    path = root / ".sidekit" / "log" / "decisions.jsonl"
    if not path.exists():
        return []
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [record for record in records if record.get("session") == session_id]


def table(results: list[Result]) -> str:
    """The per-project table for the closing note and docs/sessions.md (a pending session is
    measured, not judged)."""
    head = (
        "| session | tool calls | nudges delivered (reminders, primers) | useful delivered / "
        "available | "
        "expected delivered / expected | first findings delivered / expected | wrong | noise / "
        "100 calls | "
        "nudge bytes / tool-result bytes | known misses | labels from the product's text |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|"
    )
    lines = [head]
    for result in results:
        row = result.row()
        judged = (
            f"{row['usefulDelivered']} / {row['usefulAvailable']} | {row['expectedDelivered']} / "
            f"{row['expected']} | "
            f"{row['firstDelivered']} / {row['firstExpected']} | {row['wrong']} | "
            f"{row['noisePer100']:.1f}"
            if not result.pending
            else "pending review | - | - | - | -"
        )
        lines.append(
            f"| {row['session']} | {row['calls']} | {row['delivered']} "
            f"({row['remindersDelivered']}, "
            f"{row['primersDelivered']}) | {judged} | {row['nudgeBytes']} / "
            f"{row['resultBytes']} ({100 * row['byteShare']:.1f}%) | "
            f"{row['misses'] if not result.pending else '-'} | "
            f"{row['labelsFromProduct'] if not result.pending else '-'} of {row['labels']} |"
        )
    return "\n".join(lines)


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)


# ---------------------------------------------------------------------------------------------------
# The transcript a reviewer labels from

HEAD_LINES, TAIL_LINES, LINE_CHARS = (
    30,
    30,
    1500,
)  # a tool's output: its head and tail, long lines cut
# a call's input is shown whole up to this (an Edit's new code is what a reviewer reads)
INPUT_CHARS = 6000


def clip(text: str) -> str:
    """A tool's output as the transcript shows it: head and tail kept, what was cut said with its
    size."""
    lines = [
        line
        if len(line) <= LINE_CHARS
        else f"{line[:LINE_CHARS]}… (+{len(line) - LINE_CHARS} chars)"
        for line in text.splitlines()
    ]
    if len(lines) <= HEAD_LINES + TAIL_LINES:
        return "\n".join(lines)
    cut = lines[HEAD_LINES:-TAIL_LINES]
    return "\n".join(
        [
            *lines[:HEAD_LINES],
            f"… ({len(cut)} lines, {len(chr(10).join(cut).encode())} bytes cut) …",
            *lines[-TAIL_LINES:],
        ]
    )


def fenced(text: str, lang: str = "text") -> str:
    fence = "````" if "```" in text else "```"
    return f"{fence}{lang}\n{text}\n{fence}"


def call_line(step: dict[str, Any]) -> str:
    data = step["input"]
    if step["tool"] == "Bash":
        return f"Bash `{data['command']}`"
    if step["tool"] in ("Read", "Edit", "Write"):
        extra = "".join(f", {key} {data[key]}" for key in ("offset", "limit") if key in data)
        return f"{step['tool']} `{data['file_path'].replace('${PROJECT}/', '')}`{extra}"
    return f"{step['tool']} `{json.dumps(data, ensure_ascii=False)}`"


def names_checkout(result: Result) -> bool:
    """Whether what the model received names this checkout (a command sidekit rewrote points at its
    files)."""
    return any(
        str(REPO) in item.body or any(str(REPO) in r for r in item.reminders)
        for item in result.received
    )


def transcript(script: Script, result: Result, root: Path) -> str:
    """What the model received at each step, as Markdown: prompt, every call with its (clipped)
    result, every hook reminder in full, and what the detectors found but did not deliver."""
    data, steps = script.data, script.steps
    covers = data.get("covers", {})
    cut = data.get("compact_after")
    status = (
        f"labelled (`tests/sessions/{script.name}{LABELS_SUFFIX}`)"
        if script.labelled
        else f"**PENDING REVIEW**: no `tests/sessions/{script.name}{LABELS_SUFFIX}` yet"
    )
    scope = data.get("scope") or {}
    out = [
        f"# Session `{script.name}`: {data['package']}, {data.get('wiring', 'settings')} form",
        "",
        f"- Task (the prompt): {data['prompt']}",
        f"- Scope set before the session: `{scope.get('issue', '-')}`, allow "
        + ", ".join(f"`{path}`" for path in scope.get("allow", [])),
        f"- {len(steps)} tool calls"
        + (
            f"; `/compact` after call {cut - 1}, then the prompt "
            f'"{data.get("resume_prompt", RESUME_PROMPT)}"'
            if cut is not None
            else ""
        ),
        "- The corpus' cases: "
        + ", ".join(f"{case.replace('_', ' ')} at call {index}" for case, index in covers.items()),
        "- Team rule files committed with the project: "
        + (", ".join(f"`{f}`" for f in data.get("files", {})) or "none"),
        f"- Labels: {status}",
        f"- Received: {len(result.delivered)} nudge lines, {result.nudge_bytes} nudge bytes "
        "against "
        f"{result.result_bytes} tool-result bytes ({100 * result.byte_share:.1f}%)",
        "",
        "Tool outputs are clipped to their first and last lines (the cut is said); call inputs "
        "and every hook "
        "reminder are shown in full. `${PROJECT}` is the project's folder, `${TMP}` the test's "
        "temporary "
        "folder" + (", `${SIDEKIT}` the sidekit checkout." if names_checkout(result) else "."),
        "",
    ]
    for item in result.received:
        if item.kind == "call":
            step = steps[item.step]
            out += [f"## Call {item.step}: {call_line(step)}", ""]
            if step["tool"] in ("Edit", "Write") or len(json.dumps(step["input"])) > 200:
                shown = json.dumps(step["input"], indent=1, ensure_ascii=False)
                shown = (
                    shown if len(shown) <= INPUT_CHARS else shown[:INPUT_CHARS] + "\n… (input cut)"
                )
                out += [fenced(shown, "json"), ""]
            size = len(item.body.encode())
            out += [
                f"Result ({size} bytes{', an error' if item.is_error else ''}):",
                "",
                fenced(clip(item.body)),
                "",
            ]
            for reminder in item.reminders:
                out += [
                    f"**Hook reminder** ({len(reminder.encode())} bytes):",
                    "",
                    fenced(reminder),
                    "",
                ]
        elif item.kind == "compact":
            out += [
                "## `/compact`",
                "",
                f"The user compacted the conversation after call {item.step}; what follows is "
                "the next turn, as the model received it (the summary first).",
                "",
            ]
        elif item.kind == "reminder":
            where = "with the prompt" if item.step < 0 else f"after call {item.step}"
            out += [
                f"**Hook reminder {where}** ({len(item.body.encode())} bytes):",
                "",
                fenced(item.body),
                "",
            ]
        else:
            where = "The prompt" if item.step < 0 else f"User message after call {item.step}"
            out += [f"**{where}:**", "", fenced(clip(item.body)), ""]
    delivered = {nudge.text for nudge in result.delivered}
    held = [text for text in result.available if text not in delivered]
    out += ["## Found by the detectors but not delivered", ""]
    out += [f"- ({result.decided.get(text, '?')}) {text}" for text in held] or ["- nothing"]
    if script.labelled:
        out += ["", "## Labels", ""]
        out += [
            f"- call {n.step}: **{n.label or 'UNLABELLED'}** {n.text}" for n in result.delivered
        ]
        out += [
            f"- miss at call {m.get('step')}: {m.get('what')} ({m.get('why')})"
            for m in result.misses
        ]
        out += [
            f"- lost: a `useful` label matched nothing this run: `{match}`" for match in result.lost
        ]
    text = "\n".join(out).rstrip() + "\n"
    # A path cut short inside a message still starts with pytest's base folder: that part goes too.
    return (
        text.replace(
            str(REPO), "${SIDEKIT}"
        )  # this checkout, where a rewritten command names sidekit's own files
        .replace(str(root), "${PROJECT}")
        .replace(str(root.parent), "${TMP}")
        .replace(str(root.parent.parent), "${TMP}/..")
    )
