"""`sidekit mcp` with its front traced, for the real-CLI test of who answers what (run as the MCP
server's command: `python -P mcp_front_trace.py TRACE.jsonl mcp --project DIR`; `-P`, or this
folder's `mcp.py` would stand in for the MCP SDK).

Each message the front reads adds one line to TRACE: its method and id, `by` ("front" when the
front answered it, "sdk" when it handed the connection over with it) and whether the SDK was still
being imported. The SDK's import is held back until the front has answered its first tool call (or
handed over before), and a later tool call waits for that import to end before the front sees it:
so the run shows, whatever the machine's load, the client's first call answered by the front before
the SDK loaded, then the SDK taking the connection over.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

from sidekit_hooks.cli import main
from sidekit_hooks.cli.mcpserver import front

IMPORT_WAIT = 60.0  # seconds: the most the trace holds anything back


def traced(trace_path: str) -> None:
    """Wrap the front's `answer` and the importer's `run` (this process only)."""
    first_call_answered = threading.Event()
    answer, run = front.Front.answer, front.Importer.run

    def traced_answer(self: front.Front, line: bytes) -> bytes | None:
        try:
            message: Any = json.loads(line)
        except ValueError:
            message = None
        method = message.get("method") if isinstance(message, dict) else None
        request_id = message.get("id") if isinstance(message, dict) else None
        if method == "tools/call" and first_call_answered.is_set():
            deadline = time.monotonic() + IMPORT_WAIT
            while self.importing() and time.monotonic() < deadline:
                time.sleep(0.01)
        importing = self.importing()
        said = answer(self, line)
        by = "sdk" if said is None else "front"
        with open(trace_path, "a") as trace:
            record = {"method": method, "id": request_id, "by": by, "importing": importing}
            trace.write(json.dumps(record) + "\n")
        if said is None or method == "tools/call":  # (handed over: the SDK's import is needed now)
            first_call_answered.set()
        return said

    def held_run(self: front.Importer) -> None:
        first_call_answered.wait(IMPORT_WAIT)
        run(self)

    front.Front.answer = traced_answer  # type: ignore[method-assign]
    front.Importer.run = held_run  # type: ignore[method-assign]


if __name__ == "__main__":
    traced(sys.argv[1])
    sys.exit(main(sys.argv[2:]))
