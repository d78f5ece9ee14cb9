"""The session corpus: whole scripted sessions on real projects, in the real Claude Code CLI
(2.1.328).

The shape of the corpus is checked without playing it: at least 8 projects, 5 of them new to this
repository, half in the plugin form, two with a `/compact`, each session at least 25 calls with its
three cases (a restructured copy of a project helper, a raw red run, an edit outside the scope) at
the steps it names, and every session labelled by a reviewer in `tests/sessions/<name>.labels.json`.
A session without one is pending review, and fails here by name until it is labelled.

`test_the_session_corpus` plays every session once and checks, over the labelled ones, the targets
of issue #18: no wrong nudge; useful delivered >= 90% of the useful findings the detectors made;
noise <= 2 per 100 tool calls; nudge bytes under 5% of tool-result bytes in every session. The table
is printed (`-s`); with $SIDEKIT_SESSIONS_REPORT it is written as JSON; $SIDEKIT_SESSIONS_ONLY
(names, comma-separated) plays only those, without the targets; $SIDEKIT_SESSIONS_JOBS plays that
many at a time (3 by default; 1 plays them one by one); with $SIDEKIT_SESSIONS_TRANSCRIPTS (a
folder, e.g. tests/sessions/transcripts) each session's transcript is written there as <name>.md,
for the reviewer.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from sessions import corpus
from testing import requires
from testing.claude import FINAL_TEXT, ToolCall, pinned_cli, run_claude

OLD_PROJECTS = {
    "boltons",
    "isodate",
    "cachetools",
    "toolz",
    "click",
    "more-itertools",
}  # used here before #18
# pytest's or vitest's own summary, go test's FAIL lines, or sidekit's compact answer
RED = re.compile(r'\b\d+ (failed|errors?)\b|"failed":[1-9]|^(--- )?FAIL\b', re.MULTILINE)


# ---------------------------------------------------------------------------------------------------
# The corpus' shape (without playing it)


def project_of(script: corpus.Script) -> str:
    return corpus.project_name(script.data)


# What a new function looks like, and the raw runs of the project's own tests, per registry's
# language.
FUNCTION_STARTS = {
    "pypi": ("\ndef ",),
    "npm": ("\nfunction ", "\nexport function ", "\nconst "),
    "go": ("\nfunc ",),
}
RAW_RUNS = {"pypi": ("pytest",), "npm": ("vitest", "jest"), "go": ("go test",)}


def in_scope(script: corpus.Script, step: dict[str, Any]) -> bool:
    path = str(step["input"]["file_path"]).removeprefix("${PROJECT}/")
    return any(fnmatch.fnmatch(path, pattern) for pattern in script.data["scope"]["allow"])


def case_problems(script: corpus.Script) -> list[str]:
    """What is wrong with the steps a session names for its three cases ([] when all three are
    there)."""
    steps, covers = script.steps, script.data.get("covers", {})
    missing = sorted({"copy", "red_run", "out_of_scope"} - set(covers))
    if missing:
        return [f"covers lacks {missing}"]
    problems = []
    copy, red, stray = (
        steps[covers["copy"]],
        steps[covers["red_run"]],
        steps[covers["out_of_scope"]],
    )
    registry = corpus.registry_of(script.data)
    added = str(copy["input"].get("new_string", copy["input"].get("content", "")))
    if copy["tool"] not in ("Edit", "Write") or not any(
        start in f"\n{added}" for start in FUNCTION_STARTS[registry]
    ):
        problems.append(f"copy: step {covers['copy']} writes no function")
    command = str(red["input"].get("command", "")) if red["tool"] == "Bash" else ""
    if not any(run in command for run in RAW_RUNS[registry]) or command.startswith("sidekit"):
        problems.append(
            f"red_run: step {covers['red_run']} is not a raw {RAW_RUNS[registry][0]} run through "
            "Bash"
        )
    if stray["tool"] not in ("Edit", "Write") or in_scope(script, stray):
        problems.append(
            f"out_of_scope: step {covers['out_of_scope']} is not an edit outside the scope"
        )
    return problems


def test_the_corpus_has_the_shape_issue_18_asks_for() -> None:
    scripts = [corpus.load(name) for name in corpus.names()]
    projects = {project_of(script) for script in scripts}
    assert len(projects) == len(scripts) >= 8
    assert len(projects - OLD_PROJECTS) >= 5, sorted(projects)
    assert 2 * sum(script.data.get("wiring") == "plugin" for script in scripts) >= len(scripts)
    assert sum("compact_after" in script.data for script in scripts) >= 2
    assert {s.name: len(s.steps) for s in scripts if len(s.steps) < 25} == {}
    assert {s.name: case_problems(s) for s in scripts if case_problems(s)} == {}


def test_every_session_is_labelled_by_a_reviewer() -> None:
    """A session nobody has labelled yet is pending review: it must not pass quietly."""
    pending = [name for name in corpus.names() if not corpus.load(name).labelled]
    assert pending == [], (
        f"pending review: {', '.join(pending)}. A reviewer who did not write these sessions "
        "labels every nudge in "
        "tests/sessions/transcripts/<name>.md (and what the detectors found but did not deliver) "
        "as useful, noise "
        "or wrong, from the transcript and the project's source, in "
        f"tests/sessions/<name>{corpus.LABELS_SUFFIX} "
        '({"reviewer": ..., "labels": [{"match", "label", "why"}], "misses": [{"step", "what", '
        '"why"}]}).'
    )


def test_a_missing_labels_file_leaves_the_session_pending(tmp_path: Path) -> None:
    script = corpus.Script("x", {"steps": []})
    assert (script.labelled, script.label_of("[sidecar:scope] anything")) == (False, None)
    labelled = corpus.Script(
        "x", {"steps": []}, {"labels": [{"match": "scope]", "label": "useful", "why": "w"}]}
    )
    assert labelled.label_of("[sidecar:scope] anything") == {
        "match": "scope]",
        "label": "useful",
        "why": "w",
    }


def test_a_transcript_clips_long_output_and_says_how_much() -> None:
    text = "\n".join(f"line {n}" for n in range(100))
    clipped = corpus.clip(text).splitlines()
    cut = "\n".join(f"line {n}" for n in range(30, 70))
    assert clipped[30] == f"… (40 lines, {len(cut.encode())} bytes cut) …"
    assert clipped[:30] == [f"line {n}" for n in range(30)] and clipped[31:] == [
        f"line {n}" for n in range(70, 100)
    ]
    assert corpus.clip("short\nrun") == "short\nrun"


# ---------------------------------------------------------------------------------------------------
# Playing it


@pytest.fixture(scope="module")
def claude() -> Path:
    return pinned_cli()


def downloaded(names: list[str]) -> None:
    """Every project (sdist, npm package, Go module) is there, or the test skips saying why (CI,
    which has the registries, fails instead)."""
    for name in names:
        package = corpus.load(name).data["package"]
        try:
            corpus.download(corpus.load(name).data)
        except subprocess.CalledProcessError as exc:
            reason = f"cannot download {package} from the package registry: {exc.stderr[-300:]!r}"
            requires.missing(reason, "give this machine the package registry")


def play(
    name: str,
    root: Path,
    claude: Path,
    tmp_path: Path,
    script: corpus.Script | None = None,
    pace: float = corpus.PACE,
) -> corpus.Result:
    """Play the session `name` (or `script`: part of one, as the bench's --quick plays, at its
    `pace`)."""
    script = script or corpus.load(name)
    session_id = str(uuid.uuid4())
    path = os.pathsep.join(
        part
        for part in os.environ.get("PATH", "").split(os.pathsep)
        if part and not (Path(part) / "sidekit").exists()
    )  # the agent's shell has no venv
    plugin = corpus.REPO if script.data.get("wiring") == "plugin" else None
    home = tmp_path / f"home-{name}"

    def turn(
        prompt: str, steps: list[ToolCall | str], resume: bool, result: str = FINAL_TEXT
    ) -> Any:
        run = run_claude(
            claude,
            root,
            prompt,
            steps,
            session_id=session_id,
            home=home,
            env={"PATH": path, **corpus.toolchain_env(script.data)},
            timeout=60 + 4 * len(steps),
            pace=pace,
            plugin_dir=plugin,
            resume=resume,
        )
        assert run.returncode == 0 and run.result == result, (
            f"claude -p {prompt!r}: {run.result!r}\n{run.stderr[-2000:]}"
        )
        return run

    runs = []
    for offset, steps in script.turns:
        calls: list[ToolCall | str] = [
            ToolCall(step["tool"], corpus.expand(step["input"], root)) for step in steps
        ]
        if offset:  # the second turn: compact what came before, then go on
            turn("/compact", [FINAL_TEXT], resume=True, result="")
        runs.append(
            (
                offset,
                turn(
                    script.data.get("resume_prompt", corpus.RESUME_PROMPT)
                    if offset
                    else script.data["prompt"],
                    calls,
                    resume=bool(offset),
                ),
            )
        )
    result = corpus.collect(script, runs, root, session_id)
    folder = os.environ.get("SIDEKIT_SESSIONS_TRANSCRIPTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{name}.md").write_text(corpus.transcript(script, result, root))
    return result


def test_the_session_corpus(claude: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One test plays every session (a parallel run must not split the corpus), then checks the
    targets."""
    monkeypatch.delenv(
        "SIDEKIT_NUDGE_BUDGET"
    )  # the product as users get it (the nudge budget holds reminders only)
    only = [
        name for name in os.environ.get("SIDEKIT_SESSIONS_ONLY", "").split(",") if name
    ]  # debugging: no targets
    names = only or corpus.names()
    downloaded(names)
    # Projects are set up three at a time (pip waits on the network) while the sessions play, JOBS
    # at a time: a session spends most of its time waiting (the model's pace, the CLI): three side
    # by side took 4.6 min here, one by one 8.7 min, with the same nudges and bytes.
    jobs = int(os.environ.get("SIDEKIT_SESSIONS_JOBS", "3"))
    with (
        ThreadPoolExecutor(max_workers=3) as setup,
        ThreadPoolExecutor(max_workers=jobs) as players,
    ):
        roots = {
            name: setup.submit(corpus.prepare, corpus.load(name), tmp_path / name) for name in names
        }
        results = list(
            players.map(lambda name: play(name, roots[name].result(), claude, tmp_path), names)
        )
    for result in results:
        name = result.name
        print(
            f"\n{name}:\n"
            + "\n".join(
                f"  [{n.step}] {n.label or 'UNLABELLED'}: {n.text}" for n in result.delivered
            )
        )
        held = [text for text in result.available if text not in {n.text for n in result.delivered}]
        print(
            "  held back / not delivered:\n"
            + "\n".join(f"    {result.available[t] or 'UNLABELLED'}: {t}" for t in held)
        )
    print("\n" + corpus.table(results))
    report = os.environ.get("SIDEKIT_SESSIONS_REPORT")
    if report:
        Path(report).write_text(json.dumps([r.row() for r in results], indent=2) + "\n")
    red_runs = {r.name: r.bodies[corpus.load(r.name).data["covers"]["red_run"]] for r in results}
    not_red = {name: body[-600:] for name, body in red_runs.items() if not RED.search(body)}
    assert not_red == {}, "each raw red run is red"
    if only:
        pytest.skip(f"only {', '.join(only)} played: the targets are checked over the whole corpus")
    missed = targets_missed(results)
    print(f"\nknown misses (kept visible, not allowed to grow): {json.dumps(KNOWN_MISSES)}")
    assert beyond_known(missed) == {}


# Targets of #18 the corpus misses, each with the ceiling it may not pass, so that a known miss
# stays visible in every run and cannot grow; any other miss fails (unlabelled, wrong, useful
# delivered < 90%, noise, bytes, pending review). Empty on the final wave-3 main: every target is
# met. A "delivered / available" value is measured as the share NOT delivered.
KNOWN_MISSES: dict[str, dict[str, float]] = {
    # Issue #35 (2026-12-05, 34 / 43 measured with the nudge budget on): a standing finding is said
    # again once (at the first Stop or compaction), and, with SIDEKIT_NUDGE_BUDGET on, what nudges
    # cost fits 5% of the tool-result bytes. The useful findings no longer delivered are all Stop /
    # post-compaction reminders the labels judged useful (humanize 2 and xmltodict 1 by the once
    # rule, tabulate 2 by the budget); every first finding is delivered as before (19 of the
    # reviewer's 28 expected). Since the budget holds reminders by default (nudges/spend.py), every
    # session's nudges fit 5% of its tool results (xmltodict 4.1%, tabulate 3.4%; were 5.3% and
    # 5.0%), and useful delivered was 39 / 48 in that run (18.75% not delivered, reminders held back
    # among them).
    "useful delivered < 90% of available": {"corpus": 20.95},
}


def measured(value: object) -> float:
    """A miss's value as a number: "5.1%" -> 5.1; "31 / 35" (delivered / available) -> 11.4 (% not
    delivered)."""
    text = str(value).rstrip("%")
    if "/" in text:
        delivered, available = (float(part) for part in text.split("/"))
        return 100 * (available - delivered) / available
    return float(text)


def beyond_known(missed: dict[str, Any]) -> dict[str, Any]:
    """The misses KNOWN_MISSES does not cover, or that went past their ceiling."""
    left: dict[str, Any] = {}
    for target, found in missed.items():
        ceilings = KNOWN_MISSES.get(target)
        if ceilings is None or not isinstance(found, dict):
            left[target] = found
            continue
        over = {
            name: value
            for name, value in found.items()
            if name not in ceilings or measured(value) > ceilings[name]
        }
        if over:
            left[target] = over
    return left


def test_a_known_miss_may_not_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    useful = "useful delivered < 90% of available"
    monkeypatch.delitem(KNOWN_MISSES, useful, raising=False)
    assert beyond_known({useful: {"corpus": "31 / 35"}}) == {
        useful: {"corpus": "31 / 35"}
    }  # none is known now
    monkeypatch.setitem(KNOWN_MISSES, useful, {"corpus": 11.5})
    assert beyond_known({useful: {"corpus": "31 / 35"}}) == {}
    assert beyond_known({useful: {"corpus": "30 / 35"}}) == {useful: {"corpus": "30 / 35"}}
    monkeypatch.setitem(KNOWN_MISSES, "nudge bytes >= 5% of tool-result bytes", {"tabulate": 7.9})
    assert beyond_known({"nudge bytes >= 5% of tool-result bytes": {"tabulate": "7.6%"}}) == {}
    assert beyond_known({"nudge bytes >= 5% of tool-result bytes": {"boltons": "5.1%"}}) == {
        "nudge bytes >= 5% of tool-result bytes": {"boltons": "5.1%"}
    }
    assert beyond_known({"wrong nudges": {"boltons": 1}}) == {"wrong nudges": {"boltons": 1}}
    assert measured("5.1%") == 5.1 and round(measured("31 / 35"), 1) == 11.4


def targets_missed(results: list[corpus.Result]) -> dict[str, Any]:
    """Each target of issue #18 the corpus misses, with what it measured ({} when all are met)."""
    judged = [r for r in results if not r.pending]
    useful = sum(len(r.useful_available) for r in judged)
    delivered = sum(len(r.useful_delivered) for r in judged)
    missed: dict[str, Any] = {
        "unlabelled nudges (label them in tests/sessions/<name>.labels.json)": {
            r.name: r.unlabelled() for r in judged if r.unlabelled()
        },
        "wrong nudges": {r.name: r.count("wrong") for r in judged if r.count("wrong")},
        "useful delivered < 90% of available": {}
        if delivered >= 0.9 * useful
        else {"corpus": f"{delivered} / {useful}"},
        "noise > 2 per 100 calls": {
            r.name: round(r.noise_per_100, 1) for r in judged if r.noise_per_100 > 2.0
        },
        "nudge bytes >= 5% of tool-result bytes": {
            r.name: f"{100 * r.byte_share:.1f}%" for r in results if r.byte_share >= 0.05
        },
        "pending review (played and measured; see test_every_session_is_labelled_by_a_reviewer)": [
            r.name for r in results if r.pending
        ],
    }
    return {target: found for target, found in missed.items() if found}


def test_the_targets_name_each_miss_with_what_was_measured() -> None:
    quiet = corpus.Result(
        "quiet", 30, [corpus.Nudge(3, "[sidecar:scope] x", "useful")], {}, 40_000, 400
    )
    loud = corpus.Result(
        "loud",
        25,
        [corpus.Nudge(1, "[sidecar:tools] y", "noise"), corpus.Nudge(2, "[sidecar:a] z")],
        {},
        10_000,
        600,
    )
    pending = corpus.Result(
        "new", 27, [corpus.Nudge(4, "[sidecar:tests] w")], {}, 10_000, 100, pending=True
    )
    assert targets_missed([quiet]) == {}
    assert targets_missed([quiet, loud, pending]) == {
        "unlabelled nudges (label them in tests/sessions/<name>.labels.json)": {
            "loud": ["[sidecar:a] z"]
        },
        "noise > 2 per 100 calls": {"loud": 4.0},
        "nudge bytes >= 5% of tool-result bytes": {"loud": "6.0%"},
        "pending review (played and measured; see test_every_session_is_labelled_by_a_reviewer)": [
            "new"
        ],
    }


def test_a_useful_label_that_matched_nothing_counts_as_expected_and_not_delivered() -> None:
    review = {
        "labels": [
            {"match": "reuse it instead of _copy()", "label": "useful", "why": "a copy"},
            {"match": "[sidecar:scope] FYI", "label": "useful", "why": "a read outside"},
            {"match": "[sidecar:tests] pytest:", "label": "wrong", "why": "stale"},
        ]
    }
    script = corpus.Script("s", {"steps": []}, review)
    result = corpus.Result(
        "s",
        25,
        [corpus.Nudge(2, "[sidecar:scope] FYI: a.py is outside", "useful")],
        {},
        9000,
        90,
        lost=["reuse it instead of _copy()"],
    )
    assert (len(result.useful_delivered), len(result.useful_available)) == (1, 2)
    assert targets_missed([result]) == {"useful delivered < 90% of available": {"corpus": "1 / 2"}}
    found = ["[sidecar:scope] FYI: a.py is outside", "[sidecar:tests] pytest: 1 failed"]
    assert corpus.lost_findings(script, found) == ["reuse it instead of _copy()"]
    found = [
        "[sidecar:tools] x.py:3 copy() already does this; reuse it instead of _copy().",
        "[sidecar:scope] FYI: b",
    ]
    assert corpus.lost_findings(script, found) == []


def test_the_accounting_counts_against_the_reviewers_expectations_with_reminders_apart() -> None:
    """Issue #35: the headline counted against what the sidecars found; 8 of its 43 were primers and
    10 Stop reminders. Now: against the reviewer's useful labels and misses, first findings
    apart."""
    misses: list[dict[str, Any]] = [
        {"step": 9, "what": "parse_week() repeats parse()", "why": "a restructured copy"}
    ]
    review: dict[str, Any] = {
        "labels": [
            {"match": "This task's scope (T-1)", "label": "useful", "why": "the frame"},
            {"match": "reuse it instead of _copy()", "label": "useful", "why": "a copy"},
            {"match": "Still there as you finish: _copy()", "label": "useful", "why": "it ships"},
            {"match": "docs/a.md is outside", "label": "useful", "why": "out of scope"},
            {"match": "FYI: b.py", "label": "noise", "why": "a read"},
        ],
        "misses": misses,
    }
    delivered = [
        corpus.Nudge(-1, "[sidecar:scope] This task's scope (T-1): edit only src/**.", "useful"),
        corpus.Nudge(
            4,
            "[sidecar:tools] a.py:3 copy() already does this; reuse it instead of _copy().",
            "useful",
        ),
        corpus.Nudge(
            20,
            "[sidecar:tools] Still there as you finish: _copy() copies copy() (a.py:3).",
            "useful",
        ),
    ]
    available = {"[sidecar:scope] FYI: b.py is outside this task's scope": "noise"}
    result = corpus.Result("s", 25, delivered, available, 9000, 300, misses, review=review)
    row = result.row()
    assert (row["usefulDelivered"], row["usefulAvailable"]) == (3, 3)  # the old headline: all of it
    assert (row["expectedDelivered"], row["expected"]) == (
        3,
        5,
    )  # the out-of-scope edit and the miss are not
    assert (row["firstDelivered"], row["firstExpected"]) == (
        1,
        3,
    )  # the copy; not the edit, not the miss
    assert (row["remindersDelivered"], row["primersDelivered"]) == (1, 1)
    assert (row["labels"], row["labelsFromProduct"]) == (
        5,
        4,
    )  # the out-of-scope label matched no text this run
    assert corpus.table([result]).splitlines()[2] == (
        "| s | 25 | 3 (1, 1) | 3 / 3 | 3 / 5 | 1 / 3 | 0 | 0.0 | 300 / 9000 (3.3%) | 1 | 4 of 5 |"
    )
