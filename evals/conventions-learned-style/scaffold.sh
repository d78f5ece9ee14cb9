#!/usr/bin/env bash
# A package whose every function is snake_case and fully type-hinted, with the conventions file
# `sidekit conventions learn` writes for it (committed, as the team would).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../_lib/repo.sh"

put shop/__init__.py < /dev/null
for name in orders items users prices; do
  put "shop/$name.py" <<PY
"""The $name table."""


def load_$name(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [line.strip() for line in handle]


def count_$name(rows: list[str]) -> int:
    return len(rows)


def first_$name(rows: list[str], default: str = "") -> str:
    return rows[0] if rows else default
PY
done
put sidecar_rules/conventions.toml <<'TOML'
# Learned by `sidekit conventions learn` from this repository's own code.

[pack]
name = "conventions"
version = "1"
description = "Conventions this repository follows in >= 90% of cases."

[[rules]]
id = "conventions.function-names"
sidecar = "conventions"
message = "Functions here are snake_case (12 of 12, 100%); name the new def in snake_case."
severity = "medium"

[rules.when]
tools = ["Edit", "Write"]
paths = ["**/*.py"]
added = '(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+(?!test)_*[a-z][a-z0-9]*[A-Z]\w*[ \t]*\('

[[rules]]
id = "conventions.type-hints"
sidecar = "conventions"
message = "Public functions here are fully type-hinted (12 of 12, 100%); annotate the new def's parameters and return type."
severity = "medium"

[rules.when]
tools = ["Edit", "Write"]
paths = ["**/*.py"]
exclude = ["**/tests/**", "**/test_*.py"]
added = '(?m)^[ \t]*(?:async[ \t]+)?def[ \t]+[A-Za-z]\w*[ \t]*\((?:(?:self|cls)[ \t]*,?[ \t]*)?(?:[^)\n]*,[ \t]*)?(?:(?!self\b|cls\b)[A-Za-z_]\w*[ \t]*(?:=[^,)\n]*)?[,)]|[^)\n]*\)[ \t]*:)'
TOML
commit_all
