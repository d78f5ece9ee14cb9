"""`sidekit report`: per sidecar and per rule, what fired, was delivered or held back (and why), and
what the agent did with it: fixed after delivery, ignored (still there at the last re-check), moot.

Reads `.sidekit/log/decisions.jsonl` and its rolled-over files (`.1` to `.24`), where the policy
logs every decision and Stop logs each re-check (docs/lifecycle.md). `--days N` / `--sessions N`
pick a window; `--format html` writes one static page with charts (`cli/report_html.py`).

Fleets (docs/fleets.md): `--fleet DIR...` merges the logs of several projects or machines (copied or
mounted), and `--export otlp` ships what is new to the configured OpenTelemetry collector.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from typing import Any

from sidekit_hooks.answers.render import dumps
from sidekit_hooks.cli.commands._shared import add_project, project_of
from sidekit_hooks.cli.report_savings import Savings, saved_headline, savings_summary
from sidekit_hooks.core import hooklog, redact
from sidekit_hooks.core.errors import SidekitError
from sidekit_hooks.core.workspace import log_dir

MAX_RECORDS = 1_000_000
# Re-check outcomes; "untrue": the finding was already not so when it was delivered (a tests line
# whose tests no longer failed in the newest run): counted apart, never as fixed, and out of uptake.
OUTCOMES = ("fixed", "still", "moot", "untrue")
SAID = ("delivered", "reminded")  # decisions whose text reached the model: the bytes nudges added


class Tally:
    __slots__ = ("fired", "delivered", "suppressed", "outcomes", "calls")

    def __init__(self) -> None:
        self.fired = 0
        self.delivered = 0
        self.suppressed: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.calls: list[int] = []  # tool calls from delivery to the fix, per fixed finding

    def to_dict(self) -> dict[str, Any]:
        fixed, ignored = self.outcomes["fixed"], self.outcomes["still"]
        return {
            "fired": self.fired,
            "delivered": self.delivered,
            "suppressed": dict(self.suppressed.most_common()),
            "fixed": fixed,
            "ignored": ignored,
            "moot": self.outcomes["moot"],
            "untrue": self.outcomes["untrue"],
            "uptake": round(fixed / (fixed + ignored), 3) if fixed + ignored else None,
            "medianCallsToFix": median(self.calls),
        }


def median(values: list[int]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    return (
        float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session", help="only this session's decisions")
    parser.add_argument("--days", type=int, metavar="N", help="only the last N days")
    parser.add_argument("--sessions", type=int, metavar="N", help="only the last N sessions")
    add_project(parser)
    parser.add_argument(
        "--format",
        choices=("json", "text", "html"),
        default="text",
        help="text for people (default), json for tools, html for one static page with charts",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        help="write the report here instead of stdout (e.g. report.html)",
    )
    parser.add_argument(
        "--fleet",
        nargs="+",
        metavar="DIR",
        help="merge these projects' logs (project folders, .sidekit folders or log folders, copied "
        "or mounted from other machines; a folder of such folders too)",
    )
    parser.add_argument(
        "--export",
        choices=("otlp",),
        help="ship what is new since the last export to the configured OpenTelemetry collector",
    )


def run(args: argparse.Namespace) -> int:
    project = project_of(args)
    for name in ("days", "sessions"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise SidekitError(
                f"--{name} must be 1 or more, not {value}", f"sidekit report --{name} 7"
            )
    if args.export:
        return export_otlp(project)
    if args.fleet:
        from sidekit_hooks.cli.commands import report_fleet

        logs = report_fleet.find_logs(args.fleet)
        if not logs:
            raise SidekitError(
                f"no {hooklog.DECISIONS} under {', '.join(args.fleet)}",
                "pass project folders, their .sidekit folders or copies of .sidekit/log",
            )
        records = window(report_fleet.read_all(logs), args.session, args.days, args.sessions)
        answer = redact.redact_value(
            summarize(records)
        )  # old logs predate some redaction: never show a secret
        answer["fleet"] = redact.redact_value(report_fleet.per_source(records))
        source = f"{len(logs)} log folder(s): " + ", ".join(logs)
    else:
        records = window(
            hooklog.read(project, hooklog.DECISIONS, limit=MAX_RECORDS),
            args.session,
            args.days,
            args.sessions,
        )
        answer = redact.redact_value(
            summarize(records)
        )  # old logs predate some redaction: never show a secret
        source = os.path.join(os.path.relpath(log_dir(project), project), hooklog.DECISIONS)
    if args.format == "json":
        text = dumps(answer)
    elif args.format == "html":
        from sidekit_hooks.cli import report_html

        text = report_html.render(answer, source)
    else:
        text = render(answer, source)
    if args.output:
        write_output(args.output, text, args.format)
        print(f"wrote {args.output}")
    else:
        print(text)
    return 0


def write_output(path: str, text: str, kind: str) -> None:
    """`--output FILE`; a folder, a missing folder or a full disk is said with the fix, not exit
    3."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    except OSError as exc:
        where = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            fix = f"name a file, e.g. --output {os.path.join(path, 'report.' + ('html' if kind == 'html' else 'txt'))}"
        elif not os.path.isdir(where):
            fix = f"create the folder first (mkdir -p {where}) or name a file in an existing one"
        else:
            fix = "name a file you can write, or leave out --output to print the report"
        raise SidekitError(
            f"cannot write the report to {path}: {exc.strerror or exc}", fix
        ) from None


def export_otlp(project: str) -> int:
    """`--export otlp`: the Stop hook's exporter, run here in the foreground (it says what it
    did)."""
    from sidekit_hooks.telemetry import worker

    result = worker.export(project)
    print(result.message)
    return 0 if result.ok else 1


def window(
    records: list[dict[str, Any]],
    session: str | None,
    days: int | None,
    sessions: int | None,
    now: float | None = None,
) -> list[dict[str, Any]]:
    """The records of one session, of the last N days, and/or of the last N sessions (by first
    record)."""
    if session:
        records = [r for r in records if r.get("session") == session]
    if days:
        cutoff = (time.time() if now is None else now) - days * 86400
        records = [r for r in records if _ts(r) >= cutoff]
    if sessions:
        starts = session_starts(records)
        kept = set(sorted(starts, key=lambda s: starts[s])[-sessions:])
        records = [r for r in records if r.get("session") in kept]
    return records


LATEST_TS = 1e11  # seconds since 1970 (year 5138): past this, or NaN/inf, a timestamp is not one


def _ts(record: dict[str, Any]) -> float:
    """The record's time; 0.0 for anything that is not a usable Unix time (NaN in a log made report
    exit 3)."""
    value = record.get("ts")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value) if 0 <= value < LATEST_TS else 0.0


def session_starts(records: list[dict[str, Any]]) -> dict[str, float]:
    starts: dict[str, float] = {}
    for record in records:
        session = record.get("session")
        if isinstance(session, str) and session and session not in starts:
            starts[session] = _ts(record)
    return starts


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    by_sidecar: dict[str, Tally] = {}
    by_rule: dict[str, Tally] = {}
    sidecar_of_rule: dict[str, str] = {}
    rule_of_text: dict[str, str] = {}
    verdicts: dict[
        tuple[str, str], tuple[str, str, str, int | None]
    ] = {}  # (session, key) -> the last re-check
    per_session: dict[str, list[Any]] = {}  # session -> [start ts, delivered]
    saved: dict[str, Savings] = {}  # session -> what its compacted runs saved and its nudges added
    for record in records:
        sidecar = str(record.get("sidecar") or "?")
        rule = str(record.get("rule") or "")
        decision = record.get("decision")
        session = str(record.get("session") or "")
        if session:
            per_session.setdefault(session, [_ts(record), 0])
        if decision == "compacted":
            saved.setdefault(session, Savings()).add_run(record)
            continue
        if decision in SAID:
            saved.setdefault(session, Savings()).add_nudge(record)
        if decision == "rechecked":
            if record.get("outcome") in OUTCOMES:
                calls = record.get("calls")
                verdicts[(session, str(record.get("key") or ""))] = (
                    sidecar,
                    rule,
                    str(record["outcome"]),
                    calls if isinstance(calls, int) else None,
                )
            continue
        if decision == "delivered":
            rule = rule or rule_of_text.get(str(record.get("text")), "")
            if session:
                per_session[session][1] += 1
        tallies = _tallies(by_sidecar, by_rule, sidecar_of_rule, sidecar, rule)
        for tally in tallies:
            if decision == "fired":
                tally.fired += 1
            elif decision == "delivered":
                tally.delivered += 1
            elif decision == "suppressed":
                tally.suppressed[str(record.get("by") or "?")] += 1
        if decision == "fired" and rule:
            rule_of_text[str(record.get("text"))] = rule
    for sidecar, rule, outcome, calls in verdicts.values():
        for tally in _tallies(by_sidecar, by_rule, sidecar_of_rule, sidecar, rule):
            tally.outcomes[outcome] += 1
            if outcome == "fixed" and calls is not None:
                tally.calls.append(calls)
    return {
        "decisions": len(records),
        "sessions": len(per_session),
        "sidecars": [
            {"sidecar": name, **tally.to_dict()} for name, tally in sorted(by_sidecar.items())
        ],
        "rules": [
            {"rule": rule, "sidecar": sidecar_of_rule[rule], **tally.to_dict()}
            for rule, tally in sorted(by_rule.items())
        ],
        "timeline": [
            {"session": session, "start": round(start, 3), "delivered": delivered}
            for session, (start, delivered) in sorted(
                per_session.items(), key=lambda item: (item[1][0], item[0])
            )
        ],
        "saved": savings_summary(saved, per_session),
    }


def _tallies(
    by_sidecar: dict[str, Tally],
    by_rule: dict[str, Tally],
    sidecar_of_rule: dict[str, str],
    sidecar: str,
    rule: str,
) -> list[Tally]:
    tallies = [by_sidecar.setdefault(sidecar, Tally())]
    if rule:
        tallies.append(by_rule.setdefault(rule, Tally()))
        sidecar_of_rule.setdefault(rule, sidecar)
    return tallies


def render(answer: dict[str, Any], source: str) -> str:
    if not answer["decisions"]:
        return (
            f"No decisions logged yet ({source} is empty or missing): the hooks have not run in "
            "this project.\n"
            "  fix: sidekit install --project DIR, or try `sidekit demo`"
        )
    head = f"{answer['decisions']} decisions in {answer['sessions']} session(s), from {source}"
    lines = [head, *_saved_lines(answer.get("saved") or {}), ""]
    if answer.get("fleet"):
        lines += _table(
            ["source", "decisions", "sessions"],
            [[row["source"], row["decisions"], row["sessions"]] for row in answer["fleet"]],
        )
        lines.append("")
    lines += _table(
        [
            "sidecar",
            "fired",
            "delivered",
            "fixed",
            "ignored",
            "untrue",
            "uptake",
            "calls to fix",
            "suppressed (by what)",
        ],
        [[row["sidecar"], *_figures(row)] for row in answer["sidecars"]],
    )
    if answer["rules"]:
        lines.append("")
        lines += _table(
            [
                "rule",
                "sidecar",
                "fired",
                "delivered",
                "fixed",
                "ignored",
                "untrue",
                "uptake",
                "calls to fix",
                "suppressed (by what)",
            ],
            [[row["rule"], row["sidecar"], *_figures(row)] for row in answer["rules"]],
        )
    lines += [
        "",
        "fixed/ignored: delivered findings re-checked at Stop (gone / still there); uptake = "
        "fixed / (fixed + ignored);",
        "untrue: already not so when delivered (never counted as fixed);",
        "calls to fix: median tool calls from the nudge to the fix (docs/lifecycle.md).",
    ]
    return "\n".join(lines)


def _saved_lines(saved: dict[str, Any]) -> list[str]:
    """The headline: raw test output the compact answers replaced, against the bytes the nudges
    added; then the same per session."""
    if not saved:
        return []
    head = saved_headline(saved)
    rows = [
        [
            row["session"],
            row["compactedRuns"],
            row["rawBytes"],
            row["answerBytes"],
            row["savedBytes"],
            row["savedTokens"],
            row["nudges"],
            row["nudgeBytes"],
            "",
        ]
        for row in saved.get("sessions", [])
    ]
    if not rows:
        return [head]
    headers = [
        "session",
        "runs",
        "raw B",
        "answer B",
        "saved B",
        "~tokens saved",
        "nudges",
        "nudge B",
        "",
    ]
    return [head, "", *_table(headers, rows)]


def _figures(row: dict[str, Any]) -> list[Any]:
    uptake = "-" if row["uptake"] is None else f"{round(100 * row['uptake'])}%"
    calls = "-" if row["medianCallsToFix"] is None else f"{row['medianCallsToFix']:g}"
    return [
        row["fired"],
        row["delivered"],
        row["fixed"],
        row["ignored"],
        row["untrue"],
        uptake,
        calls,
        _held(row["suppressed"]),
    ]


def _held(suppressed: dict[str, int]) -> str:
    total = sum(suppressed.values())
    if not total:
        return "0"
    return f"{total} (" + ", ".join(f"{why} {count}" for why, count in suppressed.items()) + ")"


def _table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    cells = [headers] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    out = []
    for row in cells:
        parts = [row[0].ljust(widths[0])] + [
            cell.rjust(widths[i]) if i < len(row) - 1 else cell for i, cell in enumerate(row) if i
        ]
        out.append("  ".join(parts).rstrip())
    return out
