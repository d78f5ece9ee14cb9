package boom

import "testing"

func TestFine(t *testing.T) {}

func TestAt(t *testing.T) {
	if At([]int{1, 2}, 5) != 0 {
		t.Error("unreachable")
	}
}
