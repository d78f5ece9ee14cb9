"""Claude Code PostToolUse hook (settings form of an installed package, no checkout): stdin ->
sidekit_hooks.pipeline.hook, always exit 0; `sidekit install` runs it with `python -I -S`. Generated from
sidekit_hooks/pipeline/hook_events.py; `python -m sidekit_hooks.pipeline.hook_events --write` makes it again."""

import os
import sys

# never the cwd
sys.path.append(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from sidekit_hooks.pipeline.hook import run_entry  # noqa: E402

run_entry("PostToolUse")
