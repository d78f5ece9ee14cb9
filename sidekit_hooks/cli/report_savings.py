"""What sessions saved, for `sidekit report` (text and HTML): the raw test output compact answers
replaced, the bytes the model got instead, and the bytes the nudges added, per session and in
total."""

from __future__ import annotations

from typing import Any

BYTES_PER_TOKEN = 4  # a rough rule for English text and code: "~N tokens" is bytes / 4


class Savings:
    """One session's compacted runs (raw output bytes, bytes the model got instead) and nudge
    bytes."""

    __slots__ = ("runs", "raw", "answer", "nudges", "nudge_bytes")

    def __init__(self) -> None:
        self.runs = self.raw = self.answer = self.nudges = self.nudge_bytes = 0

    def add_run(self, record: dict[str, Any]) -> None:
        self.runs += _count(record.get("runs"), 1)
        self.raw += _count(record.get("raw"), 0)
        self.answer += _count(record.get("answer"), 0)

    def add_nudge(self, record: dict[str, Any]) -> None:
        self.nudges += 1
        self.nudge_bytes += len(str(record.get("text") or "").encode("utf-8", "replace"))

    def to_dict(self) -> dict[str, int]:
        saved = max(self.raw - self.answer, 0)
        return {
            "compactedRuns": self.runs,
            "rawBytes": self.raw,
            "answerBytes": self.answer,
            "savedBytes": saved,
            "savedTokens": saved // BYTES_PER_TOKEN,
            "nudges": self.nudges,
            "nudgeBytes": self.nudge_bytes,
            "nudgeTokens": self.nudge_bytes // BYTES_PER_TOKEN,
        }


def _count(value: object, default: int) -> int:
    """A non-negative int from a log field (a hand-edited or foreign log may hold anything)."""
    return (
        value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default
    )


def savings_summary(saved: dict[str, Savings], per_session: dict[str, list[Any]]) -> dict[str, Any]:
    """The headline: in total, then per session (oldest first) that compacted a run or was
    nudged."""
    total = Savings()
    for one in saved.values():
        total.runs += one.runs
        total.raw += one.raw
        total.answer += one.answer
        total.nudges += one.nudges
        total.nudge_bytes += one.nudge_bytes
    order = sorted(saved, key=lambda session: (per_session.get(session, [0.0])[0], session))
    return {
        **total.to_dict(),
        "sessions": [{"session": s, **saved[s].to_dict()} for s in order if s],
    }


def saved_headline(saved: dict[str, Any]) -> str:
    """One sentence: the raw test output compact answers replaced, and the bytes the nudges
    added."""
    added = f"the nudges added {saved['nudgeBytes']:,} B (~{saved['nudgeTokens']:,} tokens) in {saved['nudges']} nudge(s)"
    if saved["compactedRuns"]:
        return (
            f"Saved: {saved['rawBytes']:,} B of raw test output "
            f"(~{saved['rawBytes'] // BYTES_PER_TOKEN:,} tokens) "
            f"reached the model as {saved['answerBytes']:,} B of compact answers in "
            f"{saved['compactedRuns']} run(s): "
            f"{saved['savedBytes']:,} B (~{saved['savedTokens']:,} tokens) saved; {added}."
        )
    return f"Saved: no test run was compacted; {added}."
