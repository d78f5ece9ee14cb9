"""`sidekit report --format html`: one static page, no network, charts drawn as inline SVG.

Two charts where a person would rather look than read: uptake per rule (horizontal bars) and nudges
delivered per session over time (one bar per session, oldest first). The same numbers are in the
tables below them and, verbatim, in a `<script type="application/json" id="report-data">` block (the
JSON report). A few lines of script only measure what the browser drew (`data-drawn` on each bar and
`data-charts` on the page), so a headless browser can check that the charts really rendered.
"""

from __future__ import annotations

import html
import time
from typing import Any

from sidekit_hooks.answers.render import dumps
from sidekit_hooks.cli.report_savings import saved_headline

BAR_WIDTH = 360  # px of a 100% uptake bar
ROW = 22  # px per rule row
TIMELINE_HEIGHT = 140
TIMELINE_WIDTH = 720

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:960px;color:#222}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child{text-align:left}.note{color:#666;font-size:.9em}
svg text{font:12px system-ui,sans-serif}.bar{fill:#3b7dd8}.track{fill:#eee}.session{fill:#6a9f58}
"""

MEASURE = """
(function(){var n=0;document.querySelectorAll('svg .bar, svg .session').forEach(function(el){
var w=el.getBoundingClientRect();el.setAttribute('data-drawn',Math.round(w.width)+'x'+Math.round(w.height));n++;});
document.documentElement.setAttribute('data-charts',String(document.querySelectorAll('svg.chart').length));
document.documentElement.setAttribute('data-bars',String(n));})();
"""


def e(value: object) -> str:
    return html.escape(str(value), quote=True)


def render(answer: dict[str, Any], source: str) -> str:
    # `<`, `>` and `&` only occur inside JSON strings: as \u escapes no `</script>` or `<!--` (a
    # rule id can hold one) can end or bend the data block, and the JSON reads back the same.
    data = dumps(answer).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>sidekit report</title>",
        f"<style>{STYLE}</style></head><body>",
        "<h1>sidekit report</h1>",
        f'<p>{answer["decisions"]} decisions in <span id="sessions">{answer["sessions"]}</span> '
        "session(s), "
        f"from {e(source)}; made {e(time.strftime('%Y-%m-%d %H:%M'))}.</p>",
        *saved_section(answer.get("saved") or {}),
        "<h2>Uptake per rule</h2>",
        uptake_chart(uptake_rows(answer)),
        '<p class="note">Uptake: of the delivered findings re-checked at Stop, the share the '
        "agent fixed. "
        "Rules with no re-checked finding have no bar; a sidecar whose findings have no rule id "
        "(scope) "
        "has one bar of its own.</p>",
        "<h2>Nudges per session over time</h2>",
        timeline_chart(answer["timeline"]),
        "<h2>Sidecars</h2>",
        table(answer["sidecars"], "sidecar"),
        "<h2>Rules</h2>",
        table(answer["rules"], "rule"),
        f'<script type="application/json" id="report-data">{data}</script>',
        f"<script>{MEASURE}</script>",
        "</body></html>",
    ]
    return "\n".join(parts)


def uptake_rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """(name, row) per rule with an uptake, then per sidecar with an uptake that no such rule
    covers."""
    rules = [
        {**row, "name": row["rule"]} for row in answer["rules"] if row.get("uptake") is not None
    ]
    covered = {row["sidecar"] for row in rules}
    return rules + [
        {**row, "name": f"{row['sidecar']} (sidecar)"}
        for row in answer["sidecars"]
        if row.get("uptake") is not None and row["sidecar"] not in covered
    ]


def uptake_chart(rows: list[dict[str, Any]]) -> str:
    height = max(1, len(rows)) * ROW + 10
    label_width = 260
    out = [
        f'<svg class="chart" id="uptake" width="{label_width + BAR_WIDTH + 60}" height="{height}" '
        f'role="img" aria-label="uptake per rule">'
    ]
    if not rows:
        out.append('<text x="0" y="16">No re-checked findings yet.</text>')
    for index, row in enumerate(rows):
        y = index * ROW + 4
        width = round(BAR_WIDTH * row["uptake"], 1)
        out.append(f'<text x="0" y="{y + 13}">{e(row["name"])}</text>')
        out.append(
            f'<rect class="track" x="{label_width}" y="{y}" width="{BAR_WIDTH}" height="16"/>'
        )
        out.append(
            f'<rect class="bar" data-name="{e(row["name"])}" data-uptake="{row["uptake"]}" '
            f'x="{label_width}" '
            f'y="{y}" width="{max(width, 1)}" height="16"><title>{e(row["name"])}: {row["fixed"]} '
            "fixed, "
            f"{row['ignored']} ignored</title></rect>"
        )
        out.append(
            f'<text x="{label_width + BAR_WIDTH + 6}" '
            f'y="{y + 13}">{round(100 * row["uptake"])}%</text>'
        )
    out.append("</svg>")
    return "".join(out)


def timeline_chart(timeline: list[dict[str, Any]]) -> str:
    top = max([point["delivered"] for point in timeline] + [1])
    step = TIMELINE_WIDTH / max(1, len(timeline))
    width = max(1.0, round(step * 0.8, 2))
    out = [
        f'<svg class="chart" id="timeline" width="{TIMELINE_WIDTH + 40}" '
        f'height="{TIMELINE_HEIGHT + 30}" '
        f'role="img" aria-label="nudges delivered per session over time">',
        f'<text x="0" y="12">{top}</text>',
        f'<line x1="30" y1="{TIMELINE_HEIGHT + 4}" x2="{TIMELINE_WIDTH + 40}" '
        f'y2="{TIMELINE_HEIGHT + 4}" stroke="#999"/>',
    ]
    for index, point in enumerate(timeline):
        height = round(TIMELINE_HEIGHT * point["delivered"] / top, 2)
        day = (
            time.strftime("%Y-%m-%d %H:%M", time.localtime(point["start"]))
            if point["start"]
            else "?"
        )
        out.append(
            f'<rect class="session" data-session="{e(point["session"])}" '
            f'data-delivered="{point["delivered"]}" '
            f'x="{30 + round(index * step, 2)}" y="{round(TIMELINE_HEIGHT + 4 - height, 2)}" '
            f'width="{width}" '
            f'height="{max(height, 0.5)}"><title>{e(day)}: {point["delivered"]} '
            "delivered</title></rect>"
        )
    if timeline:
        first = time.strftime("%Y-%m-%d", time.localtime(timeline[0]["start"]))
        last = time.strftime("%Y-%m-%d", time.localtime(timeline[-1]["start"]))
        out.append(f'<text x="30" y="{TIMELINE_HEIGHT + 22}">{e(first)}</text>')
        out.append(f'<text x="{TIMELINE_WIDTH - 40}" y="{TIMELINE_HEIGHT + 22}">{e(last)}</text>')
    out.append("</svg>")
    return "".join(out)


COLUMNS = ("fired", "delivered", "fixed", "ignored", "moot", "untrue", "uptake", "medianCallsToFix")
SAVED_COLUMNS = (
    "compactedRuns",
    "rawBytes",
    "answerBytes",
    "savedBytes",
    "savedTokens",
    "nudges",
    "nudgeBytes",
    "nudgeTokens",
)


def saved_section(saved: dict[str, Any]) -> list[str]:
    """The headline (what compact answers saved against what nudges added) and the same per
    session."""
    if not saved:
        return []
    head = "".join(f"<th>{e(name)}</th>" for name in ("session", *SAVED_COLUMNS))
    body = "".join(
        f'<tr data-session="{e(row["session"])}">'
        + f'<td data-field="session">{e(row["session"])}</td>'
        + "".join(f'<td data-field="{name}">{e(row.get(name, 0))}</td>' for name in SAVED_COLUMNS)
        + "</tr>"
        for row in saved.get("sessions", [])
    )
    return [
        "<h2>What the sessions saved</h2>",
        f'<p id="saved">{e(saved_headline(saved))}</p>',
        f'<table class="saved"><tr>{head}</tr>{body}</table>',
    ]


def table(rows: list[dict[str, Any]], key: str) -> str:
    head = "".join(f"<th>{e(name)}</th>" for name in (key, *COLUMNS, "suppressed"))
    body = []
    for row in rows:
        cells = [f'<td data-field="{key}">{e(row[key])}</td>']
        for name in COLUMNS:
            value = row.get(name)
            shown = (
                "-"
                if value is None
                else (
                    f"{round(100 * value)}%"
                    if name == "uptake"
                    else f"{value:g}"
                    if isinstance(value, float)
                    else str(value)
                )
            )
            cells.append(
                f'<td data-field="{name}" '
                f'data-value="{"" if value is None else value}">{e(shown)}</td>'
            )
        held = (
            ", ".join(f"{why} {count}" for why, count in row.get("suppressed", {}).items()) or "0"
        )
        cells.append(f'<td data-field="suppressed">{e(held)}</td>')
        body.append(f'<tr data-{key}="{e(row[key])}">' + "".join(cells) + "</tr>")
    return f'<table class="{key}s"><tr>{head}</tr>' + "".join(body) + "</table>"
