"""Where sidekit's OpenTelemetry export goes, if anywhere (docs/fleets.md, docs/settings.md).
Standard library only.

The endpoint and its headers are the user's to set. First found wins:

1. `SIDEKIT_OTEL_ENDPOINT` (+ `SIDEKIT_OTEL_HEADERS`): the environment, e.g. the user's shell or the
   `env` block of `~/.claude/settings.json`;
2. the plugin's user configuration (Claude Code hands it to hooks as
   `CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT` / `..._OTEL_HEADERS`);
3. `[tool.sidekit] otel-endpoint` (+ `otel-headers`) in the project's pyproject.toml, only once the
   user has accepted that exact endpoint for that project (`sidekit otel trust URL`, core/trust.py).
   Until then it is ignored: a cloned repository cannot turn the export on.

Headers go with the endpoint they were given with: the environment's with the environment's
endpoint, the plugin option's with the plugin option's, the pyproject's with the trusted pyproject
endpoint. A user's collector token is never sent to an address the user did not give. Claude Code
strips `OTEL_*` variables from hooks, so sidekit has its own names. Without one of these nothing is
ever sent.

A hook only asks `configured()`: two variable look-ups and one failed `open` of the user's trust
file (the project's pyproject.toml is read only for a project the user trusted).
"""

from __future__ import annotations

import os

ENV_ENDPOINT = "SIDEKIT_OTEL_ENDPOINT"
ENV_HEADERS = "SIDEKIT_OTEL_HEADERS"
PLUGIN_ENDPOINT = "CLAUDE_PLUGIN_OPTION_OTEL_ENDPOINT"
PLUGIN_HEADERS = "CLAUDE_PLUGIN_OPTION_OTEL_HEADERS"
PROJECT_KEY = "otel-endpoint"  # under [tool.sidekit]; also the kind of its trust record
PROJECT_HEADERS = "otel-headers"
MAX_PYPROJECT = 1 << 20

SOURCES = {  # source -> how doctor and `sidekit otel status` name it
    "env": ENV_ENDPOINT,
    "plugin": "the plugin's otel_endpoint option",
    "project": "pyproject.toml [tool.sidekit] otel-endpoint, trusted",
}


class Export:
    """What is in force: `endpoint` ('' for none), its `headers`, where it came from (`source`: env,
    plugin, project or ''), and `ignored`: a project endpoint not used (untrusted, or
    overridden)."""

    __slots__ = ("endpoint", "headers", "source", "ignored", "trusted")

    def __init__(
        self,
        endpoint: str = "",
        headers: dict[str, str] | None = None,
        source: str = "",
        ignored: str = "",
    ) -> None:
        self.endpoint, self.headers, self.source, self.ignored = (
            endpoint,
            headers or {},
            source,
            ignored,
        )
        self.trusted = False  # `ignored` is trusted but overridden by the user's own setting


def configured(project: str) -> bool:
    """Cheap: whether an endpoint is in force (the worker validates it)."""
    if os.environ.get(ENV_ENDPOINT, "").strip() or os.environ.get(PLUGIN_ENDPOINT, "").strip():
        return True
    return bool(_trusted_project_endpoint(project))


def resolve(project: str) -> tuple[str, dict[str, str]]:
    """(the OTLP/HTTP base URL, headers); ('', {}) when export is not configured."""
    found = explain(project)
    return found.endpoint, found.headers


def explain(project: str) -> Export:
    """The export in force and where it came from, with the project's endpoint when it is not
    used."""
    named = project_endpoint(project)
    for source, endpoint_name, headers_name in (
        ("env", ENV_ENDPOINT, ENV_HEADERS),
        ("plugin", PLUGIN_ENDPOINT, PLUGIN_HEADERS),
    ):
        endpoint = os.environ.get(endpoint_name, "").strip()
        if endpoint:
            found = Export(endpoint, parse_headers(os.environ.get(headers_name, "")), source, named)
            found.trusted = bool(named) and named in _accepted(project)
            return found
    if not named:
        return Export()
    if named not in _accepted(project):
        return Export(ignored=named)
    headers = _tool_table(project).get(PROJECT_HEADERS, "")
    if isinstance(headers, dict):
        return Export(named, {str(k): str(v) for k, v in headers.items()}, "project")
    # The project's own headers only (a local collector's): the environment's never go to its
    # address.
    return Export(named, parse_headers(headers if isinstance(headers, str) else ""), "project")


def project_endpoint(project: str) -> str:
    """The endpoint the project's pyproject.toml names ('' for none), trusted or not."""
    url = _tool_table(project).get(PROJECT_KEY)
    return url.strip() if isinstance(url, str) else ""


def parse_headers(text: str) -> dict[str, str]:
    """`key=value,key2=value2` (the OTEL_EXPORTER_OTLP_HEADERS form; values may be %-encoded)."""
    from urllib.parse import unquote

    headers: dict[str, str] = {}
    for part in text.split(","):
        key, equals, value = part.partition("=")
        if equals and key.strip():
            headers[key.strip()] = unquote(value.strip())
    return headers


def _accepted(project: str) -> list[str]:
    from sidekit_hooks.core import trust

    return trust.values(PROJECT_KEY, project)


def _trusted_project_endpoint(project: str) -> str:
    """The project's endpoint when the user accepted exactly it; the trust file first, so an
    untrusted project (every project, for most users) costs no read of its pyproject.toml."""
    accepted = _accepted(project)
    if not accepted:
        return ""
    named = project_endpoint(project)
    return named if named in accepted else ""


def _pyproject_bytes(project: str) -> bytes:
    from sidekit_hooks.core import safepath

    try:
        return safepath.read_bytes(os.path.join(project, "pyproject.toml"), MAX_PYPROJECT)
    except OSError:
        return b""


def _tool_table(project: str) -> dict[str, object]:
    raw = _pyproject_bytes(project)
    if PROJECT_KEY.encode() not in raw:
        return {}
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return {}
    tool = data.get("tool", {})
    table = tool.get("sidekit", {}) if isinstance(tool, dict) else {}
    return table if isinstance(table, dict) else {}
