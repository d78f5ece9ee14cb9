"""`sidekit rules list|lint|test|new` as a person (or CI) runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def sidekit(project: Path, clean_env: dict[str, str], tmp_path: Path):  # type: ignore[no-untyped-def]
    env = dict(clean_env, XDG_CONFIG_HOME=str(tmp_path / "config"))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sidekit_hooks.cli", "rules", *args, "--project", str(project)],
            capture_output=True,
            text=True,
            env=env,
            cwd=str(project),
            timeout=60,
        )

    return run


def test_new_scaffolds_a_pack_that_lints_and_tests_clean(sidekit, project: Path) -> None:  # type: ignore[no-untyped-def]
    done = sidekit("new", "acme-api")
    assert (done.returncode, done.stdout) == (
        0,
        "created sidecar_rules/acme-api.toml\n"
        "next: edit the example rule, then run: sidekit rules test sidecar_rules/acme-api.toml\n",
    )
    text = (project / "sidecar_rules" / "acme-api.toml").read_text()
    assert (
        text.startswith("# Rule pack scaffolded by `sidekit rules new acme-api`.")
        and 'id = "acme-api.no-print"' in text
    )
    assert sidekit("lint").stdout == "4 packs, 8 rules: 0 errors, 0 warnings\n"
    done = sidekit("test")
    assert (done.returncode, done.stdout) == (
        0,
        "ok     starter-go (<builtin>/starter-go.toml): 6 examples\n"
        "ok     starter-typescript (<builtin>/starter-typescript.toml): 7 examples\n"
        "ok     starter (<builtin>/starter.toml): 8 examples\n"
        "ok     acme-api (sidecar_rules/acme-api.toml): 2 examples\n"
        "4 packs, 23 examples: all as expected\n",
    )
    again = sidekit("new", "acme-api")
    assert (again.returncode, again.stderr) == (
        1,
        "sidekit: sidecar_rules/acme-api.toml already exists\n"
        "  fix: edit it, or pick another name: sidekit rules new acme-api-2\n",
    )


def test_new_refuses_a_bad_name(sidekit) -> None:  # type: ignore[no-untyped-def]
    done = sidekit("new", "Acme API")
    assert (done.returncode, done.stderr) == (
        1,
        "sidekit: 'Acme API' cannot be a pack name (lowercase letters, digits, - _ . only)\n"
        "  fix: sidekit rules new my-pack\n",
    )


def test_test_exits_1_and_names_the_example_that_did_not_hold(sidekit, project: Path) -> None:  # type: ignore[no-untyped-def]
    pack = project / "sidecar_rules" / "team.toml"
    pack.parent.mkdir()
    pack.write_text(
        '[pack]\nname = "team"\n\n[[rules]]\nid = "team.todo"\nmessage = "m"\n[rules.when]\nadded '
        '= "TODO"\n\n'
        '[[rules.examples]]\nfires = true\ncontent = "# todo: lower case"\n\n'
        '[[rules.examples]]\nfires = false\ncontent = "# nothing"\n'
    )
    done = sidekit("test", str(pack))
    assert (done.returncode, done.stdout) == (
        1,
        "FAIL   team (sidecar_rules/team.toml): 2 examples, 1 failed\n"
        "  sidecar_rules/team.toml:10: rules[0].examples[0] (team.todo): expected the rule to "
        "fire; it did not\n"
        "1 pack, 2 examples: 1 failed\n",
    )
    as_json = json.loads(sidekit("test", str(pack), "--format", "json").stdout)
    assert as_json["failed"] == 1 and as_json["packs"][0]["examples"] == 2


def test_test_and_lint_report_a_broken_pack(sidekit, project: Path) -> None:  # type: ignore[no-untyped-def]
    pack = project / "sidecar_rules" / "bad.toml"
    pack.parent.mkdir()
    pack.write_text(
        '[pack]\nname = "bad"\n[[rules]]\nid = "bad.a"\nmessage = "m"\n[rules.when]\nadded = "("\n'
    )
    done = sidekit("test")
    assert done.returncode == 1
    assert done.stdout.splitlines()[3:5] == [
        "BROKEN sidecar_rules/bad.toml",
        "  sidecar_rules/bad.toml:7: rules[0].when.added: regex does not compile: missing ), "
        "unterminated subpattern at position 0",
    ]
    lint = sidekit("lint")
    assert lint.returncode == 1 and lint.stdout.endswith("4 packs, 8 rules: 1 error, 0 warnings\n")


def test_list_shows_origin_overrides_and_what_is_off(sidekit, project: Path) -> None:  # type: ignore[no-untyped-def]
    (project / "sidecar_rules").mkdir()
    (project / "sidecar_rules" / "team.toml").write_text(
        '[pack]\nname = "team"\n[[rules]]\nid = "starter.no-breakpoint"\nmessage = "No '
        'breakpoints."\nsidecar = "tests"\n'
        "[rules.when]\nadded = 'breakpoint'\n"
    )
    (project / ".sidekit" / "rules").mkdir(parents=True)
    (project / ".sidekit" / "rules" / "mine.toml").write_text(
        '[pack]\nname = "mine"\n[[rules]]\nid = "starter.commit-no-verify"\nenabled = false\n'
    )
    done = sidekit("list")
    assert done.stdout == (
        "starter.go.ioutil         tools        low     builtin  <builtin>/starter-go.toml\n"
        "starter.go.breakpoint     conventions  high    builtin  <builtin>/starter-go.toml\n"
        "starter.ts.no-debugger    conventions  high    builtin  "
        "<builtin>/starter-typescript.toml\n"
        "starter.ts.focused-test   tests        high    builtin  "
        "<builtin>/starter-typescript.toml\n"
        "starter.no-breakpoint     tests        medium  project  sidecar_rules/team.toml  "
        "overrides builtin <builtin>/starter.toml\n"
        "starter.conflict-markers  conventions  high    builtin  <builtin>/starter.toml\n"
        "starter.commit-no-verify  tools        off     builtin  <builtin>/starter.toml  disabled "
        "by local .sidekit/rules/mine.toml\n"
    )
    rules = json.loads(sidekit("list", "--format", "json").stdout)["rules"]
    assert rules[4] == {
        "id": "starter.no-breakpoint",
        "sidecar": "tests",
        "severity": "medium",
        "layer": "project",
        "file": "sidecar_rules/team.toml",
        "overrides": ["builtin <builtin>/starter.toml"],
    }


def test_the_builtin_packs_pass_their_own_tests(sidekit) -> None:  # type: ignore[no-untyped-def]
    done = sidekit("test")
    assert (done.returncode, done.stdout.splitlines()[-1]) == (
        0,
        "3 packs, 21 examples: all as expected",
    )
