"""Ship one batch as OTLP/HTTP logs and metrics, through the official OpenTelemetry SDK and
exporter.

Logs: one `sidekit.decision` record per decision (body: the nudge text), one `sidekit.hook` per hook
timing. Metrics (delta): `sidekit.decisions` (count by sidecar, rule, outcome),
`sidekit.nudge.bytes` (bytes of nudges delivered), `sidekit.hook.duration` (ms, histogram by hook),
`sidekit.hook.output_bytes`, `sidekit.tests.raw_bytes` and `sidekit.tests.answer_bytes` (a compacted
run's raw output and the compact answers the model got instead; its log record carries both as
`sidekit.raw_bytes` / `sidekit.answer_bytes`). Needs the `otel` extra; `missing()` names what is not
installed.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from sidekit_hooks import __version__
from sidekit_hooks.telemetry.collect import Batch, attributes

PACKAGES = {
    "opentelemetry.sdk": "opentelemetry-sdk",
    "opentelemetry.exporter.otlp.proto.http": "opentelemetry-exporter-otlp-proto-http",
}
SCOPE = "sidekit_hooks"
TIMEOUT = 10.0  # seconds per request; a slow collector costs the worker, never a hook


def missing() -> list[str]:
    """The distributions of the `otel` extra that cannot be imported here."""
    out = []
    for module, dist in PACKAGES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            out.append(dist)
    return out


def signal_url(endpoint: str, signal: str) -> str:
    """`http://host:4318` -> `http://host:4318/v1/logs`; a URL already naming a signal path is kept."""
    base = endpoint.rstrip("/")
    for known in ("/v1/logs", "/v1/metrics", "/v1/traces"):
        if base.endswith(known):
            base = base[: -len(known)]
    return f"{base}/v1/{signal}"


def ship(
    endpoint: str,
    headers: dict[str, str],
    batch: Batch,
    resource: dict[str, str],
    timeout: float = TIMEOUT,
) -> bool:
    """Send the batch's logs, then its metrics; True only when the collector accepted both."""
    from opentelemetry.sdk.resources import Resource

    res = Resource.create({"service.name": "sidekit", "service.version": __version__, **resource})
    if not _ship_logs(endpoint, headers, batch, res, timeout):
        return False
    return _ship_metrics(endpoint, headers, batch, res, timeout)


def _ship_logs(
    endpoint: str, headers: dict[str, str], batch: Batch, res: Any, timeout: float
) -> bool:
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import (
        InMemoryLogRecordExporter,
        LogRecordExportResult,
        SimpleLogRecordProcessor,
    )

    if not len(batch):
        return True
    memory = InMemoryLogRecordExporter()  # type: ignore[no-untyped-call]
    provider = LoggerProvider(resource=res)
    provider.add_log_record_processor(SimpleLogRecordProcessor(memory))
    logger = provider.get_logger(SCOPE, __version__)
    for record in batch.decisions:
        logger.emit(
            timestamp=_ns(record),
            body=str(record.get("text") or ""),
            event_name="sidekit.decision",
            attributes={**attributes(record), **compacted_sizes(record)},
        )
    for record in batch.timings:
        attrs: dict[str, Any] = attributes(record)
        attrs["sidekit.duration_ms"] = float(record.get("ms") or 0.0)
        attrs["sidekit.output_bytes"] = int(record.get("bytes") or 0)
        logger.emit(timestamp=_ns(record), body="", event_name="sidekit.hook", attributes=attrs)
    exporter = OTLPLogExporter(
        endpoint=signal_url(endpoint, "logs"), headers=headers, timeout=timeout
    )
    try:
        return bool(exporter.export(memory.get_finished_logs()) == LogRecordExportResult.SUCCESS)
    finally:
        exporter.shutdown()  # type: ignore[no-untyped-call]
        provider.shutdown()


def _ship_metrics(
    endpoint: str, headers: dict[str, str], batch: Batch, res: Any, timeout: float
) -> bool:
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
    from opentelemetry.sdk.metrics import Counter, Histogram, MeterProvider
    from opentelemetry.sdk.metrics.export import (
        AggregationTemporality,
        InMemoryMetricReader,
        MetricExportResult,
    )

    delta: dict[type, AggregationTemporality] = {
        Counter: AggregationTemporality.DELTA,
        Histogram: AggregationTemporality.DELTA,
    }
    reader = InMemoryMetricReader(
        preferred_temporality=delta
    )  # each export says what is new, nothing twice
    provider = MeterProvider(resource=res, metric_readers=[reader])
    meter = provider.get_meter(SCOPE, __version__)
    decisions = meter.create_counter(
        "sidekit.decisions", unit="{decision}", description="sidekit decisions by outcome"
    )
    nudge_bytes = meter.create_counter(
        "sidekit.nudge.bytes", unit="By", description="bytes of nudges delivered"
    )
    duration = meter.create_histogram(
        "sidekit.hook.duration", unit="ms", description="wall time of one hook"
    )
    output = meter.create_counter(
        "sidekit.hook.output_bytes", unit="By", description="bytes hooks printed"
    )
    raw_bytes = meter.create_counter(
        "sidekit.tests.raw_bytes",
        unit="By",
        description="raw test output replaced by compact answers",
    )
    answer_bytes = meter.create_counter(
        "sidekit.tests.answer_bytes",
        unit="By",
        description="bytes the model got instead (the compact answers)",
    )
    for record in batch.decisions:
        attrs = _metric_attributes(record)
        decisions.add(1, attrs)
        if record.get("decision") == "delivered":
            nudge_bytes.add(len(str(record.get("text") or "").encode("utf-8", "replace")), attrs)
        sizes = compacted_sizes(record)
        if sizes:
            raw_bytes.add(sizes["sidekit.raw_bytes"], attrs)
            answer_bytes.add(sizes["sidekit.answer_bytes"], attrs)
    for record in batch.timings:
        attrs = {"sidekit.hook": str(record.get("hook") or "")}
        duration.record(float(record.get("ms") or 0.0), attrs)
        output.add(int(record.get("bytes") or 0), attrs)
    data = reader.get_metrics_data()
    provider.shutdown()
    if data is None or not data.resource_metrics:
        return True
    exporter = OTLPMetricExporter(
        endpoint=signal_url(endpoint, "metrics"),
        headers=headers,
        timeout=timeout,
        preferred_temporality=delta,
    )
    try:
        return bool(exporter.export(data) == MetricExportResult.SUCCESS)
    finally:
        exporter.shutdown()


def compacted_sizes(record: dict[str, Any]) -> dict[str, int]:
    """A compacted run's raw output bytes and the bytes the model got instead ({} for any other
    decision)."""
    if record.get("decision") != "compacted":
        return {}
    sizes = {"sidekit.raw_bytes": record.get("raw"), "sidekit.answer_bytes": record.get("answer")}
    return {
        k: v for k, v in sizes.items() if isinstance(v, int) and not isinstance(v, bool) and v >= 0
    }


def _metric_attributes(record: dict[str, Any]) -> dict[str, str]:
    """Low-cardinality attributes only: a session or prompt id on a metric would explode the
    series."""
    attrs = attributes(record)
    keep = (
        "sidekit.sidecar",
        "sidekit.rule_id",
        "sidekit.outcome",
        "sidekit.held_by",
        "gt.role",
        "gc.agent",
    )
    return {name: attrs[name] for name in keep if name in attrs}


def _ns(record: dict[str, Any]) -> int:
    ts = record.get("ts")
    return int(float(ts) * 1e9) if isinstance(ts, (int, float)) else 0
