"""A real OTLP/HTTP receiver on 127.0.0.1 for tests: decodes what it gets with the official protobuf
definitions (opentelemetry-proto) and can be slow or failing on purpose."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue


def value_of(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


def attrs(pairs: Any) -> dict[str, Any]:
    return {pair.key: value_of(pair.value) for pair in pairs if isinstance(pair, KeyValue)}


class Receiver:
    """`with Receiver() as rx:` - rx.endpoint, rx.logs (decoded records), rx.metrics, rx.headers."""

    def __init__(self, delay: float = 0.0, status: int = 200) -> None:
        self.delay, self.status = delay, status
        self.logs: list[dict[str, Any]] = []
        self.metrics: dict[str, list[tuple[dict[str, Any], Any]]] = {}
        self.resources: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.requests = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.requests += 1
                receiver.headers.append(dict(self.headers))
                time.sleep(receiver.delay)
                if receiver.status == 200:
                    receiver.decode(self.path, body)
                self.send_response(receiver.status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"

    def decode(self, path: str, body: bytes) -> None:
        if path == "/v1/logs":
            for rl in ExportLogsServiceRequest.FromString(body).resource_logs:
                self.resources.append(attrs(rl.resource.attributes))
                for sl in rl.scope_logs:
                    for rec in sl.log_records:
                        self.logs.append(
                            {
                                "event": rec.event_name,
                                "body": value_of(rec.body),
                                "time": rec.time_unix_nano,
                                "attributes": attrs(rec.attributes),
                            }
                        )
        elif path == "/v1/metrics":
            for rm in ExportMetricsServiceRequest.FromString(body).resource_metrics:
                for sm in rm.scope_metrics:
                    for metric in sm.metrics:
                        kind = metric.WhichOneof("data")
                        for point in getattr(metric, kind).data_points:
                            value = point.as_int if kind == "sum" else point.sum
                            self.metrics.setdefault(metric.name, []).append(
                                (attrs(point.attributes), value)
                            )

    def __enter__(self) -> Receiver:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def closed_port_endpoint() -> str:
    """An endpoint nothing listens on (a collector that is down)."""
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"http://127.0.0.1:{port}"
