"""Hook latency when the tests sidecar reads the map's coverage digest (a red cache, an edited
source file).

The caches are synthesized at the size of a large suite (10,000 tests, 1,000 source files): what is
timed is the hook reading them, not a pytest run. Three shapes: the summary lists every failing test
(the digest alone is read); a 2,000-test cluster the summary cuts to three in a 0.9 MB table (too
big for a hook: the summary's tests are named, "at least"); and a 2,400-test suite whose table, just
under the sidecar's TABLE_READ_LIMIT, is read for the failing tests the summary leaves out (the
worst case).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from run import REPO, BenchContext, Row, ratio_row, time_command

from testing.hooks import as_stdin, edit

sys.path.insert(0, REPO)
from sidekit_hooks.impact import covers  # noqa: E402
from sidekit_hooks.status import cache  # noqa: E402

QUICK_BUDGET = 3  # seconds under --quick (bench/run.py)

SESSION = "bench-testsmap"
FILES = 1_000


def make_project(project: str, count: int, failing: int, digest: bool = True) -> None:
    """`failing` of `count` tests, one cluster, fail in pkg/fmt.py; every test runs pkg/calc.py,
    which raises nowhere."""
    os.makedirs(os.path.join(project, "pkg"))
    with open(os.path.join(project, "pkg", "calc.py"), "w") as handle:
        handle.write("def half(n):\n    return n / 2\n")
    tests = [
        f"tests/unit/test_module_{i // 10:04d}.py::TestThing::test_case_{i % 10}"
        for i in range(count)
    ]
    hits = {
        f"pkg/module_{f:04d}.py": range(f * 10 % count, min(f * 10 % count + 40, count))
        for f in range(FILES)
    }
    hits["pkg/calc.py"] = range(count)
    if digest:
        covers.save(project, covers.digest(tests, hits))
    bad = tests[:failing]
    table = {t: {"d": 0.001, "o": "passed", "s": 1.0} for t in tests}
    for test in bad:
        table[test].update(o="failed", c="c0")
    cache.write(cache.table_path(project), {"generation": 1, "tests": table, "collect": {}})
    cluster = {
        "id": "c0",
        "type": "ValueError",
        "at": "pkg/fmt.py:4",
        "affected": failing,
        "tests": bad[:3],
    }
    cache.write(
        cache.summary_path(project),
        {
            "generation": 1,
            "run": {"finished": 1.0, "counts": {"failed": failing, "passed": count - failing}},
            "counts": {"failed": failing, "passed": count - failing},
            "failing": failing,
            "clusters": [cluster],
            "moreClusters": 0,
            "files": {"pkg/fmt.py": [failing, "c0", bad[0]]},
        },
    )


def rows(ctx: BenchContext) -> list[Row]:
    out: list[Row] = []
    post = [ctx.python, "-S", os.path.join(REPO, "hooks", "post_tool_use.py")]
    control = "10,000 tests, 3 failing, no map, nothing said: the control"
    for count, failing, what in (
        (10_000, 3, control),
        (10_000, 3, "10,000 mapped tests; the summary lists every failing test: digest read"),
        (10_000, 2_000, "10,000 mapped tests, 2,000 failing; 0.9 MB table not read: 'at least'"),
        (2_400, 600, "2,400 mapped tests, 600 failing; digest + per-test table read"),
    ):
        project = tempfile.mkdtemp(prefix="sidekit-bench-testsmap-")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GT_", "TMUX_", "CLAUDE_"))}
        env["CLAUDE_PROJECT_DIR"] = project
        state = os.path.join(project, ".sidekit", "state")
        try:
            make_project(project, count, failing, digest=what != control)
            payload = as_stdin(
                edit(
                    Path(project),
                    "pkg/calc.py",
                    "n / 2",
                    "n // 2",
                    session=SESSION,
                    tool_use_id="toolu_bench",
                )
            )
            said = subprocess.run(
                post, input=payload, capture_output=True, env=env, cwd=project, check=False
            ).stdout
            if (b"is covered by" in said) is (what == control):
                out.append(
                    Row(
                        "testsmap",
                        f"PostToolUse, Edit of a mapped source file ({what})",
                        f"MISS: said {said[:80]!r}",
                        "",
                        "MISS",
                    )
                )
                continue
            samples = time_command(
                post,
                ctx.repeats,
                payload,
                env,
                project,
                setup=lambda state=state: shutil.rmtree(state, ignore_errors=True),
            )
            out += ratio_row(
                "testsmap",
                f"PostToolUse, Edit of a mapped source file ({what})",
                samples,
                ctx,
                None,
            )
        finally:
            shutil.rmtree(project, ignore_errors=True)
    return out
