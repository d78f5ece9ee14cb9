"""The session corpus: whole scripted sessions on real projects, in the real Claude Code CLI (2.1.328).

Each session (tests/sessions/<name>.json) runs once per test run; every nudge the model received must
carry a label from the session file. Targets, over the whole corpus: no wrong nudge; useful delivered
>= 90% of the useful findings the detectors made; noise <= 3 per 100 tool calls; nudge bytes under 5%
of tool-result bytes. The table is printed (`-s`) and, with $SIDEKIT_SESSIONS_REPORT, written as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest
from testing.claude import REQUIRED_ENV, VERSION, ToolCall, cli_version, find_cli, run_claude
from sessions import corpus



@pytest.fixture(scope="module")
def claude() -> Path:
    cli, reason = find_cli()
    if cli is not None and not cli_version(cli).startswith(f"{VERSION} "):
        cli, reason = None, f"{cli} is not Claude Code {VERSION}"
    if cli is None:
        if os.environ.get(REQUIRED_ENV):
            pytest.fail(f"{reason} (and ${REQUIRED_ENV} is set)", pytrace=False)
        pytest.skip(reason)
    return cli


def play(name: str, claude: Path, tmp_path: Path) -> corpus.Result:
    script = corpus.load(name)
    try:
        corpus.sdist(script.data["package"])
    except subprocess.CalledProcessError as exc:  # no registry here: say so (CI, which has one, fails instead)
        reason = f"cannot download {script.data['package']} from the package registry: {exc.stderr[-300:]!r}"
        if os.environ.get(REQUIRED_ENV):
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    root = corpus.prepare(script, tmp_path / name)
    session_id = str(uuid.uuid4())
    steps = [ToolCall(step["tool"], corpus.expand(step["input"], root)) for step in script.steps]
    path = os.pathsep.join(part for part in os.environ.get("PATH", "").split(os.pathsep)
                           if part and not (Path(part) / "sidekit").exists())  # the agent's shell has no venv
    plugin = corpus.REPO if script.data.get("wiring") == "plugin" else None
    run = run_claude(claude, root, script.data["prompt"], steps, session_id=session_id, home=tmp_path / "home",
                     env={"PATH": path}, timeout=60 + 4 * len(steps), pace=corpus.PACE, plugin_dir=plugin)
    assert run.returncode == 0 and run.result == "done", f"claude -p: {run.result!r}\n{run.stderr[-2000:]}"
    return corpus.collect(script, run, root, session_id)


def script_step(name: str, index: int) -> str:
    step = corpus.load(name).steps[index]
    return f"{step['tool']} {json.dumps(step['input'])[:160]}"


def test_the_session_corpus(claude: Path, tmp_path: Path) -> None:
    """One test plays every session (a parallel run must not split the corpus), then checks the targets."""
    results = []
    only = os.environ.get("SIDEKIT_SESSIONS_ONLY")  # debugging one session: the targets are then not checked
    for name in [only] if only else corpus.names():
        result = play(name, claude, tmp_path)
        results.append(result)
        if os.environ.get("SIDEKIT_SESSIONS_VERBOSE"):
            for index, body in enumerate(result.bodies):
                print(f"--- {name} [{index}] {script_step(name, index)}\n{body[:600]}")
        print(f"\n{name}:\n" + "\n".join(f"  [{n.step}] {n.label or 'UNLABELLED'}: {n.text}" for n in result.delivered))
        held = [text for text in result.available if text not in {n.text for n in result.delivered}]
        print("  held back / not delivered:\n" + "\n".join(f"    {result.available[t] or 'UNLABELLED'}: {t}" for t in held))
    print("\n" + corpus.table(results))
    if only:
        pytest.skip(f"only {only} was played")
    report = os.environ.get("SIDEKIT_SESSIONS_REPORT")
    if report:
        Path(report).write_text(json.dumps([r.row() for r in results], indent=2) + "\n")
    assert {r.name: r.unlabelled() for r in results if r.unlabelled()} == {}, "label these in tests/sessions/<name>.json"
    assert len(results) >= 3 and all(r.calls >= 25 for r in results)
    useful = sum(len(r.useful_available) for r in results)
    delivered = sum(len(r.useful_delivered) for r in results)
    calls = sum(r.calls for r in results)
    assert sum(r.count("wrong") for r in results) == 0
    assert delivered >= 0.9 * useful, f"useful delivered {delivered} of {useful}"
    assert 100 * sum(r.count("noise") for r in results) / calls <= 3.0
    assert sum(r.nudge_bytes for r in results) < 0.05 * sum(r.result_bytes for r in results)
