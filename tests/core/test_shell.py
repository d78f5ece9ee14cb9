from __future__ import annotations

from sidekit_hooks.core.shell import core_words, segments


def test_segments_honour_quotes_and_mark_substitutions() -> None:
    found = segments("FOO='a b' grep -rn \"x y\" . | wc -l; echo `date` && cat f 2>/dev/null")
    assert [s.texts for s in found] == [
        ["FOO=a b", "grep", "-rn", "x y", "."],
        ["wc", "-l"],
        ["echo", "`date`"],
        ["cat", "f"],
    ]
    assert [(s.piped_in, s.piped_out, s.opaque, s.redirected) for s in found] == [
        (False, True, False, False),
        (True, False, False, False),
        (False, False, True, False),
        (False, False, False, True),
    ]
    assert found[3].write_targets == ["/dev/null"]
    assert [s.texts for s in segments("make 2>&1 >&2 | tee log")] == [["make"], ["tee", "log"]]


def test_variables_and_unclosed_quotes_make_a_segment_opaque() -> None:
    assert [s.opaque for s in segments('grep -rn "$NAME" . ; cat \'open ; rm x')] == [True, True]


def test_heredoc_bodies_are_not_commands() -> None:
    found = segments("cat > notes.md <<'EOF'\npytest -q; rm -rf /\nEOF\nls")
    assert [s.texts for s in found] == [["cat"], ["ls"]]
    assert found[0].write_targets == ["notes.md"]


def test_core_words_drop_wrappers_runners_and_venv_paths() -> None:
    assert core_words(
        ["FOO=1", "sudo", "timeout", "60", "uv", "run", ".venv/bin/pytest", "-q"]
    ) == ["pytest", "-q"]
    assert core_words(["--opt=1", "x"]) == ["--opt=1", "x"]
