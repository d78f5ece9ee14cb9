"""The labelled scenario corpus (`tests/scenarios/*.jsonl`): load, play through the hook, score.

One JSON object per line:

    {"name": "scope-edit-outside",              # unique within its file
     "session": "scope-walk",                   # optional: lines sharing it share one project and session,
                                                # played in file order (a name starting "clean"
                                                marks a # clean session: ordinary work that must
                                                yield no nudge)
     "files": {"auth/middleware.py": "..."},    # optional: written into the project first
     "scope": {"issue": "gt-abc12", "allow": ["api/**"], "deny": []},   # optional: the scope, saved as is; or
     "scope": ["--issue", "gt-abc12", "--allow", "api/**"],  #  the arguments of a real `sidekit scope set`
     "tool": "Edit", "input": {...}, "response": {...},   # a compact step (playback.build_payload), or
     "event": "PostToolUse", "payload": {...},  # a full payload; "${PROJECT}" is the project's path
     "expect": [{"sidecar": "scope", "contains": "auth/middleware.py"}],  # or [] for "no nudge at all";
                                                # "text" = exact line; a bare "scope" = any scope
                                                nudge
     "xfail": "why, with the issue (#11)"}      # optional: a known miss, played and counted like any case

A case passes when every expectation matches one nudge the hook delivered and no other nudge came.

Scores count every case, known misses included: a matched expectation is a true positive of its
sidecar, a missing one a false negative, any other nudge a false positive. A sidecar that said
nothing has no precision (None, shown "n/a"), one that was wanted nowhere no recall. Cases in a file
named `*-heldout.jsonl` are scored apart, under "<sidecar> (held out)": they were written after the
thresholds were set and nothing may be tuned on them.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sidekit_hooks.cli.playback.steps import Player, build_payload, sidecar_of, write_files
from sidekit_hooks.detectors.scope import model as scope_model

CORPUS = Path(__file__).resolve().parents[1] / "scenarios"
HELD_OUT = "-heldout.jsonl"  # a file whose cases are scored apart (never used to tune anything)


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
        return [
            {"sidecar": item} if isinstance(item, str) else dict(item)
            for item in self.data.get("expect", [])
        ]

    @property
    def xfail(self) -> str:
        """Why this case is a known miss ("" when it is not one)."""
        return str(self.data.get("xfail") or "")

    @property
    def held_out(self) -> bool:
        return self.file.endswith(HELD_OUT)

    def label(self, sidecar: str) -> str:
        """The name a sidecar's counts go under for this case (held-out cases are scored apart)."""
        return f"{sidecar} (held out)" if self.held_out else sidecar


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

    @property
    def xpassed(self) -> bool:
        """A known miss that no longer misses: its xfail mark should go."""
        return bool(self.case.xfail) and self.ok


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
                set_scope(project, case.data["scope"])
            hook, payload = build_payload(str(project), player.session, case.data, player.count + 1)
            result = player.send(hook, payload)
            outcomes.append(compare(case, result.nudges))
        return outcomes
    finally:
        # ignore_errors: a sidecar's detached background job (e.g. an index refresh) may still be
        # writing here
        shutil.rmtree(tmp, ignore_errors=True)


def set_scope(project: Path, spec: dict[str, Any] | list[str]) -> None:
    """A dict is saved as the scope; a list is the arguments of a real `sidekit scope set`."""
    if isinstance(spec, dict):
        scope_model.save(
            str(project),
            scope_model.Scope(spec.get("allow", []), spec.get("deny", []), spec.get("issue", "")),
        )
        return
    import contextlib
    import io

    from sidekit_hooks.cli import main

    with contextlib.redirect_stdout(io.StringIO()) as said:
        code = main(["scope", "set", "--project", str(project), *spec])
    if code != 0:
        raise ValueError(f"sidekit scope set {' '.join(spec)} exited {code}: {said.getvalue()}")


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
    """Counts per sidecar label over every played case, known misses included."""

    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    known: Counter[str] = field(default_factory=Counter)  # xfail cases, per sidecar they are about
    xpassed: list[str] = field(default_factory=list)  # xfail cases that passed: remove their mark
    events: int = 0
    clean_events: int = 0
    clean_nudges: Counter[str] = field(
        default_factory=Counter
    )  # per sidecar: each one a false positive
    clean_known: int = 0  # of those, nudges in cases marked xfail

    def add(self, outcome: Outcome, clean: bool) -> None:
        case = outcome.case
        self.events += 1
        for line in outcome.matched:
            self.tp[case.label(sidecar_of(line))] += 1
        for line in outcome.unexpected:
            self.fp[case.label(sidecar_of(line))] += 1
        for want in outcome.missing:
            self.fn[case.label(want.get("sidecar", "?"))] += 1
        if case.xfail:
            about = {w.get("sidecar", "?") for w in case.expect} | {
                sidecar_of(line) for line in outcome.unexpected
            }
            for sidecar in about:
                self.known[case.label(sidecar)] += 1
            if outcome.xpassed:
                self.xpassed.append(describe(outcome))
        if clean:
            self.clean_events += 1
            for line in outcome.nudges:
                self.clean_nudges[sidecar_of(line)] += 1
            if case.xfail:
                self.clean_known += len(outcome.nudges)

    def sidecars(self) -> list[str]:
        return sorted(set(self.tp) | set(self.fp) | set(self.fn))

    def precision(self, sidecar: str) -> float | None:
        """tp / (tp + fp); None when the sidecar said nothing (no precision to speak of)."""
        return ratio(self.tp[sidecar], self.tp[sidecar] + self.fp[sidecar])

    def recall(self, sidecar: str) -> float | None:
        """tp / (tp + fn); None when nothing from the sidecar was wanted."""
        return ratio(self.tp[sidecar], self.tp[sidecar] + self.fn[sidecar])

    def pooled(self) -> tuple[int, int, int]:
        """tp, fp, fn over every sidecar (held out included): the corpus-wide figures."""
        return sum(self.tp.values()), sum(self.fp.values()), sum(self.fn.values())

    def meets(self, sidecar: str, precision: float = 0.9, recall: float = 0.8) -> bool:
        """Both targets hold; a figure that does not exist (n/a) does not meet its target."""
        p, r = self.precision(sidecar), self.recall(sidecar)
        return p is not None and r is not None and p >= precision and r >= recall


def figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


# Outcomes of in-process plays, by the cases played: the corpus tests (tests/test_scenarios.py)
# and the bench's score rows (bench/rows_scenarios.py, which tests/test_bench.py runs) play the same
# corpus; in one test run it is played once.
_PLAYED: dict[str, list[Outcome]] = {}


def played(group: Group) -> list[Outcome]:
    """`play_group(group)` in process, played once per process for the same cases; the outcomes
    name this group's own cases (read them, never change them)."""
    key = json.dumps(
        [group.file, group.name, [[case.file, case.line, case.data] for case in group.cases]],
        sort_keys=True,
    )
    if key not in _PLAYED:
        _PLAYED[key] = play_group(group)
    return [
        replace(outcome, case=case) for outcome, case in zip(_PLAYED[key], group.cases, strict=True)
    ]


def score(groups: list[Group], in_process: bool = True) -> Scores:
    scores = Scores()
    for group in groups:
        for outcome in played(group) if in_process else play_group(group, in_process=False):
            scores.add(outcome, group.clean)
    return scores


def describe(outcome: Outcome) -> str:
    parts = [f"{outcome.case.file}:{outcome.case.line} {outcome.case.name}"]
    if outcome.missing:
        parts.append(f"missing {outcome.missing}")
    if outcome.unexpected:
        parts.append(f"unexpected {outcome.unexpected}")
    if outcome.xpassed:
        parts.append(f"passes now: remove its xfail ({outcome.case.xfail})")
    return "; ".join(parts)
