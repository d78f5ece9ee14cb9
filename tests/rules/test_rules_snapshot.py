from __future__ import annotations

import os
from pathlib import Path

import pytest

from sidekit_hooks.core import hooklog
from sidekit_hooks.rules import snapshot

BUILTIN_IDS = [
    "starter.go.ioutil",
    "starter.go.breakpoint",
    "starter.ts.no-debugger",
    "starter.ts.focused-test",
    "starter.no-breakpoint",
    "starter.conflict-markers",
    "starter.commit-no-verify",
]


def pack(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(f'[pack]\nname = "{name}"\n{body}')
    return path


def rule(rule_id: str, message: str = "m", **extra: str) -> str:
    lines = [f'\n[[rules]]\nid = "{rule_id}"\nmessage = "{message}"']
    lines += [f"{key} = {value}" for key, value in extra.items()]
    return "\n".join(lines) + "\n[rules.when]\nadded = 'x'\n"


def ids(snap: snapshot.Snapshot) -> list[str]:
    return [r["id"] for r in snap["rules"]]


def test_layers_override_by_id_in_order(project: Path, user_rules: Path) -> None:
    pack(user_rules, "mine", rule("team.a", "from user") + rule("team.b", "user b"))
    pack(project / "sidecar_rules", "team", rule("team.a", "from project"))
    pack(
        project / ".sidekit" / "rules",
        "local",
        rule("team.a", "from local") + rule("starter.conflict-markers", enabled="false"),
    )
    snap = snapshot.current(str(project))
    assert ids(snap) == [
        *BUILTIN_IDS[:4],
        "starter.no-breakpoint",
        "starter.commit-no-verify",
        "team.b",
        "team.a",
    ]
    by_id = {r["id"]: r for r in snap["rules"]}
    assert (by_id["team.a"]["message"], by_id["team.a"]["layer"], by_id["team.a"]["file"]) == (
        "from local",
        "local",
        ".sidekit/rules/local.toml",
    )
    assert (by_id["team.b"]["layer"], by_id["team.b"]["file"]) == (
        "user",
        snapshot.display_path(str(user_rules / "mine.toml"), str(project)),
    )
    assert by_id["starter.no-breakpoint"]["file"] == "<builtin>/starter.toml"


def test_policy_tables_merge_later_layers_winning(project: Path, user_rules: Path) -> None:
    pack(user_rules, "mine", "[policy]\ncooldown = 600\ncooldowns = { tools = 60, specs = 5 }\n")
    pack(project / ".sidekit" / "rules", "local", "[policy]\ncooldowns = { tools = 1 }\n")
    assert snapshot.current(str(project))["policy"] == {
        "cooldown": 600,
        "cooldowns": {"tools": 1, "specs": 5},
    }


def test_a_changed_pack_is_seen_on_the_next_call(project: Path, user_rules: Path) -> None:
    path = pack(project / "sidecar_rules", "team", rule("team.a", "first"))
    assert [
        r["message"] for r in snapshot.current(str(project))["rules"] if r["id"] == "team.a"
    ] == ["first"]
    stat = os.stat(path)
    path.write_text(path.read_text().replace("first", "second"))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same mtime: size and inode still tell
    assert [
        r["message"] for r in snapshot.current(str(project))["rules"] if r["id"] == "team.a"
    ] == ["second"]
    path.unlink()
    assert "team.a" not in ids(snapshot.current(str(project)))


def test_an_unchanged_project_reuses_the_saved_snapshot(project: Path, user_rules: Path) -> None:
    pack(project / "sidecar_rules", "team", rule("team.a"))
    snapshot.current(str(project))
    saved = project / ".sidekit" / snapshot.SNAPSHOT_FILE
    before = os.stat(saved).st_mtime_ns, os.stat(saved).st_ino
    assert ids(snapshot.current(str(project)))[-1] == "team.a"
    assert (os.stat(saved).st_mtime_ns, os.stat(saved).st_ino) == before


def test_a_broken_pack_is_skipped_reported_once_and_logged(project: Path, user_rules: Path) -> None:
    pack(project / "sidecar_rules", "good", rule("good.a"))
    pack(project / "sidecar_rules", "bad", rule("bad.a").replace("added = 'x'", "added = '('"))
    notices: list[str] = []
    snap = snapshot.current(str(project), notices.append, "PostToolUse")
    assert "good.a" in ids(snap) and "bad.a" not in ids(snap)
    snapshot.current(str(project), notices.append, "PostToolUse")
    assert notices == [
        "sidekit: a broken rule pack was skipped (the others still apply): "
        "sidecar_rules/bad.toml:8: "
        "rules[0].when.added: regex does not compile: missing ), unterminated subpattern at "
        "position 0; "
        "details: sidekit rules lint sidecar_rules/bad.toml"
    ]
    assert snapshot.broken(str(project)) == [
        {"file": "sidecar_rules/bad.toml", "error": snap["broken"][0]["error"]}
    ]
    logged = [
        r
        for r in hooklog.read(str(project), hooklog.ERRORS)
        if r["where"] == "rules:sidecar_rules/bad.toml"
    ]
    assert len(logged) == 1 and logged[0]["hook"] == "PostToolUse"


def test_a_corrupt_snapshot_is_rebuilt(project: Path, user_rules: Path) -> None:
    saved = project / ".sidekit" / snapshot.SNAPSHOT_FILE
    saved.parent.mkdir()
    saved.write_text('{"format": 1, "rules": [')
    assert ids(snapshot.current(str(project))) == BUILTIN_IDS


def test_the_project_layer_is_not_read_twice_when_it_is_the_builtin_folder(
    user_rules: Path,
) -> None:
    repo = os.path.dirname(os.path.dirname(snapshot.builtin_dir()))
    assert [layer for layer, _ in snapshot.layer_dirs(repo)] == ["builtin", "user", "local"]


@pytest.mark.parametrize("requires", [">=99", "<0.0.1"])
def test_requires_not_satisfied_skips_the_pack(
    project: Path, user_rules: Path, requires: str
) -> None:
    pack(project / "sidecar_rules", "future", f'requires = "{requires}"\n' + rule("future.a"))
    snap = snapshot.current(str(project))
    assert "future.a" not in ids(snap)
    assert snap["broken"][0]["error"].startswith(
        f"sidecar_rules/future.toml:3: pack.requires: this pack needs sidekit {requires};"
    )


def test_concurrent_hooks_report_a_broken_pack_once(project: Path, user_rules: Path) -> None:
    import subprocess
    import sys

    pack(project / "sidecar_rules", "bad", "[[rules]]\nid = 3\n")
    code = (
        "import sys; from sidekit_hooks.rules import snapshot; "
        "snapshot.current(sys.argv[1], lambda text: print('NOTICE', text))"
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(project)], stdout=subprocess.PIPE, text=True
        )
        for _ in range(4)
    ]
    outputs = [run.communicate(timeout=30)[0] for run in runs]
    assert sum(out.count("NOTICE") for out in outputs) == 1
    assert snapshot.current(str(project))["broken"][0]["file"] == "sidecar_rules/bad.toml"
