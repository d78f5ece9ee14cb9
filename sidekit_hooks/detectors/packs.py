"""The `rules` sidecar: every enabled rule of the layered packs, matched against each tool call.

Imported on every hook (the runtime loads a detector before it looks at `hooks`), so this module
imports nothing at its top; the snapshot and the matcher come in only for the events it handles.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidekit_hooks.nudges.events import Event
    from sidekit_hooks.nudges.findings import Context, Finding
    from sidekit_hooks.rules.match import Hit, Rule


class RulesDetector:
    name = "rules"
    hooks = frozenset({"PostToolUse", "PostToolUseFailure"})

    def detect(self, event: Event, ctx: Context) -> list[Finding]:
        from sidekit_hooks.rules import match, snapshot

        if ctx.read_snapshot is None:  # a detector called on its own (tests): read the packs here
            ctx.read_snapshot = lambda: dict(snapshot.current(ctx.project, notify=ctx.notify_user, hook=event.hook))
        snap = ctx.packs()
        if not snap.get("rules"):
            return []
        match.use_precompiled(snap)

        def on_timeout(rule: Rule, why: str) -> None:
            from sidekit_hooks.core import hooklog

            hooklog.error(ctx.project, event.hook, f"rules:{rule['file']}", f"rule {rule['id']} skipped: {why}")

        hits = match.match_rules(snap["rules"], event, ctx.deadline, on_timeout)
        return [finding(hit, event) for hit in hits]


def finding(hit: Hit, event: Event) -> Finding:
    """The nudge for one hit. Its key is rule id + file + a hash of the matched text (never a line)."""
    import zlib

    from sidekit_hooks.nudges.findings import Finding
    from sidekit_hooks.rules import cited

    rule = hit.rule
    digest = f"{zlib.crc32(hit.matched.encode('utf-8', 'replace')):08x}"
    return Finding(rule["sidecar"], cited(rule), key=f"rule:{rule['id']}:{event.path}:{digest}", rule_id=rule["id"],
                   path=event.path, severity=rule["severity"], see=rule["see"])


DETECTOR = RulesDetector()
