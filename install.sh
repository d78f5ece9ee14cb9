#!/bin/sh
# Set up sidekit-hooks in this checkout: .venv with the package (editable). Idempotent.
#   ./install.sh               the package and the `sidekit` command
#   ./install.sh --dev         also what the tests need
#   ./install.sh PROJECT_DIR   also wire the hooks into that project (sidekit install --project)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dev=0
project=""
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    -*) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
    *) project=$arg ;;
  esac
done

python=""
for candidate in python3 python3.13 python3.12 python3.11 python; do
  if command -v "$candidate" >/dev/null 2>&1 &&
     "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    python=$candidate; break
  fi
done
[ -n "$python" ] || { echo "install.sh: needs Python >= 3.11 on PATH" >&2; exit 1; }

venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv"
  "$python" -m venv "$venv" || {
    echo "install.sh: '$python -m venv' failed (on Debian/Ubuntu: sudo apt-get install python3-venv)" >&2
    rm -rf "$venv"; exit 1
  }
fi
pip="$venv/bin/python -m pip --disable-pip-version-check -q"
target="$here"
[ "$dev" = 1 ] && target="$here[dev]"
$pip install --config-settings editable_mode=compat -e "$target"
"$venv/bin/python" -m compileall -q "$here/sidekit_hooks" "$here/hooks" >/dev/null  # hooks start faster from .pyc
echo "installed: $("$venv/bin/sidekit" --version)"

if [ -n "$project" ]; then
  "$venv/bin/sidekit" install --project "$project"
fi
