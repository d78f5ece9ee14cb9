"""detectors/scope/narrowing.py: the agent's scope_set may narrow the scope in force, never widen
it."""

from __future__ import annotations

import pytest

from sidekit_hooks.detectors.scope.model import Scope
from sidekit_hooks.detectors.scope.narrowing import widening

CURRENT = Scope(["api/**", "docs/guide.md"], ["api/secret/**"], "gt-1")


@pytest.mark.parametrize(
    "allow, deny",
    [
        (["api/handlers/**"], ["api/secret/**"]),
        (["api/handlers/*.py", "api/x.py"], ["api/secret/**", "api/legacy/**"]),
        (["docs/guide.md"], ["api/secret/**"]),
        (["api/**"], ["api/secret/**"]),
    ],
)
def test_narrower_scopes(allow: list[str], deny: list[str]) -> None:
    assert widening(CURRENT, Scope(allow, deny)) == ""


@pytest.mark.parametrize(
    "allow, deny, why",
    [
        (["**"], ["api/secret/**"], "'**' is not inside the current scope (api/**, docs/guide.md)"),
        (
            ["api/**", "lib/**"],
            ["api/secret/**"],
            "'lib/**' is not inside the current scope (api/**, docs/guide.md)",
        ),
        (["api/**"], [], "it drops the deny glob 'api/secret/**'"),
        (
            ["*.py"],
            ["api/secret/**"],
            "'*.py' is not inside the current scope (api/**, docs/guide.md)",
        ),
        (
            ["docs/**"],
            ["api/secret/**"],
            "'docs/**' is not inside the current scope (api/**, docs/guide.md)",
        ),
        ([], ["api/secret/**"], "it allows every file"),
    ],
)
def test_wider_scopes_say_why(allow: list[str], deny: list[str], why: str) -> None:
    assert widening(CURRENT, Scope(allow, deny)) == why


def test_without_a_scope_any_scope_narrows() -> None:
    assert widening(None, Scope(["**"])) == ""


def test_a_deny_only_scope_is_narrowed_by_keeping_its_denies() -> None:
    current = Scope([], ["vendor/**"])
    assert widening(current, Scope(["src/**"], ["vendor/**"])) == ""
    assert widening(current, Scope(["src/**"])) == "it drops the deny glob 'vendor/**'"
