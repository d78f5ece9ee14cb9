"""A loopback TCP listener that keeps every byte it is sent: to prove what reached an address, and
what never did.

`with Listener() as ear:` gives `ear.endpoint` (http://127.0.0.1:PORT) and `ear.received` (one bytes per
connection). Each connection gets an empty `200 OK` once its request is in, so an HTTP client (the
OTLP exporter) is satisfied. Bounded: every read times out, and the listener stops by itself after
`lifetime` seconds even if the test forgets it.
"""

from __future__ import annotations

import os
import socket
import threading
import time

OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class Listener:
    def __init__(self, lifetime: float = 120.0) -> None:
        self.received: list[bytes] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.endpoint = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        self.deadline = time.monotonic() + lifetime
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> Listener:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.deadline = 0.0
        self.thread.join(5)
        self.server.close()

    @property
    def everything(self) -> bytes:
        return b"".join(self.received)

    def wait_for(self, count: int, seconds: float) -> bool:
        """Whether `count` connections have come in within `seconds`."""
        until = time.monotonic() + seconds
        while len(self.received) < count and time.monotonic() < until:
            time.sleep(0.05)
        return len(self.received) >= count

    def _serve(self) -> None:
        while time.monotonic() < self.deadline:
            try:
                conn, _ = self.server.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                self.received.append(_request(conn))
                try:
                    conn.sendall(OK)
                except OSError:
                    pass


def _request(conn: socket.socket) -> bytes:
    """One HTTP request (head and Content-Length body), or whatever came before a 2 s silence."""
    conn.settimeout(2.0)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            ),
            0,
        )
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                break
            body += chunk
        return head + b"\r\n\r\n" + body
    except (TimeoutError, OSError, ValueError):
        return data


def sidekit_processes(marker: str) -> list[int]:
    """Pids of live sidekit processes whose environment or working folder holds `marker` (a test's
    folder)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if b"sidekit_hooks" not in handle.read():
                    continue
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
            with open(f"/proc/{pid}/environ", "rb") as handle:
                environ = handle.read()
            if marker.encode() in environ or os.readlink(f"/proc/{pid}/cwd").startswith(marker):
                found.append(int(pid))
        except (OSError, IndexError):
            continue
    return found


def wait_for_workers(marker: str, seconds: float = 60.0) -> None:
    """Until every background worker started for `marker`'s project has ended (bounded)."""
    until = time.monotonic() + seconds
    while sidekit_processes(marker) and time.monotonic() < until:
        time.sleep(0.1)
