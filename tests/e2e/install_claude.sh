#!/usr/bin/env bash
# Install the pinned Claude Code CLI into tests/e2e/.cache (idempotent). Exit 1 when npm cannot.
set -eu
version=2.1.328
cache="$(cd "$(dirname "$0")" && pwd)/.cache/claude-code-$version"
if [ -x "$cache/node_modules/.bin/claude" ]; then exit 0; fi
command -v npm >/dev/null 2>&1 || { echo "npm not found" >&2; exit 1; }
mkdir -p "$cache"
cd "$cache"
[ -f package.json ] || echo '{"name":"sidekit-e2e-claude","private":true}' > package.json
npm install --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$version" >/dev/null
"$cache/node_modules/.bin/claude" --version
