"""The `specs` detector: every enabled rule of the layered packs, matched against each tool call.
Each rule speaks as its own sidecar (`specs`, or a team pack's name).

Imported on every hook (the runtime loads a detector before it looks at `hooks`), so this module
imports nothing at its top; the snapshot and the matcher come in only for the events it handles.
"""

from __future__ import annotations

from sidekit_hooks.core.hook_table import judged_by
from sidekit_hooks.detectors import rank_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding
    from sidekit_hooks.rules.match import Hit, Rule


class SpecsDetector:
    name = "specs"
    hooks = judged_by("specs")

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        from sidekit_hooks.rules import match

        snap = (
            ctx.packs()
            if ctx.read_snapshot is not None or ctx.snapshot is not None
            else packs_of(ctx, event.event_name)
        )
        if not snap.get("rules"):
            return []
        match.use_precompiled(snap)

        def on_timeout(rule: Rule, why: str) -> None:
            from sidekit_hooks.core import hooklog

            hooklog.error(
                ctx.project,
                event.event_name,
                f"rules:{rule['file']}",
                f"rule {rule['id']} skipped: {why}",
            )

        hits = match.match_rules(snap["rules"], event, ctx.deadline, on_timeout)
        return [finding(hit, event) for hit in hits]


def packs_of(ctx: Context, event_name: str) -> dict[str, Any]:
    """The compiled packs for a Context made without a reader (a detector called on its own)."""
    from sidekit_hooks.rules import snapshot

    ctx.snapshot = dict(
        snapshot.current(ctx.project, notify=ctx.notify_user, event_name=event_name)
    )
    return ctx.snapshot


def finding(hit: Hit, event: Event) -> Finding:
    """The nudge for one hit. Its key is rule id + file + a hash of the matched text (never a
    line)."""
    import zlib

    from sidekit_hooks.nudges.findings import Finding
    from sidekit_hooks.rules import cited

    rule = hit.rule
    digest = f"{zlib.crc32(hit.matched.encode('utf-8', 'replace')):08x}"
    # A regex may match only the start of a name (`^def [a-z]`): the name is read from the whole
    # line.
    symbol = defined_name(matched_line(hit, event) if hit.field == "added" else hit.matched)
    message = cited(rule)
    if symbol and event.path:  # name the def it is about (a conventions rule says "the new def")
        message = f"{rule.get('message') or ''} (`{symbol}` in {event.path})" + (
            f" (see {rule['see']})" if rule.get("see") else ""
        )
    return Finding(
        rule["sidecar"],
        message,
        key=f"rule:{rule['id']}:{event.path}:{digest}",
        rule_id=rule["id"],
        path=event.path,
        severity=rule["severity"],
        see=rule["see"],
        subject=symbol or matched_line(hit, event)[:200],
        recheck=recheck_of(hit, event),
        rank=rank_of(rule["sidecar"]),  # the sidecar it speaks as
    )


def defined_name(matched: str) -> str:
    """The name a matched `def NAME(` defines, else ""."""
    if "def " not in matched:
        return ""
    name = matched.split("def ", 1)[1].split("(", 1)[0].strip()
    return name if name.isidentifier() else ""


def matched_line(hit: Hit, event: Event) -> str:
    """The whole line of the added text the rule matched (the match itself for commands and
    output)."""
    if hit.field != "added" or not hit.matched:
        return hit.matched
    start = event.added.find(hit.matched)
    if start < 0:
        return hit.matched.strip()
    end = event.added.find("\n", start + len(hit.matched))
    return event.added[
        event.added.rfind("\n", 0, start) + 1 : len(event.added) if end < 0 else end
    ].strip()


def recheck_of(hit: Hit, event: Event) -> dict[str, str] | None:
    """How Stop tells whether the file still breaks the rule (only written files can be
    re-checked)."""
    from sidekit_hooks.nudges.recheck import before_state, line_digest

    when = hit.rule["when"]
    if event.kind != "write" or not event.path or event.path.startswith("/"):
        return None
    if hit.field == "added":
        return {
            "kind": "match",
            "path": event.path,
            "pattern": when["added"],
            "digest": line_digest(matched_line(hit, event)),
            "before": before_state(event),
        }
    if hit.field == "absent":
        return {
            "kind": "absent",
            "path": event.path,
            "pattern": when["absent"],
            "before": before_state(event),
        }
    return None


DETECTOR = SpecsDetector()
