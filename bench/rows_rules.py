"""Rule packs on the hot path (#3): an Edit with the built-in packs plus a 50-rule project pack."""

from __future__ import annotations

import os
import shutil

from rows_hooks import edit_payload, make_project
from run import REPO, BenchContext, Row, ratio_row, time_command

QUICK_BUDGET = 3  # seconds under --quick (bench/run.py)

WORDS = ["print", "eval", "exec", "assert", "global", "lambda", "yield", "async", "await", "import"]


def project_pack(count: int = 50) -> str:
    """Rules of every kind; 30 of them apply to the benchmark's Edit of a .py file and run a
    regex."""
    parts = ['[pack]\nname = "bench"\nrequires = ">=0.1"\n']
    for index in range(count):
        word = WORDS[index % len(WORDS)]
        if index < 30:
            when = f'tools = ["Edit", "Write"]\npaths = ["**/*.py"]\nexclude = ["tests/**"]\nadded = \'\\b{word}_{index}\\s*\\(\''
        elif index < 40:
            when = f"command = '^\\s*{word}{index}\\b'"
        else:
            when = f"output = 'Error{index}: .*{word}'"
        parts.append(
            f'[[rules]]\nid = "bench.r{index}"\nmessage = "Rule {index}: say something short."\n'
            f'see = "docs/rules.md#r{index}"\n[rules.when]\n{when}\n'
        )
    return "\n".join(parts)


def rows(ctx: BenchContext) -> list[Row]:
    project = make_project()
    pack = os.path.join(project, "sidecar_rules", "bench.toml")
    os.makedirs(os.path.dirname(pack))
    text = project_pack()
    with open(pack, "w", encoding="utf-8") as handle:
        handle.write(text)
    env = dict(
        os.environ,
        CLAUDE_PROJECT_DIR=project,
        CLAUDE_PLUGIN_ROOT=REPO,
        XDG_CONFIG_HOME=os.path.join(project, ".config"),
    )
    post = ["sh", "-c", f'"{os.path.join(REPO, "hooks")}/run" post_tool_use']
    edits = [0]

    def edit_pack() -> None:  # a different size each time, so the hook sees a changed pack
        edits[0] += 1
        with open(pack, "w", encoding="utf-8") as handle:
            handle.write(text + "#" * edits[0] + "\n")

    out: list[Row] = []
    try:
        samples = time_command(post, ctx.repeats, edit_payload(project), env, project)
        out += ratio_row(
            "rules", "PostToolUse on an Edit, built-in + 50-rule project pack", samples, ctx, 2.5
        )
        samples = time_command(
            post, ctx.repeats, edit_payload(project), env, project, setup=edit_pack
        )
        out += ratio_row(
            "rules", "the same, first event after a pack edit (recompile)", samples, ctx, None
        )
    finally:
        shutil.rmtree(project, ignore_errors=True)
    return out
