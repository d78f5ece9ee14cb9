# Sourced after repo.sh: a priced-catalog package whose parse_price() (shop/money.py) drops the
# cents, behind FILES x TESTS failing tests in tests/ (one root cause, many failures), plus the
# passing ones. Needs a python3 with pytest (`python3 -m pytest`): checked here, never installed. The
# project gets its own .venv that sees that pytest (--system-site-packages: nothing is downloaded), as a
# real project has its environment inside it (sidekit wires only environments inside the project).
python3 -m pytest --version > /dev/null 2>&1 || {
  echo "this case needs pytest for python3 (python3 -m pytest --version failed): pip install pytest" >&2
  exit 1
}
python3 -m venv --system-site-packages --without-pip .venv

# red_cascade FILES TESTS: write the package and FILES test files of TESTS failing tests each
red_cascade() {
  local files=$1 tests=$2
  put shop/__init__.py < /dev/null
  put shop/money.py <<'PY'
"""Money: prices as integer cents."""


def parse_price(text: str) -> int:
    """'12.34' -> 1234 cents."""
    units, _, cents = text.partition(".")
    return int(units) * 100 + int(cents[:1] or 0)
PY
  put shop/catalog.py <<'PY'
"""The catalog reads prices as text."""

from shop.money import parse_price


def price_of(row: dict) -> int:
    return parse_price(row["price"])


def total(rows: list[dict]) -> int:
    return sum(price_of(row) for row in rows)
PY
  put tests/test_sanity.py <<'PY'
def test_nothing_broken_here():
    assert 1 + 1 == 2
PY
  local f t
  for f in $(seq 1 "$files"); do
    {
      printf 'from shop.catalog import price_of, total\n\n'
      for t in $(seq 1 "$tests"); do
        printf '\ndef test_item_%d_%d():\n    assert price_of({"price": "%d.%02d"}) == %d\n' \
          "$f" "$t" "$t" "$((t % 90 + 10))" "$((t * 100 + t % 90 + 10))"
      done
    } | put "tests/test_catalog_$f.py"
  done
}
