package loud

import (
	"fmt"
	"testing"
)

func TestSum(t *testing.T) {
	for i := 0; i < 40; i++ {
		fmt.Printf("line %d printed by a passing test ..........................................\n", i)
	}
	t.Log("logged 'quietly'")
	if Sum(1, 2) != 3 {
		t.Fail()
	}
}

func TestSkipMe(t *testing.T) { t.Skip() }
