// Package boom panics.
package boom

// At indexes past the end.
func At(xs []int, i int) int { return xs[i] }
