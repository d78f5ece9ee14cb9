"""Which files a Bash command line writes: best effort, never a false alarm on reads or strings."""

from __future__ import annotations

import pytest

from sidekit_hooks.detectors.scope.shell_writes import write_targets


@pytest.mark.parametrize(
    ("command", "written"),
    [
        ("echo hi > out.txt", ["out.txt"]),
        ("echo hi >out.txt", ["out.txt"]),
        ("make 2> err.log 1>>build.log", ["err.log", "build.log"]),
        ("cmd &> all.log", ["all.log"]),
        ("ls 2>/dev/null; cmd 2>&1 >> build.log", ["build.log"]),
        ("cat a | tee -a log/x.txt other", ["log/x.txt", "other"]),
        ("sed -i 's/a/b/' f1 f2", ["f1", "f2"]),
        ("sed -i.bak -e 's/a/b/' -e 's/c/d/' f1", ["f1"]),
        ("sed --in-place=.orig 's/a/b/' f1", ["f1"]),
        ("sed -n 's/a/b/p' f1", []),
        ("perl -pi -e 's/a/b/' q.py", ["q.py"]),
        ("rm -rf build/ dist", ["build", "dist"]),
        ("touch a.py && mkdir -p pkg/sub", ["a.py", "pkg/sub"]),
        ("mv old.py new.py", ["old.py", "new.py"]),
        ("mv -t dest a b", ["a", "b", "dest"]),
        ("cp -r src dst/", ["dst"]),
        ("cp a b c dir", ["dir"]),
        ("ln -s target link", ["link"]),
        ("dd if=/dev/zero of=disk.img bs=1M count=1", ["disk.img"]),
        ("git rm -q x.py && git mv a.py b.py", ["x.py", "a.py", "b.py"]),
        ("git checkout v1.2 -- x.py", ["x.py"]),
        ("git restore --source HEAD~1 y.py", ["y.py"]),
        ("git restore -sHEAD~1 y.py", ["y.py"]),
        # Undo commands put back what was there: not out-of-scope writes.
        ("git checkout -- x.py", []),
        ("git checkout HEAD -- x.py y.py", []),
        ("git restore y.py", []),
        ("git restore --staged --worktree y.py", []),
        ("git restore --source HEAD y.py", []),
        ("git stash", []),
        ("git stash push -- y.py", []),
        ("cd auth && rm -rf old.py", ["auth/old.py"]),
        ("sudo -n tee /etc/hosts < x", ["/etc/hosts"]),
        ("FOO=1 sed -i s/a/b/ z.py", ["z.py"]),
        ("cat <<EOF > gen.py\nline > notme.txt\nrm -rf everything\nEOF\necho done", ["gen.py"]),
        ("cat <<-'END' | tee out.md\n\trm x\n\tEND", ["out.md"]),
    ],
)
def test_write_targets(command: str, written: list[str]) -> None:
    assert write_targets(command, "") == [w for w in written]


@pytest.mark.parametrize(
    "command",
    [
        "cat auth/session.py | head -5",
        "grep -rn 'a > b' src/",
        'echo "see ../foo > bar"',
        "echo 'rm -rf /'",
        "python x.py $(cat y) > $OUT",  # unresolvable target: skipped, not guessed
        "echo hi > ~/notes.txt",
        "cp *.py backup/x",  # sources are globs, destination is not: only the destination
        "ls -la ../ && git log --oneline -5",
        "pytest -q # > not-a-file",
        'echo `date` >> "$LOG"',
    ],
)
def test_reads_and_strings_are_not_writes(command: str) -> None:
    assert [t for t in write_targets(command, "") if t != "backup/x"] == []


def test_relative_targets_resolve_against_the_cwd() -> None:
    assert write_targets("echo x > a.txt && cd sub && touch ../b.txt c.txt", "/p") == [
        "/p/a.txt",
        "/p/b.txt",
        "/p/sub/c.txt",
    ]
