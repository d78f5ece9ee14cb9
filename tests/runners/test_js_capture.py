"""The shipped reporters' common part (runners/js/capture.cjs), driven by node directly."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sidekit_hooks.runners.js import command as js_command
from testing import requires

CAPTURE = Path(js_command.reporter_path("capture.cjs"))


@pytest.fixture(autouse=True)
def _needs_node() -> None:
    requires.program("node", "install Node.js")


def _node(script: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["node", "-e", script],
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def test_what_npm_echoes_before_the_runner_is_counted_but_npx_echoes_nothing(
    tmp_path: Path,
) -> None:
    script = (
        f"const c = require({json.dumps(str(CAPTURE))}); "
        "console.log(c.printedBefore(process.env, ['node', 'vitest.mjs', 'run', '--x']))"
    )
    npm = {
        "npm_lifecycle_event": "test",
        "npm_command": "test",
        "npm_package_name": "proj",
        "npm_package_version": "1.0.0",
        "npm_lifecycle_script": "vitest run",
    }
    assert (
        _node(script, tmp_path, npm).communicate()[0] == f"{12 + 4 + 5 + 4 + 10 + len('run --x')}\n"
    )
    npx = {"npm_lifecycle_event": "npx", "npm_command": "exec", "npm_lifecycle_script": "'vitest'"}
    assert _node(script, tmp_path, npx).communicate()[0] == "0\n"


def test_a_run_stopped_by_sigterm_says_so_and_dies_by_the_signal(tmp_path: Path) -> None:
    report = tmp_path / ".sidekit" / "vitest" / "report-1.json"
    script = (
        f"const s = require({json.dumps(str(CAPTURE))}).start('vitest'); "
        f"s.setReport({json.dumps(str(report))}); "
        "console.log('RUN v4'); console.log(' ❯ test/slow.test.js'); setTimeout(() => {}, 60000)"
    )
    child = _node(script, tmp_path)
    time.sleep(1.0)
    child.send_signal(signal.SIGTERM)
    out = child.communicate(timeout=20)[0]
    assert child.returncode == -signal.SIGTERM
    raw = sorted((tmp_path / ".sidekit" / "vitest").glob("raw-*.txt"))
    assert len(raw) == 1 and raw[0].read_text() == "RUN v4\n ❯ test/slow.test.js\n"
    assert out.startswith("sidekit: vitest was stopped by SIGTERM after ") and out.endswith(
        f"s, before it finished; what it printed: {raw[0]}; its last line: ❯ test/slow.test.js\n"
    )


def test_sidekit_raw_turns_the_capture_off(tmp_path: Path) -> None:
    script = f"const s = require({json.dumps(str(CAPTURE))}).start('vitest'); console.log(s === null ? 'off' : 'on')"
    assert _node(script, tmp_path, {"SIDEKIT_RAW": "1"}).communicate()[0] == "off\n"
    assert _node(script, tmp_path, {"SIDEKIT_RAW": "0"}).communicate()[0] != "off\n"


def test_the_raw_output_is_never_written_through_a_link_out_of_the_project(tmp_path: Path) -> None:
    project, outside = tmp_path / "proj", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / ".sidekit").symlink_to(outside)
    report = project / ".sidekit" / "vitest" / "report-1.json"
    script = (
        f"const s = require({json.dumps(str(CAPTURE))}).start('vitest'); "
        f"s.setReport({json.dumps(str(report))}); "
        "console.log('RUN v4'); console.log('all output')"
    )
    out = _node(script, project).communicate(timeout=30)[0]
    assert out == "RUN v4\nall output\n"  # printed as it was, nothing saved
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ({"testNamePattern": "b", "bail": 0}, ["b", ""]),
        ({"bail": 1, "selectProjects": ["x"]}, ["", "bail,project"]),
        ({"bail": 0, "selectProjects": []}, ["", ""]),
    ],
)
def test_the_jest_reporter_hands_over_the_name_filter_and_what_narrows_the_run(
    config: dict[str, object], said: list[str], tmp_path: Path
) -> None:
    reporter, out = CAPTURE.parent / "jest-reporter.cjs", tmp_path / "state.json"
    script = (
        f"const R = require({json.dumps(str(reporter))}); new R({json.dumps(config)}); "
        "const s = globalThis[Symbol.for('sidekit.capture')]; "
        f"require('fs').writeFileSync({json.dumps(str(out))}, JSON.stringify([s.filter, "
        "s.partial]))"
    )
    _node(script, tmp_path).communicate(timeout=30)
    assert json.loads(out.read_text()) == said


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ("{testNamePattern: /b|c/, bail: 0, project: []}", ["/b|c/", ""]),
        ("{bail: 2, project: ['x']}", ["", "bail,project"]),
        ("{bail: 0, project: []}", ["", ""]),
    ],
)
def test_the_vitest_reporter_hands_over_the_name_filter_and_what_narrows_the_run(
    config: str, said: list[str], tmp_path: Path
) -> None:
    reporter, out = CAPTURE.parent / "vitest-reporter.mjs", tmp_path / "state.json"
    script = (
        f"const m = await import({json.dumps(reporter.as_uri())}); new "
        f"m.default().onInit({{config: {config}}}); "
        "const s = globalThis[Symbol.for('sidekit.capture')]; "
        f"(await import('node:fs')).writeFileSync({json.dumps(str(out))}, "
        "JSON.stringify([s.filter, s.partial]))"
    )
    child = subprocess.Popen(
        ["node", "--input-type=module", "-e", script],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"},
        text=True,
    )
    child.communicate(timeout=30)
    assert json.loads(out.read_text()) == said


def test_a_run_whose_reporter_never_read_its_config_covers_nothing(tmp_path: Path) -> None:
    out = tmp_path / "state.json"
    script = (
        f"const s = require({json.dumps(str(CAPTURE))}).start('jest'); "
        f"require('fs').writeFileSync({json.dumps(str(out))}, JSON.stringify([s.filter, "
        "s.partial]))"
    )
    _node(script, tmp_path).communicate(timeout=30)
    assert json.loads(out.read_text()) == ["", "unknown"]
