"""The conventions detector: type hints on multi-line signatures, against the learned rule."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks.detectors import conventions as detector
from testing import made_once
from testing.hooks import appended, context_of

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from test_conventions_learn import sidekit, typed_repo  # noqa: E402  (the fixture repo of the learn tests)

MESSAGE = (
    "[sidecar:conventions] Public functions here are fully type-hinted (24 of 24, 100%); annotate "
    "the new "
    "def's parameters and return type."
)


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        (
            "def load(\n    path,\n    strict: bool = False,\n) -> str:\n    return path\n",
            [("load", "def load(\npath,\nstrict: bool = False,\n) -> str:")],
        ),
        (
            "    async def fetch(self,\n                    url: str):\n        return url\n",
            [("fetch", "async def fetch(self,\nurl: str):")],
        ),
        (
            "def load(path: str) -> str:\n    return path\n",
            [],
        ),  # one line: the rule's regex handles it
        ("def _private(\n    path,\n):\n    pass\n", []),
        ("x = call(\n    def_value,\n)\n", []),
    ],
)
def test_multiline_public_signatures(added: str, expected: list[tuple[str, str]]) -> None:
    assert detector.multiline_public_signatures(added) == expected


@pytest.mark.parametrize(
    ("signature", "expected"),
    [
        ("def load(\npath,\n) -> str:", False),
        ("def load(\npath: str,\n):", False),
        ("def load(\nself,\npath: str,\n*args,\n**kw,\n) -> str:", True),
        ("def load(\npath: dict[str,\nint],\n) -> None:", True),
        ("def broken(\n:", True),
    ],
)
def test_annotated(signature: str, expected: bool) -> None:
    assert detector.annotated(signature) is expected


UNTYPED = (
    "\n\ndef order_total(\n    items,\n    discount=0,\n):\n    return sum(items) - discount\n"
)
TYPED = "\n\ndef order_total(\n    items: list[int],\n    discount: int = 0,\n) -> int:\n    return sum(items) - discount\n"


@pytest.fixture(scope="module")
def learned_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The typed repo after a real `sidekit conventions learn`: made once, read by the tests
    through copies (`learned`)."""
    project = typed_repo(made_once.new_folder(tmp_path_factory, "learned"))
    with made_once.as_a_test_sees_it(tmp_path_factory):
        assert sidekit("conventions", "learn", "--project", str(project)).returncode == 0
    return project


@pytest.fixture
def learned(learned_once: Path, project: Path) -> Path:
    """This test's own copy of the learned repo."""
    return made_once.copy_into(learned_once, project)


def test_hook_flags_an_untyped_multiline_def_with_the_learned_message(
    learned: Path, run_hook: Any
) -> None:
    done = run_hook("PostToolUse", appended(learned, "shop/mod3.py", UNTYPED))
    assert (done.returncode, context_of(done.stdout)) == (
        0,
        MESSAGE + " (`order_total` in shop/mod3.py)",
    )


@pytest.mark.parametrize(
    ("rel", "added"),
    [
        ("shop/mod3.py", TYPED),
        ("tests/test_mod3.py", UNTYPED),  # the rule's excludes hold here too
        ("scripts/release.py", UNTYPED),
    ],
)
def test_hook_is_silent_where_the_rule_does_not_apply(
    learned: Path, run_hook: Any, rel: str, added: str
) -> None:
    assert context_of(run_hook("PostToolUse", appended(learned, rel, added)).stdout) == ""


def test_hook_is_silent_without_the_learned_rule_or_when_it_is_disabled(
    learned: Path, run_hook: Any
) -> None:
    pack = learned / "sidecar_rules" / "conventions.toml"
    pack.write_text(
        pack.read_text().replace(
            'id = "conventions.type-hints"\n', 'id = "conventions.type-hints"\nenabled = false\n'
        )
    )
    assert (
        context_of(run_hook("PostToolUse", appended(learned, "shop/mod3.py", UNTYPED)).stdout) == ""
    )
    pack.unlink()
    other = "\n\ndef order_count(\n    items,\n):\n    return len(items)\n"
    assert (
        context_of(run_hook("PostToolUse", appended(learned, "shop/mod4.py", other)).stdout) == ""
    )
