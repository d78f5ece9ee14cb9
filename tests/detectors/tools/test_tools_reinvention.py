"""Helper reinvention: an added function that matches one the project already has (real hook
runs)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from sidekit_hooks import detectors
from sidekit_hooks.code import functions
from sidekit_hooks.detectors import tools
from sidekit_hooks.nudges.events import parse_event
from sidekit_hooks.nudges.findings import CONCRETE, Context
from testing.hooks import context_of, edited, payload
from testing.near_copy import NEW_SLUG, SLUGIFY, indexed_project, new_slug_edit


def test_the_helper_finding_is_concrete_and_ranked_as_the_tools_sidecar(project: Path) -> None:
    indexed_project(project)
    event = parse_event("PostToolUse", new_slug_edit(project), str(project))
    found = tools.TOOLS.detect(event, Context(str(project), "s1", float("inf")))
    assert [(f.rule_id, f.kind, f.rank) for f in found] == [
        ("tools.helper-exists", CONCRETE, detectors.rank_of("tools"))
    ]


def test_hook_names_the_existing_helper(project: Path, run_hook: Any) -> None:
    indexed_project(project)
    done = run_hook("PostToolUse", new_slug_edit(project))
    assert done.returncode == 0 and done.stderr == ""
    assert context_of(done.stdout) == (
        "[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of "
        "new_slug()."
    )


def test_a_copy_added_above_its_helper_names_the_line_the_helper_is_on_now(
    project: Path, run_hook: Any
) -> None:
    indexed_project(project)  # the index has slugify at utils/text.py:5
    imports = "import re\nimport unicodedata\n"
    done = run_hook(
        "PostToolUse",
        edited(project, "utils/text.py", imports, imports + "\n\n" + NEW_SLUG, SLUGIFY),
    )
    assert context_of(done.stdout) == (
        "[sidecar:tools] utils/text.py:12 slugify(value) already does this; reuse it instead of "
        "new_slug()."
    )
    assert (project / "utils" / "text.py").read_text().splitlines()[11].startswith("def slugify(")


def test_hook_is_silent_when_the_helper_itself_is_edited(project: Path, run_hook: Any) -> None:
    indexed_project(project)
    body = SLUGIFY.split("def slugify", 1)[1]
    changed = "def slugify" + body.replace("return value", "return value or 'n-a'")
    done = run_hook(
        "PostToolUse", edited(project, "utils/text.py", "def slugify" + body, changed, SLUGIFY)
    )
    assert done.returncode == 0 and context_of(done.stdout) == ""


def test_hook_is_silent_when_the_match_is_gone_from_disk(project: Path, run_hook: Any) -> None:
    indexed_project(project)
    (project / "utils" / "text.py").write_text(
        "def other():\n    pass\n"
    )  # index still lists slugify
    done = run_hook("PostToolUse", new_slug_edit(project))
    assert context_of(done.stdout) == ""


def test_hook_without_an_index_starts_one_and_the_finding_comes_at_the_next_boundary(
    project: Path, run_hook: Any
) -> None:
    """#18: on a loaded machine the index is often not built by the first write; the finding is
    finished in the background and delivered next, not dropped."""
    (project / "utils").mkdir()
    (project / "utils" / "text.py").write_text(SLUGIFY)
    done = run_hook("PostToolUse", new_slug_edit(project))
    assert done.returncode == 0 and context_of(done.stdout) == ""
    deadline = time.monotonic() + 30
    later = project / ".sidekit" / "later"
    while (
        functions.load(str(project)) is None or any(later.iterdir())
    ) and time.monotonic() < deadline:
        time.sleep(0.05)
    index = functions.load(str(project))
    assert index is not None and "utils/text.py" in index["files"]
    prompt = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"))
    assert context_of(prompt.stdout) == (
        "[sidecar:tools] utils/text.py:5 slugify(value) already does this; reuse it instead of "
        "new_slug()."
    )


# --- TypeScript, JavaScript, Go, Rust, Java: compared by the background worker
# -----------------------


def ts_project(project: Path) -> None:
    import subprocess

    from sidekit_hooks.code.index import Index
    from testing.language_copies import TS_HELPER

    (project / "src").mkdir()
    (project / "src" / "utils.ts").write_text(TS_HELPER)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "add", "-A"], check=True)
    with Index.open(str(project)):  # what SessionStart's worker builds
        pass


def written_later(project: Path, run_hook: Any, rel: str, content: str) -> tuple[str, str]:
    """(what the Write's hook said, what the next prompt's hook said once the background worker is
    done)."""
    from testing.hooks import write

    (project / rel).write_text(content)
    done = run_hook("PostToolUse", write(project, rel, content))
    assert done.returncode == 0 and done.stderr == ""
    later = project / ".sidekit" / "later"
    deadline = time.monotonic() + 30
    while later.is_dir() and any(later.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    prompt = run_hook("UserPromptSubmit", payload("UserPromptSubmit", project, prompt="go on"))
    return context_of(done.stdout), context_of(prompt.stdout)


def test_a_typescript_copy_of_a_helper_is_said_at_the_next_boundary(
    project: Path, run_hook: Any
) -> None:
    from testing.language_copies import TS_COPY

    ts_project(project)
    assert written_later(project, run_hook, "src/slashes.ts", TS_COPY) == (
        "",
        '[sidecar:tools] src/utils.ts:1 withTrailingSlash(input = "", respectQueryAndFragment?: '
        "boolean) already "
        "does this; reuse it instead of ensureSlash().",
    )


def test_a_typescript_near_miss_is_not_said(project: Path, run_hook: Any) -> None:
    from testing.language_copies import TS_NEAR_MISS

    ts_project(project)
    assert written_later(project, run_hook, "src/slashes.ts", TS_NEAR_MISS) == ("", "")


@pytest.mark.parametrize(
    ("added", "background"),
    [
        ("export const LIMIT = 3;\n", False),  # one line: nothing to compare, no worker
        ("  if (a) {\n    b();\n  }\n", False),  # no function in it
        ("export function f(a: string) {\n  const b = a.trim();\n  return b;\n}\n", True),
    ],
)
def test_only_an_added_function_asks_for_the_background(
    project: Path, added: str, background: bool
) -> None:
    from sidekit_hooks.core import budget
    from sidekit_hooks.detectors import tools
    from sidekit_hooks.nudges.events import parse_event
    from sidekit_hooks.nudges.findings import Context
    from testing.hooks import appended

    (project / "src").mkdir()
    (project / "src" / "utils.ts").write_text("export const A = 1;\n")
    event = parse_event("PostToolUse", appended(project, "src/utils.ts", added), str(project))
    ctx = Context(str(project), "s", time.monotonic() + 5)
    assert tools.TOOLS.detect(event, ctx) == []
    assert budget.wants_later(ctx.memo, "tools") is background


@pytest.mark.parametrize(
    ("language", "added", "expected"),
    [
        ("go", "func Parse(s string) error {\n\treturn nil\n}\n", True),
        ("go", "\tif err != nil {\n\t\treturn err\n\t}\n", False),
        ("rust", "fn parse(s: &str) -> u32 {\n    s.len() as u32\n}\n", True),
        ("ts", "const f = (a: number) => {\n  return a;\n};\n", True),
        ("ts", "  parse(input: string): URL {\n    return new URL(input);\n  }\n", True),
        ("ts", "  } else if (b) {\n    go();\n  }\n", False),
        ("ts", "const x = merge(a, {\n  b: 1,\n});\n", False),
        ("java", "  public static int count(List<X> xs) {\n    return xs.size();\n  }\n", True),
        ("java", "    for (X x : xs) {\n      use(x);\n    }\n", False),
        ("py", "def f():\n    return 1\n\n", False),  # Python has its own path
    ],
)
def test_what_the_hook_takes_for_an_added_function(
    language: str, added: str, expected: bool
) -> None:
    from sidekit_hooks.detectors.tools.reinvention import may_add_function

    assert may_add_function(language, added) is expected
