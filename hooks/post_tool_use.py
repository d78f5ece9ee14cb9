"""Claude Code PostToolUse hook (settings form): stdin -> sidekit_hooks.pipeline.hook, always exit 0. Generated
from sidekit_hooks/pipeline/hook_events.py; `python -m sidekit_hooks.pipeline.hook_events --write` makes it again."""

import os
import sys

# the checkout, never the cwd
sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from sidekit_hooks.pipeline.hook import run_entry  # noqa: E402

run_entry("PostToolUse")
