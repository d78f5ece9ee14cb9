"""What the scenario build scripts (tests/scenarios/build_*.py) share: a fixture project on disk, a
real `sidekit map` then pytest run with the sidekit plugin on it, the cases and expectations they
write, and the .jsonl. The scripts put tests/ on sys.path before they import this (and the
repository too when they ask for a function index)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE_FILES = (
    "status.json",
    "status-tests.json",
    "code/covers.json",
)  # what the map and the plugin write
Expect = list[dict[str, str]]  # a case's "expect": the nudges it wants
Case = dict[str, object]  # one line of a .jsonl
NOW = "${NOW}"  # the scenario player writes the time of play here
JUST_FINISHED = 4102444800.0  # a stand-in for "the run that just ended", written out as ${NOW}


def write_tree(root: str, files: Mapping[str, str]) -> None:
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)


def map_then_pytest(project: str) -> subprocess.CompletedProcess[str]:
    """`sidekit map`, then plain `pytest -q` with the plugin, in `project`; pytest's run."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST_", "SIDEKIT_", "CLAUDE_", "GT_"))
    }
    env.update(
        PYTHONPATH=REPO,
        PYTHONDONTWRITEBYTECODE="1",
        CLAUDE_PROJECT_DIR=project,
        COLUMNS="80",
        # the written order: same output
        PYTEST_ADDOPTS="-p no:cacheprovider -p no:hypothesispytest -p no:randomly",
    )
    # The map's own pytest run leaves the status cache alone (-p no:sidekit): the plain run below
    # writes it.
    mapping = [
        sys.executable,
        "-m",
        "sidekit_hooks.cli",
        "map",
        "--project",
        project,
        "--",
        "-p",
        "no:sidekit",
    ]
    subprocess.run(
        mapping, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def cache_texts(project: str) -> dict[str, str]:
    """The cache files the run left, by their path in the project; none may hold the project's own
    path."""
    texts = {}
    for name in CACHE_FILES:
        with open(os.path.join(project, ".sidekit", name), encoding="utf-8") as handle:
            texts[f".sidekit/{name}"] = handle.read()
        assert project not in texts[f".sidekit/{name}"], (
            f"{name} holds the absolute project path: normalise it"
        )
    return texts


def pinned(cache: Mapping[str, str], finished: float) -> dict[str, str]:
    """The cache with its run times, durations and command line fixed (nothing a sidecar judges by),
    so the output is byte-identical on every run; at JUST_FINISHED the times are written as ${NOW}.

    The coverage digest holds no times: it is kept as `sidekit map` wrote it.
    """
    summary = json.loads(cache[".sidekit/status.json"])
    table = json.loads(cache[".sidekit/status-tests.json"])
    real = summary["run"]["finished"]
    summary["run"].update(started=finished - 1.0, finished=finished, args=[])
    summary["plugins"] = []
    for entry in table["tests"].values():
        assert entry["s"] == real
        entry.update(s=finished, d=0.001)
    for entry in table.get("collect", {}).values():
        entry["s"] = finished
    dump: dict[str, Any] = {"separators": (",", ":"), "ensure_ascii": False}
    texts = {
        ".sidekit/status.json": json.dumps(summary, **dump),
        ".sidekit/status-tests.json": json.dumps(table, **dump),
        ".sidekit/code/covers.json": cache[".sidekit/code/covers.json"],
    }
    if finished == JUST_FINISHED:
        texts = {
            name: text.replace(repr(JUST_FINISHED - 1.0), NOW).replace(repr(JUST_FINISHED), NOW)
            for name, text in texts.items()
        }
    return texts


def function_index_text(files: Mapping[str, str]) -> str:
    """The function index of `files` as `.sidekit/index/functions.json` holds it, with no temp path
    or mtime in it (the output stays byte-identical)."""
    from sidekit_hooks.code import function_index

    with tempfile.TemporaryDirectory() as tmp:
        write_tree(tmp, files)
        index = function_index.build(tmp)
    index.pop("project", None)
    index["built"] = 0
    for record in index["files"].values():
        record["m"] = 0
    return json.dumps(index, separators=(",", ":"))


def case(
    name: str,
    files: Mapping[str, str],
    tool: str,
    tool_input: Mapping[str, object],
    expect: Expect,
    *,
    stdout: str | None = None,
    error: str = "",
) -> Case:
    """A compact case (playback.build_payload): `stdout`, when given, is the tool's response;
    `error` its failure."""
    data: Case = {"name": name, "files": files, "tool": tool, "input": tool_input}
    if stdout is not None:
        data["response"] = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}
    if error:
        data["error"] = error
    data["expect"] = expect
    return data


def said(sidecar: str, contains: str = "", text: str = "") -> list[dict[str, str]]:
    """A case's expectation: one nudge of `sidecar`, holding `contains` or being `text` when
    given."""
    want = {"sidecar": sidecar}
    if contains:
        want["contains"] = contains
    if text:
        want["text"] = text
    return [want]


def write_cases(path: str, cases: Iterable[Mapping[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for case in cases:
            out.write(json.dumps(case) + "\n")


def counted(what: str, cases: list[dict[str, Any]]) -> str:
    """The line a script prints: how many cases, how many expect a nudge and how many expect
    none."""
    positives = sum(1 for case in cases if case["expect"])
    return f"{what} cases {len(cases)} positives {positives} near misses {len(cases) - positives}"
