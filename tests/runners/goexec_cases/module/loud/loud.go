// Package loud passes and prints a lot.
package loud

// Sum adds.
func Sum(a, b int) int { return a + b }
