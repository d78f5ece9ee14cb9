package calc

import (
	"fmt"
	"testing"
)

func check(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("got %d, want %d", got, want)
	}
}

func TestDouble(t *testing.T) {
	for n := 0; n < 40; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			if got := Double(n); got != 2*n { // Title("x") in a comment is no call
				t.Errorf("Double(%d) = %d, want %d", n, got, 2*n)
			}
		})
	}
}

func TestÜnicode(t *testing.T) {
	t.Errorf("wörd %q → %v at 0x%x, ratio %v", "naïve", 3.5e-3, 0xdeadbeef, Ratio(1, 3))
}

func TestBare(t *testing.T) {
	fmt.Println("printed: ÄÖÜ 'x' \"y\" 12.5 -7 1e9x v2 ٣٤")
	if Double(7) != 14 {
		t.Fail()
	}
}

func TestHelper(t *testing.T) { check(t, Double(9), 18) }

func TestMethod(t *testing.T) {
	b := Box{v: 1}
	if b.Get() != 1 {
		t.Errorf("Box.Get() = %d, want 1 (%s)", b.Get(), "a \"quoted\" word")
	}
}

func TestMultiline(t *testing.T) {
	got := Generic[int](Double(8))
	if got != 16 {
		t.Errorf("first line %d\n\tsecond line 'a\\'b' %s", got, `x(y)`)
	}
}

func TestLog(t *testing.T) {
	t.Log("a log line 42")
	if r := Ratio(1, 3); r != 0.5 {
		t.Errorf("Ratio(1, 3) = %v; want 0.5 (1.5e+00 x 0xZZ 0x1F 12.34.56 +3 a-4)", r)
	}
}

func TestSkip(t *testing.T) { t.Skip("skipped: 'why'") }

func TestPass(t *testing.T) {}

func TestNested(t *testing.T) {
	t.Run("outer", func(t *testing.T) {
		t.Run("inner one", func(t *testing.T) {
			if Double(10) != 20 {
				t.Errorf(`Double(10) = %d, want "20"`, Double(10))
			}
		})
		t.Run("inner two", func(t *testing.T) {})
	})
}

func TestTitle(t *testing.T) {
	var x rune = 'a'
	if Title("ab") != "Ab" || x != 'a' {
		t.Error("Title", 'x', "ab")
	}
}
