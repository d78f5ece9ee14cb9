"""`sidekit report`: per sidecar and per rule, how often each fired, was delivered, or was held back (and by what).

Reads `.sidekit/log/decisions.jsonl` (both generations), where the policy logs every decision.
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from typing import Any

from sidekit_hooks.cli import answers
from sidekit_hooks.cli.commands._shared import add_project, project_of
from sidekit_hooks.core import hooklog
from sidekit_hooks.core.workspace import log_dir

MAX_RECORDS = 1_000_000


class Tally:
    __slots__ = ("fired", "delivered", "suppressed")

    def __init__(self) -> None:
        self.fired = 0
        self.delivered = 0
        self.suppressed: Counter[str] = Counter()

    def to_dict(self) -> dict[str, Any]:
        return {"fired": self.fired, "delivered": self.delivered, "suppressed": dict(self.suppressed.most_common())}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--session", help="only this session's decisions")
    add_project(parser)
    parser.add_argument("--format", choices=("json", "text"), default="text", help="text for people (default), json for tools")


def run(args: argparse.Namespace) -> int:
    project = project_of(args)
    records = hooklog.read(project, hooklog.DECISIONS, limit=MAX_RECORDS)
    if args.session:
        records = [r for r in records if r.get("session") == args.session]
    answer = summarize(records)
    if args.format == "json":
        answers.emit(answer, "json")
    else:
        print(render(answer, os.path.join(os.path.relpath(log_dir(project), project), hooklog.DECISIONS)))
    return 0


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    by_sidecar: dict[str, Tally] = {}
    by_rule: dict[str, Tally] = {}
    sidecar_of_rule: dict[str, str] = {}
    rule_of_text: dict[str, str] = {}
    for record in records:
        sidecar = str(record.get("sidecar") or "?")
        rule = str(record.get("rule") or "")
        decision = record.get("decision")
        if decision == "delivered":
            rule = rule or rule_of_text.get(str(record.get("text")), "")
        tallies = [by_sidecar.setdefault(sidecar, Tally())]
        if rule:
            tallies.append(by_rule.setdefault(rule, Tally()))
            sidecar_of_rule[rule] = sidecar
        for tally in tallies:
            if decision == "fired":
                tally.fired += 1
            elif decision == "delivered":
                tally.delivered += 1
            elif decision == "suppressed":
                tally.suppressed[str(record.get("by") or "?")] += 1
        if decision == "fired" and rule:
            rule_of_text[str(record.get("text"))] = rule
    sessions = {r.get("session") for r in records if r.get("session")}
    return {
        "decisions": len(records),
        "sessions": len(sessions),
        "sidecars": [{"sidecar": name, **tally.to_dict()} for name, tally in sorted(by_sidecar.items())],
        "rules": [{"rule": rule, "sidecar": sidecar_of_rule[rule], **tally.to_dict()} for rule, tally in sorted(by_rule.items())],
    }


def render(answer: dict[str, Any], source: str) -> str:
    if not answer["decisions"]:
        return (f"No decisions logged yet ({source} is empty or missing): the hooks have not run in this project.\n"
                "  fix: sidekit install --project DIR, or try `sidekit demo`")
    head = f"{answer['decisions']} decisions in {answer['sessions']} session(s), from {source}"
    lines = [head, ""]
    lines += _table(["sidecar", "fired", "delivered", "suppressed (by what)"],
                    [[row["sidecar"], row["fired"], row["delivered"], _held(row["suppressed"])] for row in answer["sidecars"]])
    if answer["rules"]:
        lines.append("")
        lines += _table(["rule", "sidecar", "fired", "delivered", "suppressed (by what)"],
                        [[row["rule"], row["sidecar"], row["fired"], row["delivered"], _held(row["suppressed"])]
                         for row in answer["rules"]])
    return "\n".join(lines)


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
        parts = [row[0].ljust(widths[0])] + [cell.rjust(widths[i]) if i < len(row) - 1 else cell for i, cell in enumerate(row) if i]
        out.append("  ".join(parts).rstrip())
    return out
