#!/usr/bin/env bash
# A Go module with no dependencies (nothing to download): ParseCents drops a digit, and 120 tests in
# two packages fail because of it. Needs the go toolchain on PATH (checked, never installed).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../_lib/repo.sh"
command -v go > /dev/null || { echo "this case needs the go toolchain on PATH" >&2; exit 1; }

put go.mod <<'GO'
module example.com/shop

go 1.21
GO
put money/money.go <<'GO'
// Package money holds prices as integer cents.
package money

import "strings"

// ParseCents turns "12.34" into 1234.
func ParseCents(text string) int {
	units, cents, _ := strings.Cut(text, ".")
	n := 0
	for _, r := range units {
		n = n*10 + int(r-'0')
	}
	if cents != "" {
		n = n*100 + int(cents[0]-'0')
	}
	return n
}
GO
for pkg in catalog invoice; do
  {
    printf 'package %s\n\nimport (\n\t"testing"\n\n\t"example.com/shop/money"\n)\n' "$pkg"
    for t in $(seq 1 60); do
      printf '\nfunc TestPrice%d(t *testing.T) {\n\tif got := money.ParseCents("%d.%02d"); got != %d {\n\t\tt.Fatalf("ParseCents(%%q) = %%d, want %%d", "%d.%02d", got, %d)\n\t}\n}\n' \
        "$t" "$t" "$((t + 10))" "$((t * 100 + t + 10))" "$t" "$((t + 10))" "$((t * 100 + t + 10))"
    done
  } | put "$pkg/${pkg}_test.go"
  printf 'package %s\n' "$pkg" | put "$pkg/doc.go"
done
commit_all
