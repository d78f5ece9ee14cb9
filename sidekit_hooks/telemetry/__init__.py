"""The OpenTelemetry export of sidekit's decisions and hook timings (docs/fleets.md).

Never on the hot path: imported only by the detached worker (`telemetry/worker.py`, started at Stop)
and by the CLI (`sidekit report --export otlp`). `collect` is standard library only; `otlp` needs the
`otel` extra (opentelemetry-sdk, opentelemetry-exporter-otlp-proto-http).
"""
