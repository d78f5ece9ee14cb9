// Package calc: small functions with planted bugs, for the recorded test2json outputs.
package calc

import "strings"

// Double doubles n, off by one above 5.
func Double(n int) int {
	if n > 5 {
		return n*2 + 1
	}
	return n * 2
}

// Title upper-cases the first letter.
func Title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// Box holds a value.
type Box struct{ v int }

// Get is off by one.
func (b Box) Get() int { return b.v + 1 }

// Ratio scales a / b.
func Ratio(a, b float64) float64 { return a / b * 1.25 }

// Generic keeps its argument.
func Generic[T any](v T) T { return v }
