"""What a sidecar says (Finding) and what it may use while judging one event (Context).

Shared by the detectors, the policy and the runtime; standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NotRequired, TypedDict

    class Decision(TypedDict):
        """One line of `.sidekit/log/decisions.jsonl`: what the policy did with a finding (`sidekit
        report`)."""

        session: str
        hook: str
        sidecar: str
        decision: str  # fired | suppressed | delivered | rechecked | reminded
        text: str  # the nudge line
        tool: NotRequired[str]
        rule: NotRequired[str]
        key: NotRequired[str]  # the finding's identity (Finding.key), cut to 200 characters
        path: NotRequired[str]
        severity: NotRequired[str]
        by: NotRequired[str]  # what held it back: muted, threshold, duplicate, cooldown, cap
        agent: NotRequired[str]  # the subagent it was said to
        subject: NotRequired[
            str
        ]  # what the finding is about: a symbol, or the line a pattern matched
        recheck: NotRequired[dict[str, str]]  # how Stop re-checks it (nudges/recheck.py)
        outcome: NotRequired[str]  # decision "rechecked": fixed | still | moot
        calls: NotRequired[int]  # decision "rechecked", fixed: tool calls from delivery to the fix


# What a finding is about (Finding.kind), which the policy ranks and times by (docs/policy.md):
# the code: a helper that exists, a spec violation, a scope breach, failing tests
CONCRETE = "concrete"
# how the agent works (a better tool exists): ranks below every concrete finding, never holds one
# back
HABIT = "habit"
UNRANKED = 99  # Finding.rank of a finding its detector did not rank: after every ranked one


class Finding:
    """One thing a detector wants to say. `key` identifies the finding for dedup (never a line
    number).

    The detector that makes it says how it ranks: `kind` (CONCRETE or HABIT) and `rank`, which
    orders findings equal in urgency, kind and severity (lower first; detectors.rank_of gives each
    sidecar's).

    `subject` names what it is about (a def, or the line a pattern matched) and `recheck` says how to
    tell later whether it still holds (see `nudges/recheck.py`): {"kind": "match"|"absent"|"def"|"scope",
    "path", "pattern"/"line"/"symbol", "before": the file's content hash before the call, or "absent",
    optional "again": the short line a reminder says instead of the message, when it still holds}.
    """

    __slots__ = (
        "sidecar",
        "message",
        "key",
        "rule_id",
        "path",
        "priority",
        "severity",
        "see",
        "subject",
        "recheck",
        "kind",
        "rank",
    )

    def __init__(
        self,
        sidecar: str,
        message: str,
        *,
        key: str = "",
        rule_id: str = "",
        path: str = "",
        priority: str = "normal",
        severity: str = "medium",
        see: str = "",
        subject: str = "",
        recheck: dict[str, str] | None = None,
        kind: str = CONCRETE,
        rank: int = UNRANKED,
    ) -> None:
        self.sidecar = sidecar
        self.message = message
        self.key = key or f"{sidecar}:{rule_id}:{path}:{message}"
        self.rule_id = rule_id
        self.path = path
        self.priority = priority
        self.severity = severity
        self.see = see
        self.subject = subject
        self.recheck = recheck
        self.kind = kind
        self.rank = rank

    def text(self) -> str:
        """The nudge line: `[sidecar:<name>] <message>`."""
        return f"[sidecar:{self.sidecar}] {self.message}"

    def __repr__(self) -> str:
        return f"Finding({self.text()!r}, key={self.key!r})"


class Context:
    """What every detector may use besides the event: where the project is, and a per-hook memo."""

    __slots__ = ("project", "session", "deadline", "memo", "notices", "snapshot", "read_snapshot")

    def __init__(
        self,
        project: str,
        session: str,
        deadline: float,
        read_snapshot: Callable[[Context], dict[str, Any]] | None = None,
    ) -> None:
        self.project = project
        self.session = session
        self.deadline = deadline  # time.monotonic() value after which detectors should stop
        self.memo: dict[str, Any] = {}
        self.notices: list[str] = []  # for the user (systemMessage), never the model
        self.snapshot: dict[str, Any] | None = None  # the rule packs, read at most once per event
        # how: the runtime's reader (recompiles within this hook's time)
        self.read_snapshot = read_snapshot

    def packs(self) -> dict[str, Any]:
        """The compiled rule packs for this event, read on first need only; {} when there is no
        reader."""
        if self.snapshot is None:
            self.snapshot = self.read_snapshot(self) if self.read_snapshot is not None else {}
        return self.snapshot

    def notify_user(self, text: str) -> None:
        """Tell the person at the terminal something (e.g. a broken rule pack). Not seen by the
        model."""
        if text not in self.notices:
            self.notices.append(text)
