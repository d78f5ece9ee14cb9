"""The scope sidecar's standard case: the task's scope is `api/**`, and a Write lands in
`auth/x.py`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from testing.hooks import payload, run_sidekit


def out_of_scope_write(project: Path, env: dict[str, str], **fields: Any) -> dict[str, Any]:
    """`sidekit scope set --issue gt-1 --allow api/**`, then `auth/x.py` written: the PostToolUse
    payload of that Write (`fields` add to it)."""
    scope = run_sidekit(
        "scope", "set", "--issue", "gt-1", "--allow", "api/**", cwd=project, env=env
    )
    assert scope.returncode == 0, scope.stderr
    (project / "auth").mkdir()
    (project / "auth" / "x.py").write_text("X = 2\n")  # the Write's effect, before its hook runs
    tool_input = {"file_path": str(project / "auth" / "x.py"), "content": "X = 2\n"}
    return payload("PostToolUse", project, tool_name="Write", tool_input=tool_input, **fields)
