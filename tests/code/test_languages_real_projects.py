"""The code index on real projects in every language, fetched from their registries at test time
(tests/code/realprojects.py), against a grep-and-read ground truth of its own
(tests/code/groundtruth.py): `symbol` finds >= 95% of the top-level declarations, and `usages` >=
95% of the lines that use a name in code (never in a comment or a string). Slow: registries, whole
projects."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import groundtruth
import pytest
import realprojects

from sidekit_hooks.code.index import Index

pytestmark = pytest.mark.slow

SAMPLED_NAMES = 80  # names whose usages are checked per project (every k-th defined name, sorted)
RECALL = 0.95


def measure(project: realprojects.Project) -> dict[str, Any]:
    root = realprojects.laid_out(project)
    sources = {p: (root / p).read_bytes() for p in realprojects.sources(project)}
    code = groundtruth.stripped(project.language, sources.items())
    declared = groundtruth.definitions(project.language, code)
    with Index.open(str(root)) as index:
        found_defs = sum(
            any(s.path == path and s.line == line for s in index.definitions(name))
            for name, path, line in declared
        )
        missed_defs = [
            d
            for d in declared
            if not any(s.path == d[1] and s.line == d[2] for s in index.definitions(d[0]))
        ]
        names = sorted({name for name, _, _ in declared})
        step = max(1, len(names) // SAMPLED_NAMES)
        sampled = names[::step][:SAMPLED_NAMES]
        truth_total = hits = extra = 0
        missed: list[tuple[str, str, int]] = []
        for name in sampled:
            truth = groundtruth.references(project.language, code, name)
            got = set(index.references(name))
            truth_total += len(truth)
            hits += len(truth & got)
            extra += len(got - truth)
            missed += [(name, *site) for site in sorted(truth - got)]
        files = index.coverage.files
    return {
        "project": project.coordinate,
        "files": files,
        "definitions": len(declared),
        "symbolRecall": round(found_defs / max(1, len(declared)), 4),
        "names": len(sampled),
        "references": truth_total,
        "usagesRecall": round(hits / max(1, truth_total), 4),
        "usagesPrecision": round(hits / max(1, hits + extra), 4),
        "missedDefinitions": missed_defs[:40],
        "missedReferences": missed[:40],
    }


def check(project: realprojects.Project) -> None:
    found = measure(project)
    print(json.dumps(found))
    assert found["definitions"] and found["references"], (
        found
    )  # a project with nothing to measure proves nothing
    assert found["symbolRecall"] >= RECALL, found
    assert found["usagesRecall"] >= RECALL, found
    root = realprojects.laid_out(project)
    name, path, line = groundtruth.definitions(
        project.language,
        groundtruth.stripped(
            project.language, ((p, (root / p).read_bytes()) for p in realprojects.sources(project))
        ),
    )[0]
    # And through the real command: the answer names the place (the index is warm by now).
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sidekit_hooks.cli",
            "symbol",
            name,
            "--project",
            str(root),
            "--format",
            "text",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and f":{line}" in done.stdout and Path(path).name in done.stdout, (
        done.stdout
    )


@pytest.mark.parametrize("project", realprojects.TUNING, ids=lambda p: p.key)
def test_tuning_projects(project: realprojects.Project) -> None:
    check(project)


@pytest.mark.parametrize("project", realprojects.HELD_OUT, ids=lambda p: p.key)
def test_held_out_projects(project: realprojects.Project) -> None:
    check(project)
