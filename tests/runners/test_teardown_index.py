"""The terminal reporter's teardown lookup through an index: what pytest's scan finds, without the
scan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sidekit_hooks.runners.pytest import teardown_index


@dataclass
class Report:
    nodeid: str
    when: str


class Reporter:
    def __init__(self, reports: list[Report]) -> None:
        self.stats: dict[str, list[Any]] = {"": reports}
        self.scanned = 0

    def getreports(self, name: str) -> list[Any]:
        found = list(self.stats.get(name, ()))
        self.scanned += len(found)
        return found

    def _get_teardown_reports(self, node_id: str) -> list[Any]:  # pytest's own scan
        return [r for r in self.getreports("") if r.when == "teardown" and r.nodeid == node_id]


def test_the_index_finds_what_the_scan_finds_and_follows_new_reports() -> None:
    reports = [Report(f"t::{i}", when) for i in range(100) for when in ("setup", "teardown")]
    reporter = Reporter(reports)
    scan = Reporter(reports)._get_teardown_reports
    assert teardown_index.install(reporter) is True
    for node in ("t::0", "t::57", "t::99", "t::missing"):
        assert reporter._get_teardown_reports(node) == scan(node)
    assert reporter.scanned < 3 * len(
        reports
    )  # one build of the index, then small lookups (and one full miss)
    reports.append(Report("t::new", "teardown"))
    assert reporter._get_teardown_reports("t::new") == [Report("t::new", "teardown")]
    assert reporter.getreports("") == reports  # its own method again after each lookup


def test_an_unknown_reporter_is_left_alone() -> None:
    assert teardown_index.install(object()) is False
