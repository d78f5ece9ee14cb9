#!/usr/bin/env bash
# A small API, its spec (docs/api-spec.md) and the team's rule pack: validation errors are HTTP 422.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../_lib/repo.sh"

put api/__init__.py < /dev/null
put api/handlers/__init__.py < /dev/null
put api/handlers/user.py <<'PY'
"""User endpoints."""


def create_user(payload: dict) -> tuple[dict, int]:
    """(body, HTTP status) for a new user."""
    return {"id": 1, **payload}, 201
PY
put docs/api-spec.md <<'MD'
# Acme API spec

## Validation errors

4.1 Validation errors return HTTP 422 with a `code` field.
MD
put sidecar_rules/acme-api.toml <<'TOML'
[pack]
name = "acme-api"
version = "1.0.0"
description = "Acme API spec constraints"

[[rules]]
id = "acme.api.status-422"
sidecar = "specs"
message = "Spec 4.1: validation errors return HTTP 422, not 400."
see = "docs/api-spec.md#validation-errors"
severity = "high"

[rules.when]
tools = ["Edit", "Write"]
paths = ["api/**/*.py"]
added = '(status_code\s*=\s*|,\s*)400\b'
TOML
commit_all
