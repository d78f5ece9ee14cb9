"""The terminal reporter's teardown lookup, indexed for a compacted run (#23).

For every failure it prints, pytest's terminal reporter looks for that test's teardown report by
scanning every report of the run (`_get_teardown_reports`): failures times reports, 270,000 checks
for 300 failures out of 300 tests. Here the reporter's own lookup runs on only the teardown reports
with the same node id string (an index built once, again when reports were added), so it finds
exactly what it found before; when the index holds none, the lookup runs as it did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def install(reporter: Any) -> bool:
    """Put the index in front of this reporter's lookup; False for an unknown pytest (left
    alone)."""
    original = getattr(reporter, "_get_teardown_reports", None)
    getreports = getattr(reporter, "getreports", None)
    if not (
        callable(original)
        and callable(getreports)
        and isinstance(getattr(reporter, "stats", None), dict)
    ):
        return False
    reporter._get_teardown_reports = indexed(reporter, original, getreports)
    return True


def indexed(
    reporter: Any, original: Callable[[Any], Any], getreports: Callable[[str], Any]
) -> Callable[[Any], Any]:
    built: dict[str, Any] = {"seen": None, "index": {}}

    def by_node(node_id: Any) -> Any:
        reports = reporter.stats.get("", ())
        if built["seen"] != (id(reports), len(reports)):
            index: dict[str, list[Any]] = {}
            for report in getreports(""):
                if getattr(report, "when", None) == "teardown":
                    index.setdefault(str(getattr(report, "nodeid", "")), []).append(report)
            built.update(seen=(id(reports), len(reports)), index=index)
        candidates = built["index"].get(str(node_id))
        if not candidates:
            return original(node_id)
        own = vars(reporter).get("getreports")
        reporter.getreports = lambda name: candidates if name == "" else getreports(name)
        try:
            return original(node_id)  # pytest's own test, on the few reports that can pass it
        finally:
            if own is None:
                del reporter.getreports
            else:
                reporter.getreports = own

    return by_node
