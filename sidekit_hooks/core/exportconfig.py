"""Where sidekit's OpenTelemetry export goes, if anywhere (docs/fleets.md). Standard library only.

Three places, first found wins: `SIDEKIT_OTEL_ENDPOINT` (+ `SIDEKIT_OTEL_HEADERS`), the plugin's user
configuration (Claude Code hands it to hooks as `CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT` / `..._OTEL_HEADERS`),
and `[tool.sidekit] otel-endpoint` / `otel-headers` in the project's pyproject.toml. Claude Code strips
`OTEL_*` variables from hooks, so sidekit has its own names. Without one of them nothing is ever sent.

A hook only asks `configured()`: two variable look-ups and, at most, one read of pyproject.toml's bytes.
"""

from __future__ import annotations

import os

ENV_ENDPOINT = "SIDEKIT_OTEL_ENDPOINT"
ENV_HEADERS = "SIDEKIT_OTEL_HEADERS"
PLUGIN_ENDPOINT = "CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT"
PLUGIN_HEADERS = "CLAUDE_PLUGIN_OPTION_OTEL_HEADERS"
MAX_PYPROJECT = 1 << 20


def configured(project: str) -> bool:
    """Cheap: whether an endpoint is named anywhere (the worker validates it)."""
    if os.environ.get(ENV_ENDPOINT, "").strip() or os.environ.get(PLUGIN_ENDPOINT, "").strip():
        return True
    return b"otel-endpoint" in _pyproject_bytes(project)


def resolve(project: str) -> tuple[str, dict[str, str]]:
    """(the OTLP/HTTP base URL, headers); ('', {}) when export is not configured."""
    for endpoint_name, headers_name in ((ENV_ENDPOINT, ENV_HEADERS), (PLUGIN_ENDPOINT, PLUGIN_HEADERS)):
        endpoint = os.environ.get(endpoint_name, "").strip()
        if endpoint:
            return endpoint, parse_headers(os.environ.get(headers_name, ""))
    table = _tool_table(project)
    url = table.get("otel-endpoint")
    if not isinstance(url, str) or not url.strip():
        return "", {}
    headers = table.get("otel-headers", "")
    if isinstance(headers, dict):
        return url.strip(), {str(k): str(v) for k, v in headers.items()}
    # Secrets belong in the environment; a pyproject header string is allowed for local collectors.
    return url.strip(), parse_headers(os.environ.get(ENV_HEADERS, "") or str(headers))


def parse_headers(text: str) -> dict[str, str]:
    """`key=value,key2=value2` (the OTEL_EXPORTER_OTLP_HEADERS form; values may be %-encoded)."""
    from urllib.parse import unquote

    headers: dict[str, str] = {}
    for part in text.split(","):
        key, equals, value = part.partition("=")
        if equals and key.strip():
            headers[key.strip()] = unquote(value.strip())
    return headers


def _pyproject_bytes(project: str) -> bytes:
    from sidekit_hooks.core import safepath

    try:
        return safepath.read_bytes(os.path.join(project, "pyproject.toml"), MAX_PYPROJECT)
    except OSError:
        return b""


def _tool_table(project: str) -> dict[str, object]:
    raw = _pyproject_bytes(project)
    if b"otel-endpoint" not in raw:
        return {}
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return {}
    tool = data.get("tool", {})
    table = tool.get("sidekit", {}) if isinstance(tool, dict) else {}
    return table if isinstance(table, dict) else {}
