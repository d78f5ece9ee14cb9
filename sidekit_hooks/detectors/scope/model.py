"""The current task's file scope: `.sidekit/scope.toml` (what people and `sidekit scope` edit).

The hook never parses TOML on the usual path: `sidekit scope set` also writes `.sidekit/scope.json`,
a twin stamped with the TOML file's mtime and size. A hand-edited scope.toml (stamp mismatch) is
read with tomllib once and the twin rewritten. Standard library only.
"""

from __future__ import annotations

import os

from sidekit_hooks.core import fastjson, globs, safepath
from sidekit_hooks.core.workspace import atomic_write, state_dir

MAX_SCOPE = 1 << 20  # bytes of scope.toml / scope.json read at most

SCOPE_TOML = "scope.toml"
SCOPE_JSON = "scope.json"


class ScopeError(ValueError):
    """scope.toml exists but cannot be used."""


class Scope:
    """Allowed and denied globs, and the task (issue id) they belong to."""

    __slots__ = ("issue", "allow", "deny")

    def __init__(self, allow: list[str], deny: list[str] | None = None, issue: str = "") -> None:
        self.allow = list(allow)
        self.deny = list(deny or [])
        self.issue = issue

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"issue": self.issue} if self.issue else {}
        data["allow"] = self.allow
        data["deny"] = self.deny
        return data

    @classmethod
    def from_dict(cls, data: object) -> Scope:
        if not isinstance(data, dict):
            raise ScopeError("scope.toml holds no table")
        allow, deny, issue = data.get("allow", []), data.get("deny", []), data.get("issue", "")
        if not _strings(allow) or not _strings(deny) or not isinstance(issue, str):
            raise ScopeError(
                "`allow` and `deny` must be lists of glob strings and `issue` a string"
            )
        if not allow and not deny:
            raise ScopeError("the scope allows and denies nothing")
        return cls(allow, deny, issue)

    def denied_by(self, path: str, is_dir: bool = False) -> str:
        """The deny glob that excludes `path` ("" when none does); for a folder, all that is inside
        it."""
        return globs.covering(self.deny, path) if is_dir else globs.selected_by(self.deny, path)

    def contains(self, path: str) -> bool:
        if self.denied_by(path):
            return False
        return not self.allow or globs.matches_any(self.allow, path)

    def touches_dir(self, directory: str) -> bool:
        """Could the task need anything inside `directory`? (for searches)"""
        if self.denied_by(directory, is_dir=True):
            return False
        return not self.allow or any(
            globs.could_contain(glob, directory) for glob in self.allow if glob[:1] != "!"
        )

    def describe(self, path: str = "", is_dir: bool = False) -> str:
        """`gt-abc12` (or `gt-abc12 excludes auth/**` when a deny glob decided); "" without an issue
        id. Not the allowed globs: the SessionStart primer names them, and each line repeating them
        cost bytes."""
        denied = self.denied_by(path, is_dir) if path else ""
        if denied:
            return f"{self.issue or 'the task'} excludes {denied}"
        return self.issue


def toml_path(project: str) -> str:
    return os.path.join(state_dir(project), SCOPE_TOML)


def json_path(project: str) -> str:
    return os.path.join(state_dir(project), SCOPE_JSON)


def load(project: str) -> Scope | None:
    """The scope in force, or None. Raises ScopeError for a scope.toml that cannot be used."""
    try:
        stat = os.stat(toml_path(project))
    except OSError:
        return None
    stamp = f"{stat.st_mtime_ns}:{stat.st_size}"
    try:
        twin = fastjson.loads(
            safepath.read_bytes(safepath.check(json_path(project), project), MAX_SCOPE).decode()
        )
        if isinstance(twin, dict) and twin.get("stamp") == stamp:
            return Scope.from_dict(twin)
    except (OSError, ValueError):
        pass
    scope = Scope.from_dict(_read_toml(project))
    _check_globs(scope)
    write_twin(project, scope, stamp)
    return scope


def _check_globs(scope: Scope) -> None:
    """A hand-written glob that can never match would put every file out of scope: refuse it, saying
    why."""
    for glob in scope.allow + scope.deny:
        why = globs.problem(glob)
        if why:
            raise ScopeError(f"the glob {glob!r} cannot match: {why}")


def _read_toml(project: str) -> dict[str, object]:
    import tomllib  # rare path: scope.toml was edited by hand since `sidekit scope set`

    try:
        raw = safepath.read_bytes(
            safepath.check(toml_path(project), project), MAX_SCOPE
        )  # never a file outside
        return tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError) as exc:  # TOMLDecodeError and UnicodeDecodeError are ValueErrors
        raise ScopeError(f"cannot read .sidekit/scope.toml ({exc})") from None


def write_twin(project: str, scope: Scope, stamp: str = "") -> None:
    if not stamp:
        stat = os.stat(toml_path(project))
        stamp = f"{stat.st_mtime_ns}:{stat.st_size}"
    atomic_write(json_path(project), fastjson.dumps({**scope.to_dict(), "stamp": stamp}))


def save(project: str, scope: Scope) -> None:
    """Write scope.toml (tomli-w) and its JSON twin."""
    import tomli_w

    atomic_write(toml_path(project), tomli_w.dumps(scope.to_dict()))
    write_twin(project, scope)


def clear(project: str) -> bool:
    """Remove the scope; True when there was one."""
    existed = False
    for path in (toml_path(project), json_path(project)):
        try:
            os.unlink(path)
            existed = True
        except OSError:
            pass
    return existed


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) and item.strip() for item in value)
