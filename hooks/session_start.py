"""Claude Code SessionStart hook: stdin -> sidekit_hooks.hook.main, always exit 0."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sidekit_hooks.hook import main  # noqa: E402

sys.exit(main("SessionStart"))
