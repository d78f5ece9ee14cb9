"""`cat`/`head`/`tail`/`sed -n 'A,Bp'` of a file on its own: the Read tool."""

from __future__ import annotations

from collections.abc import Callable

import pytest

READ_LINE = (
    "[sidecar:tools] `{0}` of {1}: use the Read tool{2} instead; it shows line numbers and pages "
    "long "
    "files without the shell."
)

CASES = [
    ("cat app/models.py", READ_LINE.format("cat", "app/models.py", "")),
    ("head -n 40 app/models.py", READ_LINE.format("head", "app/models.py", " with offset/limit")),
    ("tail -50 build.log", READ_LINE.format("tail", "build.log", " with offset/limit")),
    (
        "sed -n '120,160p' app/models.py",
        "[sidecar:tools] `sed -n 120,160p` of app/models.py: use the Read tool with "
        "offset/limit instead; it shows line numbers and pages long files without the shell.",
    ),
    ("sed -n '/def /p' app/models.py", None),
    ("sed -i 's/a/b/' app/models.py", None),
    ("sed -n 5p a.py b.py", None),
    ("cat > notes.txt <<'EOF'\nhello\nEOF", None),
    ("cat a.txt b.txt > both.txt", None),
    (
        "cat > setup.sh <<'EOF'\ncat config.ini\npytest -q\nEOF\nchmod +x setup.sh",
        None,
    ),  # a heredoc is data
    ("cat app/models.py | grep class", None),
    ("tail -f server.log", None),
    ("git log | head -5", None),
    ('echo "$(cat VERSION)"', None),
]


@pytest.mark.parametrize(("command", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_file_reads(
    command: str, expected: str | None, catalog: Callable[[str], list[str]]
) -> None:
    assert catalog(command) == ([expected] if expected else [])
