"""Claude Code PostToolUse hook: stdin -> sidekit_hooks.hook.main, always exit 0."""
import gc
import os
import sys

# A hook lives for milliseconds: the cyclic collector only costs it; the process's end frees everything.
gc.disable()
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from sidekit_hooks.hook import main  # noqa: E402

code = main("PostToolUse")
# Leave without the interpreter's teardown: with the collector off it would sweep every object (more
# work than the hook itself); stdout is flushed and every file sidekit writes is already closed.
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
