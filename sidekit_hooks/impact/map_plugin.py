"""The pytest plugin `sidekit map` loads (`-p sidekit_hooks.impact.map_plugin`): which test ran
which lines.

One coverage.py collector per pytest process, switched to the test's node id around each test's
setup, call and teardown (coverage's dynamic contexts). The tracer is a settrace core (`ctrace`,
else `pytrace`): Python 3.12+'s `sys.monitoring` core keeps only the first context that reaches a
line, so a helper shared by two tests would be credited to one of them (coveragepy#2200). Each
process (xdist workers too) writes its own fragment into $SIDEKIT_MAP_OUT; `sidekit map` merges
them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from typing import Any

import pytest

OUT_ENV = "SIDEKIT_MAP_OUT"
ROOT_ENV = "SIDEKIT_MAP_ROOT"  # the workspace the map's paths are relative to


def settrace_core() -> str:
    try:
        from coverage.tracer import CTracer  # noqa: F401
    except ImportError:
        return "pytrace"
    return "ctrace"


class Recorder:
    def __init__(self, root: str, out: str, prefix: str = "") -> None:
        import coverage

        self.root = root
        self.out = out
        # pytest's rootdir relative to `root` ("" or "sub/"): node ids are relative to it
        self.prefix = prefix
        self.tests: list[str] = []
        omit = [os.path.join(root, ".*", "*"), "*/site-packages/*", "*/dist-packages/*"]
        self.cov = coverage.Coverage(
            data_file=None, config_file=False, include=[os.path.join(root, "*")], omit=omit
        )
        try:
            self.cov.set_option("run:core", settrace_core())
        except Exception:  # coverage older than its `core` option: settrace is all it has
            pass
        self.cov.start()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        self.tests.append(item.nodeid)
        self.cov.switch_context(item.nodeid)
        try:
            return (yield)
        finally:
            self.cov.switch_context("")

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self) -> None:
        self.cov.stop()
        if not self.tests:
            return
        data = self.cov.get_data()
        position = {test: index for index, test in enumerate(self.tests)}
        files: dict[str, dict[str, list[int]]] = {}
        for measured in data.measured_files():
            relative = os.path.relpath(measured, self.root)
            if relative.startswith("..") or not relative.endswith(".py"):
                continue
            lines: dict[str, list[int]] = {}
            for line, contexts in data.contexts_by_lineno(measured).items():
                hits = sorted({position[c] for c in contexts if c in position})
                if hits:
                    lines[str(line)] = hits
            if lines:
                files[relative.replace(os.sep, "/")] = lines
        fragment: dict[str, Any] = {"tests": self.tests, "files": files, "prefix": self.prefix}
        os.makedirs(self.out, exist_ok=True)
        final = os.path.join(self.out, f"{os.getpid()}.json")
        temporary = final + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(fragment, handle, separators=(",", ":"))
        os.replace(temporary, final)


def pytest_configure(config: pytest.Config) -> None:
    out = os.environ.get(OUT_ENV)
    if out:
        root = os.environ.get(ROOT_ENV) or str(config.rootpath)
        config.pluginmanager.register(
            Recorder(root, out, rootdir_prefix(str(config.rootpath), root)), "sidekit-map-recorder"
        )


def rootdir_prefix(rootdir: str, root: str) -> str:
    """What turns a node id (relative to pytest's rootdir) into a workspace-relative one."""
    relative = os.path.relpath(rootdir, root).replace(os.sep, "/")
    return "" if relative == "." or relative.startswith("..") else relative + "/"
