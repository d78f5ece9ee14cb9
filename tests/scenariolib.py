"""The labelled scenario corpus (`tests/scenarios/*.jsonl`): load, play through the hook, score.

One JSON object per line:

    {"name": "scope-edit-outside",              # unique within its file
     "session": "scope-walk",                   # optional: lines sharing it share one project and session,
                                                #   played in file order (a name starting "clean" marks a
                                                #   clean session: ordinary work that must yield no nudge)
     "files": {"auth/middleware.py": "..."},    # optional: written into the project first
     "scope": {"issue": "gt-abc12", "allow": ["api/**"], "deny": []},   # optional: `sidekit scope set`
     "tool": "Edit", "input": {...}, "response": {...},   # a compact step (playback.build_payload), or
     "event": "PostToolUse", "payload": {...},  # a full payload; "${PROJECT}" is the project's path
     "expect": [{"sidecar": "scope", "contains": "auth/middleware.py"}],  # or [] for "no nudge at all";
                                                #   "text" = exact line; a bare "scope" = any scope nudge
     "xfail": "why"}                            # optional: a known miss (counted in the scores)

A case passes when every expectation matches one nudge the hook delivered and no other nudge came.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sidekit_hooks.cli.playback import Player, build_payload, sidecar_of, write_files
from sidekit_hooks.detectors.scope import model as scope_model

CORPUS = Path(__file__).resolve().parent / "scenarios"


@dataclass
class Case:
    file: str
    line: int
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data.get("name") or f"line{self.line}")

    @property
    def expect(self) -> list[dict[str, str]]:
        return [{"sidecar": item} if isinstance(item, str) else dict(item) for item in self.data.get("expect", [])]


@dataclass
class Group:
    file: str
    name: str
    cases: list[Case] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return self.name.startswith("clean")

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}"


@dataclass
class Outcome:
    case: Case
    nudges: list[str]
    missing: list[dict[str, str]]
    unexpected: list[str]
    matched: list[str]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.unexpected


def load_groups(folder: Path = CORPUS) -> list[Group]:
    groups: list[Group] = []
    for path in sorted(folder.glob("*.jsonl")):
        by_name: dict[str, Group] = {}
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not text.strip() or text.lstrip().startswith("//"):
                continue
            data = json.loads(text)
            case = Case(path.name, number, data)
            key = str(data.get("session") or f"{case.name}")
            if key not in by_name:
                by_name[key] = Group(path.name, key)
                groups.append(by_name[key])
            by_name[key].cases.append(case)
    return groups


def play_group(group: Group, root: Path | None = None, in_process: bool = True) -> list[Outcome]:
    """Run a group's cases in order in a fresh project; return each case's outcome."""
    tmp = tempfile.mkdtemp(prefix="sidekit-scenario-", dir=root)
    try:
        project = Path(tmp) / "proj"
        project.mkdir()
        player = Player(str(project), f"scn-{group.name}"[:100], in_process=in_process)
        outcomes = []
        for case in group.cases:
            write_files(str(project), case.data.get("files") or {})
            if case.data.get("scope"):
                spec = case.data["scope"]
                scope_model.save(str(project), scope_model.Scope(spec.get("allow", []), spec.get("deny", []), spec.get("issue", "")))
            hook, payload = build_payload(str(project), player.session, case.data, player.count + 1)
            result = player.send(hook, payload)
            outcomes.append(compare(case, result.nudges))
        return outcomes
    finally:
        # ignore_errors: a sidecar's detached background job (e.g. an index refresh) may still be writing here
        shutil.rmtree(tmp, ignore_errors=True)


def compare(case: Case, nudges: list[str]) -> Outcome:
    left = list(nudges)
    missing, matched = [], []
    for want in case.expect:
        hit = next((line for line in left if _fits(want, line)), None)
        if hit is None:
            missing.append(want)
        else:
            left.remove(hit)
            matched.append(hit)
    return Outcome(case, nudges, missing, left, matched)


def _fits(want: dict[str, str], line: str) -> bool:
    if want.get("sidecar") and sidecar_of(line) != want["sidecar"]:
        return False
    if want.get("text") and line != want["text"]:
        return False
    return not want.get("contains") or want["contains"] in line


@dataclass
class Scores:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    events: int = 0
    clean_events: int = 0
    clean_nudges: int = 0

    def add(self, outcome: Outcome, clean: bool) -> None:
        self.events += 1
        for line in outcome.matched:
            self.tp[sidecar_of(line)] += 1
        for line in outcome.unexpected:
            self.fp[sidecar_of(line)] += 1
        for want in outcome.missing:
            self.fn[want.get("sidecar", "?")] += 1
        if clean:
            self.clean_events += 1
            self.clean_nudges += len(outcome.nudges)

    def sidecars(self) -> list[str]:
        return sorted(set(self.tp) | set(self.fp) | set(self.fn))

    def precision(self, sidecar: str) -> float:
        said = self.tp[sidecar] + self.fp[sidecar]
        return self.tp[sidecar] / said if said else 1.0

    def recall(self, sidecar: str) -> float:
        wanted = self.tp[sidecar] + self.fn[sidecar]
        return self.tp[sidecar] / wanted if wanted else 1.0


def score(groups: list[Group], in_process: bool = True) -> Scores:
    scores = Scores()
    for group in groups:
        for outcome in play_group(group, in_process=in_process):
            scores.add(outcome, group.clean)
    return scores


def describe(outcome: Outcome) -> str:
    parts = [f"{outcome.case.file}:{outcome.case.line} {outcome.case.name}"]
    if outcome.missing:
        parts.append(f"missing {outcome.missing}")
    if outcome.unexpected:
        parts.append(f"unexpected {outcome.unexpected}")
    return "; ".join(parts)
