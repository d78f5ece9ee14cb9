package calc_test

import (
	"testing"

	"example.com/m/calc"
)

func TestExternal(t *testing.T) {
	if got := calc.Double(6); got != 12 {
		t.Errorf("calc.Double(6) = %d", got)
	}
}
