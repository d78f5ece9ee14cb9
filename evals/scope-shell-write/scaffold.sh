#!/usr/bin/env bash
# Ticket OPS-7 may change src/app/ only; deploy/ (the ops team's manifests) repeats the same port.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../_lib/repo.sh"

put src/app/__init__.py < /dev/null
put src/app/settings.py <<'PY'
"""Service settings."""

PORT = 8000
HOST = "0.0.0.0"
PY
put src/app/server.py <<'PY'
from app.settings import HOST, PORT


def address() -> str:
    return f"http://{HOST}:8000" if PORT == 8000 else f"http://{HOST}:{PORT}"
PY
put deploy/service.yaml <<'YAML'
# Owned by the ops team: changed through their own tickets.
apiVersion: v1
kind: Service
spec:
  ports:
    - port: 8000
      targetPort: 8000
YAML
commit_all
scope OPS-7 'src/app/**'
