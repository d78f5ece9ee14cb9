"""Writes tests/scenarios/specs.jsonl (the output is committed).

    .venv/bin/python tests/scenarios/build_specs.py

Every case carries the same team pack (`sidecar_rules/acme-api.toml`, rules with `sidecar =
"specs"`) and a small API project, and plays one tool call in a fresh project (the specs cooldown
would hold back a second nudge in one session). Positives: the text the call added breaks the spec.
Near misses: the violation was already in the file, an excluded path, `absent` satisfied, `sidekit:
ignore[id]`, a Read, a tool the rule does not look at, and look-alikes the regexes must not take.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/: the acme pack is testing.acme's
from testing import scenario_build  # noqa: E402
from testing.acme import pack, status_422_rule  # noqa: E402
from testing.scenario_build import Case, Expect, counted, write_cases  # noqa: E402

Files = dict[str, str]

with open(os.path.join(HERE, "packs", "acme-api-more.toml"), encoding="utf-8") as handle:
    PACK = (
        pack(
            "acme-api",
            status_422_rule(see=True, exclude=["api/legacy/**"]),
            header='version = "1.0.0"\ndescription = "The Acme API spec, as rules"\n',
        )
        + "\n"
        + handle.read()  # the spec's other rules, kept as TOML
    )

SPEC = """\
# Acme API spec

## Validation errors
## Headers
## Errors
## Routing
## Events
## Migrations
## OpenAPI
"""

USERS = """\
from fastapi.responses import JSONResponse

from api.routing import router


@router.get("/users/{user_id}")
def get_user(user_id: int) -> JSONResponse:
    if user_id < 0:
        return JSONResponse({"error": "bad id", "code": "bad_id"}, status_code=422)
    return JSONResponse({"id": user_id})
"""

# A file that already breaks the spec (written before the spec existed).
LEGACY_USERS = USERS.replace("status_code=422", "status_code=400")

CLIENT = """\
import httpx


def call(url: str, correlation_id: str) -> httpx.Response:
    return httpx.get(url, headers={"X-Correlation-ID": correlation_id})
"""

BASE = {
    "pyproject.toml": '[project]\nname = "acme"\ndependencies = ["fastapi", "httpx"]\n',
    "sidecar_rules/acme-api.toml": PACK,
    "docs/api-spec.md": SPEC,
    "api/__init__.py": "",
    "api/routing.py": "from fastapi import APIRouter\n\nrouter = APIRouter()\n",
    "api/users.py": USERS,
    "events/__init__.py": "",
    "worker/client.py": CLIENT,
}


def case(
    name: str,
    tool: str,
    tool_input: dict[str, object],
    expect: Expect,
    files: Files | None = None,
    error: str = "",
    stdout: str = "",
) -> Case:
    """A case in the API project, `files` added to it; `stdout` (when not empty) is the tool's
    response."""
    return scenario_build.case(
        name,
        {**BASE, **(files or {})},
        tool,
        tool_input,
        expect,
        stdout=stdout or None,
        error=error,
    )


def write(name: str, path: str, content: str, expect: Expect, files: Files | None = None) -> Case:
    return case(name, "Write", {"file_path": path, "content": content}, expect, files)


def edit(
    name: str,
    path: str,
    old: str,
    new: str,
    expect: Expect,
    files: Files | None = None,
    **options: bool,
) -> Case:
    """An Edit; `options` go into its input as they are (replace_all=True)."""
    return case(
        name,
        "Edit",
        {"file_path": path, "old_string": old, "new_string": new, **options},
        expect,
        files,
    )


STATUS = [
    {
        "sidecar": "specs",
        "text": "[sidecar:specs] Spec 4.1: validation errors return HTTP 422, not 400. (see "
        "docs/api-spec.md#validation-errors)",
    }
]
HEADER = [{"sidecar": "specs", "contains": "Spec 2.3: the correlation header is X-Correlation-ID"}]
ERROR_CODE = [
    {"sidecar": "specs", "contains": 'Spec 4.2: every error body has a machine-readable "code"'}
]
ROUTER = [
    {"sidecar": "specs", "contains": "Spec 3.1: new route modules register on the shared router"}
]
SCHEMA = [{"sidecar": "specs", "contains": "Spec 6.1: every event schema declares schema_version"}]
MIGRATION = [
    {"sidecar": "specs", "contains": "Spec 7: migrations are made with `make migration NAME=...`"}
]
OPENAPI = [
    {
        "sidecar": "specs",
        "text": "[sidecar:specs] Spec 1.2: openapi.json is generated; run `make openapi` and "
        "commit the result, "
        "never edit it by hand. (see docs/api-spec.md#openapi)",
    }
]

ORDERS = """\
from fastapi import HTTPException

from api.routing import router


@router.post("/orders")
def create_order(payload: dict) -> dict:
    if "sku" not in payload:
        raise HTTPException(status_code=422, detail="sku is required")
    return {"ok": True}
"""

EVENT_OK = """\
from dataclasses import dataclass


@dataclass
class OrderCreated:
    schema_version: int
    order_id: str
    total_cents: int
"""
EVENT_MISSING = EVENT_OK.replace("    schema_version: int\n", "")

ROUTE_NEW = """\
from fastapi import APIRouter

router = APIRouter()


@router.get("/invoices")
def list_invoices() -> list[dict]:
    return []
"""
ROUTE_OK = """\
from api.routing import router


@router.get("/invoices")
def list_invoices() -> list[dict]:
    return []
"""

C: list[dict[str, object]] = []
# --- positives: the added text breaks the spec
C.append(
    write(
        "status-400-new-module",
        "api/items.py",
        "from fastapi.responses import JSONResponse\n\n\ndef reject(reason: str) -> JSONResponse:\n"
        '    return JSONResponse({"error": reason, "code": "invalid"}, status_code=400)\n',
        STATUS,
    )
)
C.append(
    edit(
        "status-400-edit-replaces-422", "api/users.py", "status_code=422", "status_code=400", STATUS
    )
)
C.append(
    edit(
        "status-400-nested-package-spaces",
        "api/v2/orders.py",
        'raise HTTPException(status_code=422, detail="sku is required")',
        'raise HTTPException(status_code = 400, detail="sku is required")',
        STATUS,
        files={"api/v2/__init__.py": "", "api/v2/orders.py": ORDERS},
    )
)
C.append(edit("status-400-replace-all", "api/users.py", "422", "400", STATUS, replace_all=True))
C.append(
    write(
        "status-400-write-over-clean-file",
        "api/users.py",
        USERS.replace(
            '    return JSONResponse({"id": user_id})\n',
            '    if user_id == 0:\n        return JSONResponse({"error": "zero", "code": "zero"}, '
            "status_code=400)\n"
            '    return JSONResponse({"id": user_id})\n',
        ),
        STATUS,
    )
)
C.append(
    write(
        "header-request-id-middleware",
        "api/middleware.py",
        'def correlation_id(request) -> str:\n    return request.headers.get("X-Request-ID", "")\n',
        HEADER,
    )
)
C.append(
    edit(
        "header-request-id-lowercase-in-worker",
        "worker/client.py",
        'headers={"X-Correlation-ID": correlation_id}',
        "headers={'x-request-id': correlation_id}",
        HEADER,
    )
)
C.append(
    edit(
        "error-body-without-code",
        "api/users.py",
        '    return JSONResponse({"id": user_id})',
        '    if user_id > 10**9:\n        return JSONResponse({"error": "not found"}, '
        "status_code=404)\n"
        '    return JSONResponse({"id": user_id})',
        ERROR_CODE,
    )
)
C.append(
    write(
        "route-module-own-router",
        "api/routes/invoices.py",
        ROUTE_NEW,
        ROUTER,
        files={"api/routes/__init__.py": ""},
    )
)
C.append(write("event-schema-missing-version", "events/order_created.py", EVENT_MISSING, SCHEMA))
C.append(
    case(
        "bare-alembic-revision",
        "Bash",
        {"command": 'alembic revision -m "add invoices"', "description": "new migration"},
        MIGRATION,
    )
)
C.append(
    case(
        "alembic-revision-after-cd",
        "Bash",
        {
            "command": 'cd db && alembic revision --autogenerate -m "orders"',
            "description": "new migration",
        },
        MIGRATION,
    )
)
C.append(
    case(
        "openapi-drift-failure",
        "Bash",
        {"command": "make check", "description": "checks"},
        OPENAPI,
        error="Exit code 2\nruff: all checks passed\nERROR: openapi.json is out of date (3 paths "
        "changed)\nmake: *** [check] Error 2",
    )
)
# known misses: the spec is broken, but the pack's regexes read one spelling of it
C.append(
    {
        **edit(
            "error-body-without-code-formatted",
            "api/users.py",
            '    return JSONResponse({"id": user_id})',
            "    if user_id > 10**9:\n        return JSONResponse(\n            {\n               "
            ' "error": "not found",\n            },\n'
            '            status_code=404,\n        )\n    return JSONResponse({"id": user_id})',
            ERROR_CODE,
        ),
        "xfail": "the body a formatter writes (one key a line, trailing comma) escapes the rule's "
        "one-line regex (#13)",
    }
)
C.append(
    {
        **edit(
            "status-400-as-httpstatus",
            "api/v2/orders.py",
            'raise HTTPException(status_code=422, detail="sku is required")',
            'raise HTTPException(status_code=HTTPStatus.BAD_REQUEST, detail="sku is required")',
            STATUS,
            files={"api/v2/__init__.py": "", "api/v2/orders.py": ORDERS},
        ),
        "xfail": "HTTPStatus.BAD_REQUEST is a 400 too; the rule's regex knows only the literal "
        "(#13)",
    }
)

# --- near misses
C.append(
    edit(
        "status-400-already-in-file",
        "api/users.py",
        'return JSONResponse({"id": user_id})',
        'return JSONResponse({"id": user_id, "active": True})',
        [],
        files={"api/users.py": LEGACY_USERS},
    )
)
C.append(
    write(
        "status-400-kept-by-a-rewrite",
        "api/users.py",
        LEGACY_USERS.replace(
            '    return JSONResponse({"id": user_id})\n',
            '    user = {"id": user_id}\n    return JSONResponse(user)\n',
        ),
        [],
        files={"api/users.py": LEGACY_USERS},
    )
)
C.append(
    edit(
        "status-400-removed",
        "api/users.py",
        "status_code=400",
        "status_code=422",
        [],
        files={"api/users.py": LEGACY_USERS},
    )
)
C.append(
    write(
        "status-400-in-excluded-legacy",
        "api/legacy/v1.py",
        "from fastapi.responses import JSONResponse\n\n\ndef reject() -> JSONResponse:\n"
        '    return JSONResponse({"error": "bad", "code": "bad"}, status_code=400)\n',
        [],
    )
)
C.append(
    write(
        "status-400-in-tests",
        "tests/api/test_users.py",
        'def test_bad_id(client):\n    assert client.get("/users/-1").status_code == 422\n\n\n'
        'def test_legacy(client):\n    assert client.get("/v1/users/-1").status_code == 400\n',
        [],
    )
)
C.append(
    write(
        "status-400-in-docs",
        "docs/errors.md",
        "# Errors\n\nWe used to answer `status_code=400`; the spec says 422.\n",
        [],
    )
)
C.append(
    write(
        "status-4000-is-not-400",
        "api/limits.py",
        "MAX_BODY = dict(status_code=4000, bytes=1 << 20)\n",
        [],
    )
)
C.append(
    edit(
        "status-400-ignored-inline",
        "api/users.py",
        "status_code=422",
        "status_code=400  # sidekit: ignore[acme.api.status-422] (v1 clients depend on it)",
        [],
    )
)
C.append(
    write(
        "header-request-id-in-tests",
        "tests/test_client.py",
        'def test_old_header_is_dropped(client):\n    assert "X-Request-ID" not in '
        'client.get("/").headers\n',
        [],
    )
)
C.append(
    write(
        "header-correlation-id-right",
        "api/middleware.py",
        'def correlation_id(request) -> str:\n    return request.headers.get("X-Correlation-ID", '
        '"")\n',
        [],
    )
)
C.append(
    edit(
        "error-body-with-code",
        "api/users.py",
        '    return JSONResponse({"id": user_id})',
        '    if user_id > 10**9:\n        return JSONResponse({"error": "not found", "code": '
        '"not_found"}, status_code=404)\n'
        '    return JSONResponse({"id": user_id})',
        [],
    )
)
C.append(
    write(
        "route-module-shared-router",
        "api/routes/invoices.py",
        ROUTE_OK,
        [],
        files={"api/routes/__init__.py": ""},
    )
)
C.append(
    edit(
        "route-module-edit-not-write",
        "api/routes/invoices.py",
        "    return []",
        '    return [{"id": 1}]',
        [],
        files={"api/routes/__init__.py": "", "api/routes/invoices.py": ROUTE_NEW},
    )
)
C.append(write("event-schema-with-version", "events/order_created.py", EVENT_OK, []))
C.append(
    write(
        "event-schema-ignored",
        "events/order_shipped.py",
        "# sidekit: ignore[acme.events.schema-version] (internal, never published)\n"
        + EVENT_MISSING.replace("OrderCreated", "OrderShipped"),
        [],
    )
)
C.append(
    case(
        "read-of-violating-file",
        "Read",
        {"file_path": "api/users.py"},
        [],
        files={"api/users.py": LEGACY_USERS},
    )
)
C.append(
    case(
        "alembic-upgrade", "Bash", {"command": "alembic upgrade head", "description": "migrate"}, []
    )
)
C.append(
    case(
        "make-migration",
        "Bash",
        {"command": "make migration NAME=add_invoices", "description": "new migration"},
        [],
    )
)
C.append(
    write(
        "alembic-revision-in-docs",
        "docs/migrations.md",
        "# Migrations\n\nNever run `alembic revision` yourself; use `make migration NAME=...`.\n",
        [],
    )
)
C.append(
    case(
        "openapi-check-green",
        "Bash",
        {"command": "make check", "description": "checks"},
        [],
        stdout="ruff: all checks passed\nopenapi.json is up to date",
    )
)

write_cases(os.path.join(HERE, "specs.jsonl"), C)
print(counted("specs", C))
