"""A logging pass-through in front of an MCP stdio server, for tests of what a client sends:

    python -P mcp_tee.py LOG [--refuse-discover] -- SERVER ARGV...

Each line the client writes is appended to LOG as it came (the exact bytes), then passed on to the
server, whose stdout is the client's own. `--refuse-discover`: `server/discover` is answered here
with -32601 Method not found, as a server that knows only the 2025 handshake answers it, and not
passed on (what a client does next is the test's question).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

METHOD_NOT_FOUND = -32601


def refusal(line: bytes) -> bytes | None:
    """The Method not found answer to a `server/discover` request, or None for any other line."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "server/discover":
        return None
    error = {"code": METHOD_NOT_FOUND, "message": "Method not found"}
    return json.dumps({"jsonrpc": "2.0", "id": message.get("id"), "error": error}).encode() + b"\n"


def pump(server: subprocess.Popen[bytes], log: str, refuse_discover: bool) -> None:
    assert server.stdin is not None
    with open(log, "ab") as out:
        for line in sys.stdin.buffer:
            out.write(line)
            out.flush()
            refused = refusal(line) if refuse_discover else None
            if refused is not None:
                os.write(1, refused)
                continue
            server.stdin.write(line)
            server.stdin.flush()
    server.stdin.close()  # the client left: so does the server


def main(argv: list[str]) -> int:
    log, rest = argv[0], argv[1:]
    refuse_discover = rest[0] == "--refuse-discover"
    command = rest[rest.index("--") + 1 :]
    server = subprocess.Popen(command, stdin=subprocess.PIPE)
    threading.Thread(target=pump, args=(server, log, refuse_discover), daemon=True).start()
    return server.wait()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
