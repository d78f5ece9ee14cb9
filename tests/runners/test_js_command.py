"""Which command lines run vitest or jest, and what the rewrite appends (only appends) to them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sidekit_hooks.runners.js import command as js_command
from sidekit_hooks.runners.js import jest as jest
from sidekit_hooks.runners.js import vitest as vitest

VITEST_REPORTER = js_command.reporter_path("vitest-reporter.mjs")
JEST_REPORTER = js_command.reporter_path("jest-reporter.cjs")


def _project(tmp_path: Path, script: str | None, **extra: object) -> Path:
    package: dict[str, object] = {"name": "p", **extra}
    if script is not None:
        package["scripts"] = {"test": script}
    (tmp_path / "package.json").write_text(json.dumps(package))
    return tmp_path


def _appended(words: list[str], rewritten: list[str] | None) -> list[str]:
    assert rewritten is not None and rewritten[: len(words)] == words
    return rewritten[len(words) :]


@pytest.mark.parametrize(
    "words",
    [
        ["vitest", "run"],
        ["npx", "vitest", "run"],
        ["npx", "--yes", "vitest", "run", "src/a.test.ts"],
        ["pnpm", "exec", "vitest", "run"],
        ["yarn", "vitest", "run"],
        ["node_modules/.bin/vitest", "run"],
        ["vitest", "related", "src/a.ts"],
        ["npx", "vitest", "--run"],
        ["npx", "vitest"],
    ],
)
def test_vitest_forms(words: list[str], tmp_path: Path) -> None:
    assert vitest.matches(words, str(tmp_path)) and not jest.matches(words, str(tmp_path))


@pytest.mark.parametrize(
    "words",
    [
        ["vitest", "bench"],
        ["vitest", "list"],
        ["npx", "-p", "vitest", "vitest", "run"],
        ["python", "vitest"],
        ["npm", "test"],
        ["other/vitest", "run"],
        [],
    ],
)
def test_not_vitest_runs(words: list[str], tmp_path: Path) -> None:
    assert not vitest.matches(words, str(tmp_path))


def test_vitest_run_gets_reporters_and_a_fresh_report_under_sidekit(tmp_path: Path) -> None:
    extra = _appended(
        ["npx", "vitest", "run"], vitest.compact_words(["npx", "vitest", "run"], str(tmp_path))
    )
    assert extra[:3] == ["--reporter=default", f"--reporter={VITEST_REPORTER}", "--reporter=json"]
    report = extra[3].partition("=")[2]
    assert extra[3].startswith("--outputFile.json=")
    assert report.startswith(str(tmp_path / ".sidekit" / "vitest" / "report-"))
    assert report.endswith(".json") and len(extra) == 4
    again = vitest.compact_words(["npx", "vitest", "run"], str(tmp_path))
    assert again is not None and again[-1] != extra[-1]  # runs in parallel never share a report


def test_plain_vitest_is_made_a_single_run(tmp_path: Path) -> None:
    assert (
        _appended(["npx", "vitest"], vitest.compact_words(["npx", "vitest"], str(tmp_path)))[0]
        == "--run"
    )


@pytest.mark.parametrize(
    "words",
    [
        ["npx", "vitest", "run", "--reporter=verbose"],
        ["vitest", "run", "--reporter", "dot"],
        ["vitest", "run", "--outputFile=x.json"],
        ["vitest", "watch"],
        ["vitest", "--watch"],
        ["vitest", "dev"],
        ["vitest", "run", "--help"],
        ["vitest", "--version"],
        ["vitest", "run", "--ui"],
        ["vitest", "run", "--", "x"],
        ["yarn", "vitest", "run"],
        ["pnpm", "exec", "vitest", "run"],
        ["vitest", "run", "--inspect-brk"],
    ],
)
def test_vitest_runs_left_alone(words: list[str], tmp_path: Path) -> None:
    assert vitest.compact_words(words, str(tmp_path)) is None


def test_npm_test_follows_the_test_script(tmp_path: Path) -> None:
    project = str(
        _project(tmp_path, "tsc --noEmit && cross-env NODE_ENV=test vitest run --coverage")
    )
    assert vitest.matches(["npm", "test"], project) and vitest.matches(
        ["npm", "run", "test"], project
    )
    assert vitest.matches(["pnpm", "test"], project) and vitest.matches(["yarn", "test"], project)
    assert not jest.matches(["npm", "test"], project)
    extra = _appended(["npm", "test"], vitest.compact_words(["npm", "test"], project))
    assert extra[:2] == ["--", "--reporter=default"]
    extra = _appended(
        ["npm", "t", "--", "src"], vitest.compact_words(["npm", "t", "--", "src"], project)
    )
    assert extra[0] == "--reporter=default"  # after the existing `--`: still the script's
    assert (
        vitest.compact_words(["pnpm", "test"], project) is None
    )  # how pnpm passes options on: not measured
    assert vitest.compact_words(["npm", "test", "--", "--reporter=dot"], project) is None


@pytest.mark.parametrize(
    "script",
    [
        "vitest run; echo done",
        "vitest run | tee out",
        "vitest run && echo ok",
        "echo $(vitest run)",
        "jest",
        "",
    ],
)
def test_scripts_whose_last_command_is_not_vitest_are_not_rewritten(
    script: str, tmp_path: Path
) -> None:
    project = str(_project(tmp_path, script))
    assert vitest.compact_words(["npm", "test"], project) is None


def test_jest_forms_and_appended_options(tmp_path: Path) -> None:
    for words in (["jest"], ["npx", "jest", "src"], ["node_modules/.bin/jest", "-t", "x"]):
        assert jest.matches(words, str(tmp_path))
    extra = _appended(["npx", "jest"], jest.compact_words(["npx", "jest"], str(tmp_path)))
    assert extra[:3] == [f"--reporters={JEST_REPORTER}", "--reporters=default", "--json"]
    assert (
        extra[3].startswith(f"--outputFile={tmp_path / '.sidekit' / 'jest' / 'report-'}")
        and len(extra) == 4
    )
    project = str(_project(tmp_path, "NODE_OPTIONS=--experimental-vm-modules jest --ci"))
    assert _appended(["npm", "test"], jest.compact_words(["npm", "test"], project))[0] == "--"


@pytest.mark.parametrize(
    "words",
    [
        ["jest", "--watch"],
        ["jest", "--watchAll"],
        ["jest", "--json"],
        ["jest", "--outputFile", "x"],
        ["jest", "--reporters=default"],
        ["jest", "--listTests"],
        ["jest", "--help"],
        ["jest", "--showConfig"],
        ["jest", "--", "x"],
        ["yarn", "jest"],
    ],
)
def test_jest_runs_left_alone(words: list[str], tmp_path: Path) -> None:
    assert jest.compact_words(words, str(tmp_path)) is None


def test_detection_from_the_project(tmp_path: Path) -> None:
    assert not vitest.detect(str(tmp_path)) and not jest.detect(str(tmp_path))
    (tmp_path / "vitest.config.ts").write_text("export default {}\n")
    assert vitest.detect(str(tmp_path)) and not jest.detect(str(tmp_path))
    _project(tmp_path, None, devDependencies={"jest": "^30"})
    assert jest.detect(str(tmp_path))
    _project(tmp_path, None, jest={"testEnvironment": "node"})
    assert jest.detect(str(tmp_path))


def test_what_sidekit_test_runs_writes_a_fresh_report_collect_can_find(tmp_path: Path) -> None:
    argv = vitest.command(str(tmp_path))
    assert argv[:5] == ["npx", "vitest", "run", "--reporter=default", "--reporter=json"]
    assert argv[5].startswith(f"--outputFile.json={tmp_path / '.sidekit' / 'vitest' / 'report-'}")
    argv = jest.command(str(tmp_path))
    assert argv[:3] == ["npx", "jest", "--json"]
    assert argv[3].startswith(f"--outputFile={tmp_path / '.sidekit' / 'jest'}")
    assert (tmp_path / ".sidekit" / "jest").is_dir()  # jest would not make it


def test_a_sidekit_folder_that_leads_outside_the_project_is_never_written_through(
    tmp_path: Path,
) -> None:
    project, outside = tmp_path / "proj", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / ".sidekit").symlink_to(outside)
    assert vitest.compact_words(["npx", "vitest", "run"], str(project)) is None
    assert jest.compact_words(["npx", "jest"], str(project)) is None
    with pytest.raises(OSError):
        jest.command(str(project))
    assert list(outside.iterdir()) == []
