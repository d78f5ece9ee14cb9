"""SECOND held-out Go near-copy set (#34), never tuned on; format in nearcopy_languages.py.

Written by a helper who never read the matcher (sidekit_hooks/code/, sidekit_hooks/detectors/) and
never ran it on these cases: measure them, never tune on them.

Project helpers: github.com/huandu/xstrings v1.5.0 (manipulate.go, format.go, convert.go, count.go;
package `xstrings`) and golang.org/x/exp at v0.0.0-20241009180824-f66d83c29e7c, its `slices` folder
(slices.go, sort.go, cmp.go; package `slices`), from the Go module proxy; no other set, session or
real-project list uses them. Copies are rewritten as agents do in Go: `utf8.DecodeRuneInString`
loops and `range` over a string, index loops and `range` over values, `switch` and `if`/`else if`
chains, named results and explicit returns, `strings.Repeat` and counted loops, private helpers
inlined (allocBuffer, writePadString, clearSlice, IndexFunc, isNaN), reordered independent cases and
operands, renamed locals, a new name and doc comment. Before this commit every case was compiled
into its package (`go vet`) and every copy compared with its original on sample inputs (a Go test
in the package). Written to a file of the project, a case needs the package clause of its label
(`xstrings`, `slices`): as_file() adds it.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "go"
SUFFIX = ".go"
PROJECTS = {
    "xstrings": Project("go", "go", "github.com/huandu/xstrings@v1.5.0", "", (".go",)),
    "expslices": Project(
        "go", "go", "golang.org/x/exp@v0.0.0-20241009180824-f66d83c29e7c", "slices", (".go",)
    ),
}
GO_PACKAGES = {"xstrings": "xstrings", "expslices": "slices"}  # the package clause for as_file()

COPIES = [
    # -- github.com/huandu/xstrings ------------------------------------------------------------
    Case(
        "xstrings",
        "Reverse",
        r"""
// ReverseRunes returns str with its runes in reverse order; invalid bytes are kept as they are.
func ReverseRunes(str string) string {
	out := make([]byte, len(str))
	for pos := 0; pos < len(str); {
		_, size := utf8.DecodeRuneInString(str[pos:])
		copy(out[len(str)-pos-size:], str[pos:pos+size])
		pos += size
	}
	return string(out)
}
""",
        "manipulate.go: the shrinking string and append at a moving tail as an index loop "
        "copying each rune's bytes to its mirrored position",
    ),
    Case(
        "xstrings",
        "Partition",
        r"""
// SplitAround splits str at the first sep: before, the separator, after.
func SplitAround(str, sep string) (string, string, string) {
	at := strings.Index(str, sep)
	if at < 0 {
		return str, "", ""
	}
	end := at + len(sep)
	return str[:at], str[at:end], str[end:]
}
""",
        "manipulate.go: the named results as explicit returns, `== -1` as `< 0`, the end index "
        "named",
    ),
    Case(
        "xstrings",
        "LastPartition",
        r"""
func SplitAroundLast(str, sep string) (head, match, tail string) {
	if at := strings.LastIndex(str, sep); at != -1 {
		head, match, tail = str[:at], str[at:at+len(sep)], str[at+len(sep):]
	} else {
		tail = str
	}
	return
}
""",
        "manipulate.go: the early return as if/else with the found case first, three "
        "assignments as one tuple assignment",
    ),
    Case(
        "xstrings",
        "Scrub",
        r"""
// ReplaceInvalid replaces each run of invalid UTF-8 bytes in str with repl.
func ReplaceInvalid(str, repl string) string {
	var out *strings.Builder
	rest := str
	start := 0
	bad := false
	for i := 0; i < len(rest); {
		r, size := utf8.DecodeRuneInString(rest[i:])
		switch {
		case r == utf8.RuneError && !bad:
			if out == nil {
				out = &strings.Builder{}
			}
			out.WriteString(rest[start:i])
			bad = true
		case r != utf8.RuneError && bad:
			bad = false
			out.WriteString(repl)
			start = i
		}
		i += size
	}
	if out == nil {
		return str
	}
	out.WriteString(rest[start:])
	return out.String()
}
""",
        "manipulate.go: the nested ifs as a switch, the re-sliced origin and pos as a start "
        "index into one string, stringBuilder as strings.Builder, the final ifs swapped",
    ),
    Case(
        "xstrings",
        "WordSplit",
        r"""
// Words splits str into words: letters, with ' and - inside a word.
func Words(str string) []string {
	var words []string
	start := -1
	for i := 0; i < len(str); {
		r, size := utf8.DecodeRuneInString(str[i:])
		if isAlphabet(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 && (r == '-' || r == '\'') {
			// a hyphen or apostrophe inside a word
		} else if start >= 0 {
			words = append(words, str[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		words = append(words, str[start:])
	}
	return words
}
""",
        "manipulate.go: the switch as an if chain, the inWord flag and word/pos pair as one "
        "start index, the || operands swapped",
    ),
    Case(
        "xstrings",
        "WordCount",
        r"""
func CountWords(str string) int {
	count := 0
	inside := false
	for _, r := range str {
		if isAlphabet(r) {
			if !inside {
				count++
			}
			inside = true
			continue
		}
		if inside && (r == '\'' || r == '-') {
			continue
		}
		inside = false
	}
	return count
}
""",
        "count.go: DecodeRuneInString as range over the string, the switch as ifs with "
        "continue, the flag set after the count",
    ),
    Case(
        "xstrings",
        "isAlphabet",
        r"""
func isWordLetter(r rune) bool {
	if !unicode.IsLetter(r) {
		return false
	}
	if r < '\u3400' {
		return true
	}
	if r >= '\u3400' && r <= '\u4D85' {
		return false
	}
	if r >= '\u4E00' && r <= '\u9FCC' {
		return false
	}
	return !(r >= '\U00020000' && r <= '\U0002B81D')
}
""",
        "count.go: the switch as ifs, minCJKCharacter inlined, the two CJK ranges swapped, the "
        "last case folded into the return",
    ),
    Case(
        "xstrings",
        "Width",
        r"""
// DisplayWidth is the number of terminal columns str takes.
func DisplayWidth(str string) int {
	total := 0
	for _, r := range str {
		total += RuneWidth(r)
	}
	return total
}
""",
        "count.go: the DecodeRuneInString loop as range over the string, locals renamed",
    ),
    Case(
        "xstrings",
        "RuneWidth",
        r"""
func columnsOf(r rune) int {
	if r == utf8.RuneError || r < 0x20 {
		return 0
	}
	if r >= 0xFFA0 {
		return 2
	}
	if r >= 0xFF61 {
		return 1
	}
	if r >= 0x2000 {
		return 2
	}
	return 1
}
""",
        "count.go: the switch over ranges as ifs from the top range down, rune literals as hex",
    ),
    Case(
        "xstrings",
        "ExpandTabs",
        r"""
func ExpandTabStops(str string, tabSize int) string {
	if tabSize <= 0 {
		panic("tab size must be positive")
	}
	var out *strings.Builder
	column := 0
	for i := 0; i < len(str); {
		r, size := utf8.DecodeRuneInString(str[i:])
		switch r {
		case '\t':
			spaces := tabSize - column%tabSize
			if out == nil {
				out = &strings.Builder{}
				out.WriteString(str[:i])
			}
			out.WriteString(strings.Repeat(" ", spaces))
			column += spaces
		case '\n':
			column = 0
			if out != nil {
				out.WriteRune(r)
			}
		default:
			column += RuneWidth(r)
			if out != nil {
				out.WriteRune(r)
			}
		}
		i += size
	}
	if out != nil {
		return out.String()
	}
	return str
}
""",
        "format.go: allocBuffer inlined (without its Grow), the space loop as strings.Repeat, the "
        "if/else on '\\t' and '\\n' as a switch, the last if negated",
    ),
    Case(
        "xstrings",
        "LeftJustify",
        r"""
// PadEnd pads str on the right with pad, repeated, up to length runes.
func PadEnd(str string, length int, pad string) string {
	n := utf8.RuneCountInString(str)
	if pad == "" || n >= length {
		return str
	}
	missing := length - n
	padRunes := []rune(pad)
	var b strings.Builder
	b.WriteString(str)
	b.WriteString(strings.Repeat(pad, missing/len(padRunes)))
	b.WriteString(string(padRunes[:missing%len(padRunes)]))
	return b.String()
}
""",
        "format.go: Len and writePadString inlined (the rune loop as a []rune slice, the repeat "
        "loop as strings.Repeat), the || operands swapped",
    ),
    Case(
        "xstrings",
        "RightJustify",
        r"""
func PadStart(str string, length int, pad string) string {
	n := Len(str)
	if n >= length || pad == "" {
		return str
	}
	remains := length - n
	padLen := Len(pad)
	var out stringBuilder
	for i := 0; i < remains/padLen; i++ {
		out.WriteString(pad)
	}
	for _, r := range []rune(pad)[:remains%padLen] {
		out.WriteRune(r)
	}
	out.WriteString(str)
	return out.String()
}
""",
        "format.go: writePadString inlined (its partial rune loop as range over a rune slice), "
        "no Grow, the builder a value",
    ),
    Case(
        "xstrings",
        "Center",
        r"""
func CenterIn(str string, length int, pad string) string {
	n := Len(str)
	if pad == "" || length <= n {
		return str
	}
	remains := length - n
	padLen := Len(pad)
	output := &stringBuilder{}
	left, right := remains/2, (remains+1)/2
	writePadString(output, pad, padLen, left)
	output.WriteString(str)
	writePadString(output, pad, padLen, right)
	return output.String()
}
""",
        "format.go: the two pad lengths named, the early-return tests reordered and one flipped, "
        "no Grow",
    ),
    Case(
        "xstrings",
        "writePadString",
        r"""
func appendPadding(output *stringBuilder, pad string, padLen, remains int) {
	output.WriteString(strings.Repeat(pad, remains/padLen))
	rest := remains % padLen
	for _, r := range pad {
		if rest == 0 {
			break
		}
		output.WriteRune(r)
		rest--
	}
}
""",
        "format.go: the repeat loop as strings.Repeat, the partial pad's DecodeRuneInString loop "
        "as range with a countdown",
    ),
    Case(
        "xstrings",
        "SwapCase",
        r"""
func InvertCase(str string) string {
	var b strings.Builder
	for _, r := range str {
		if unicode.IsLower(r) {
			r = unicode.ToUpper(r)
		} else if unicode.IsUpper(r) {
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
""",
        "convert.go: the switch as if/else if with one WriteRune, upper and lower cases swapped, "
        "range over the string",
    ),
    Case(
        "xstrings",
        "FirstRuneToUpper",
        r"""
// CapitalizeFirst upper-cases the first rune of str when it is lower case.
func CapitalizeFirst(str string) string {
	if len(str) == 0 {
		return str
	}
	first, size := utf8.DecodeRuneInString(str)
	if unicode.IsLower(first) {
		return string(unicode.ToUpper(first)) + str[size:]
	}
	return str
}
""",
        "convert.go: the builder as string concatenation, the IsLower test flipped with its "
        "branches swapped",
    ),
    Case(
        "xstrings",
        "FirstRuneToLower",
        r"""
func LowerFirst(str string) string {
	if str != "" {
		r, n := utf8.DecodeRuneInString(str)
		if unicode.IsUpper(r) {
			var b strings.Builder
			b.WriteRune(unicode.ToLower(r))
			b.WriteString(str[n:])
			return b.String()
		}
	}
	return str
}
""",
        "convert.go: the two early returns as nested ifs, stringBuilder as strings.Builder, "
        "locals renamed",
    ),
    Case(
        "xstrings",
        "ShuffleSource",
        r"""
func ShuffleWith(str string, src rand.Source) string {
	if len(str) == 0 {
		return str
	}
	rng := rand.New(src)
	runes := []rune(str)
	for i := len(runes) - 1; i >= 1; i-- {
		j := rng.Intn(i + 1)
		runes[i], runes[j] = runes[j], runes[i]
	}
	return string(runes)
}
""",
        "convert.go: the `i != index` guard dropped (a self swap changes nothing), the index "
        "declared in the loop, `i > 0` as `i >= 1`",
    ),
    # -- golang.org/x/exp/slices -------------------------------------------------------------------
    Case(
        "expslices",
        "Equal",
        r"""
// SameElements reports whether a and b hold equal elements in the same order.
func SameElements[S ~[]E, E comparable](a, b S) bool {
	if len(b) != len(a) {
		return false
	}
	for i, x := range a {
		if b[i] != x {
			return false
		}
	}
	return true
}
""",
        "slices.go: the index loop as range with a value, the operands of both comparisons swapped",
    ),
    Case(
        "expslices",
        "CompareFunc",
        r"""
func LexCompareFunc[S1 ~[]E1, S2 ~[]E2, E1, E2 any](a S1, b S2, cmp func(E1, E2) int) int {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	for i := 0; i < n; i++ {
		if c := cmp(a[i], b[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a) > len(b):
		return 1
	case len(a) < len(b):
		return -1
	}
	return 0
}
""",
        "slices.go: the range with its `i >= len(s2)` exit as a loop to the shorter length, the "
        "length tests after it as a switch",
    ),
    Case(
        "expslices",
        "Index",
        r"""
func PositionOf[S ~[]E, E comparable](s S, v E) int {
	for i, item := range s {
		if item == v {
			return i
		}
	}
	return -1
}
""",
        "slices.go: range over values instead of s[i], the comparison's operands swapped",
    ),
    Case(
        "expslices",
        "DeleteFunc",
        r"""
// RemoveWhere removes the elements del reports, in place, and returns the shortened slice.
func RemoveWhere[S ~[]E, E any](s S, del func(E) bool) S {
	kept := 0
	for _, v := range s {
		if del(v) {
			continue
		}
		s[kept] = v
		kept++
	}
	var zero E
	for i := kept; i < len(s); i++ {
		s[i] = zero
	}
	return s[:kept]
}
""",
        "slices.go: IndexFunc and clearSlice inlined, the scan from the first deleted index as "
        "one range loop with continue",
    ),
    Case(
        "expslices",
        "Compact",
        r"""
func DropRepeats[S ~[]E, E comparable](s S) S {
	if len(s) <= 1 {
		return s
	}
	w := 1
	for r := 1; r < len(s); r++ {
		if s[r] == s[r-1] {
			continue
		}
		s[w] = s[r]
		w++
	}
	var zero E
	for i := range s[w:] {
		s[w+i] = zero
	}
	return s[:w]
}
""",
        "slices.go: `< 2` as `<= 1`, the != test as == with continue, the `i != k` guard dropped, "
        "clearSlice inlined",
    ),
    Case(
        "expslices",
        "CompactFunc",
        r"""
func DropRepeatsFunc[S ~[]E, E any](s S, eq func(E, E) bool) S {
	if len(s) < 2 {
		return s
	}
	i := 1
	for k := 1; k < len(s); k++ {
		if eq(s[k], s[k-1]) {
			continue
		}
		if k != i {
			s[i] = s[k]
		}
		i++
	}
	clearSlice(s[i:])
	return s[:i]
}
""",
        "slices.go: the negated test as a continue, `i != k` operands swapped",
    ),
    Case(
        "expslices",
        "Reverse",
        r"""
// Flip reverses s in place.
func Flip[S ~[]E, E any](s S) {
	n := len(s)
	for i := 0; i < n/2; i++ {
		j := n - 1 - i
		s[i], s[j] = s[j], s[i]
	}
}
""",
        "slices.go: the two moving indexes as one index and its mirror",
    ),
    Case(
        "expslices",
        "IsSortedFunc",
        r"""
func InOrderFunc[S ~[]E, E any](x S, cmp func(a, b E) int) bool {
	for i := 1; i < len(x); i++ {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}
""",
        "sort.go: the backward loop as a forward one",
    ),
    Case(
        "expslices",
        "MaxFunc",
        r"""
func LargestFunc[S ~[]E, E any](x S, cmp func(a, b E) int) E {
	if len(x) == 0 {
		panic("slices.MaxFunc: empty list")
	}
	best := x[0]
	for _, v := range x[1:] {
		if cmp(v, best) > 0 {
			best = v
		}
	}
	return best
}
""",
        "sort.go: the index loop as range over x[1:], `< 1` as `== 0`",
    ),
    Case(
        "expslices",
        "BinarySearchFunc",
        r"""
// SearchSortedFunc finds where target is, or would be, in the sorted x.
func SearchSortedFunc[S ~[]E, E, T any](x S, target T, cmp func(E, T) int) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if cmp(x[mid], target) >= 0 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	found := lo < len(x) && cmp(x[lo], target) == 0
	return lo, found
}
""",
        "sort.go: the `< 0` test flipped with its branches swapped, n inlined, locals renamed",
    ),
    Case(
        "expslices",
        "cmpCompare",
        r"""
func compareNaNFirst[T constraints.Ordered](x, y T) int {
	xNaN, yNaN := x != x, y != y
	switch {
	case xNaN && yNaN:
		return 0
	case xNaN || x < y:
		return -1
	case yNaN || x > y:
		return 1
	default:
		return 0
	}
}
""",
        "cmp.go: isNaN inlined as x != x, the ifs as a switch",
    ),
]

NEAR_MISSES = [
    Case(
        "xstrings",
        "",
        r"""
func ReverseBytes(str string) string {
	out := make([]byte, len(str))
	for i := 0; i < len(str); i++ {
		out[len(str)-1-i] = str[i]
	}
	return string(out)
}
""",
        "like Reverse (manipulate.go): reverses bytes, so multi-byte runes break",
    ),
    Case(
        "xstrings",
        "",
        r"""
func SplitAroundAll(str, sep string) (string, string, string) {
	at := strings.Index(str, sep)
	if at < 0 {
		return "", "", str
	}
	end := at + len(sep)
	return str[:at], str[at:end], str[end:]
}
""",
        "like Partition (manipulate.go): a missing separator leaves str in the tail, not the head",
    ),
    Case(
        "xstrings",
        "",
        r"""
func CutLast(str, sep string) (head, tail string, found bool) {
	if at := strings.LastIndex(str, sep); at != -1 {
		return str[:at], str[at+len(sep):], true
	}
	return str, "", false
}
""",
        "like LastPartition (manipulate.go): no separator result, and a missing one leaves str "
        "in the head",
    ),
    Case(
        "xstrings",
        "",
        r"""
func ReplaceEachInvalid(str, repl string) string {
	var b strings.Builder
	for i := 0; i < len(str); {
		r, size := utf8.DecodeRuneInString(str[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(repl)
		} else {
			b.WriteString(str[i : i+size])
		}
		i += size
	}
	return b.String()
}
""",
        "like Scrub (manipulate.go): one replacement per invalid byte, not per run",
    ),
    Case(
        "xstrings",
        "",
        r"""
func FieldsOfLetters(str string) []string {
	var words []string
	start := -1
	for i, r := range str {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			words = append(words, str[start:i])
			start = -1
		}
	}
	if start >= 0 {
		words = append(words, str[start:])
	}
	return words
}
""",
        "like WordSplit (manipulate.go): digits and CJK are word characters, ' and - split words",
    ),
    Case(
        "xstrings",
        "",
        r"""
func CountTokens(str string) int {
	count := 0
	inside := false
	for _, r := range str {
		if unicode.IsSpace(r) {
			inside = false
			continue
		}
		if !inside {
			count++
		}
		inside = true
	}
	return count
}
""",
        "like WordCount (count.go): counts space-separated tokens, punctuation and digits included",
    ),
    Case(
        "xstrings",
        "",
        r"""
func isLatinLetter(r rune) bool {
	if !unicode.IsLetter(r) {
		return false
	}
	if r < '\u3400' {
		return true
	}
	return r > '\u9FFF'
}
""",
        "like isAlphabet (count.go): every letter from U+3400 to U+9FFF is excluded, rare CJK "
        "beyond the BMP counts",
    ),
    Case(
        "xstrings",
        "",
        r"""
func ByteWidth(str string) int {
	total := 0
	for _, r := range str {
		total += utf8.RuneLen(r)
	}
	return total
}
""",
        "like Width (count.go): the encoded length of each rune, not its terminal columns",
    ),
    Case(
        "xstrings",
        "",
        r"""
func wideColumns(r rune) int {
	if r < 0x20 {
		return 0
	}
	if r >= 0x1100 && r <= 0x115F {
		return 2
	}
	if r >= 0x2E80 && r <= 0xA4CF {
		return 2
	}
	return 1
}
""",
        "like RuneWidth (count.go): other wide ranges (Hangul Jamo, CJK), full-width forms are "
        "narrow",
    ),
    Case(
        "xstrings",
        "",
        r"""
func TabsToSpaces(str string, tabSize int) string {
	if tabSize <= 0 {
		panic("tab size must be positive")
	}
	return strings.ReplaceAll(str, "\t", strings.Repeat(" ", tabSize))
}
""",
        "like ExpandTabs (format.go): every tab becomes tabSize spaces, whatever the column",
    ),
    Case(
        "xstrings",
        "",
        r"""
func PadEndBytes(str string, length int, pad string) string {
	if pad == "" || len(str) >= length {
		return str
	}
	var b strings.Builder
	b.WriteString(str)
	for b.Len() < length {
		b.WriteString(pad)
	}
	return b.String()[:length]
}
""",
        "like LeftJustify (format.go): counts bytes, not runes, and may cut a rune in half",
    ),
    Case(
        "xstrings",
        "",
        r"""
func PadStartWhole(str string, length int, pad string) string {
	n := Len(str)
	if n >= length || pad == "" {
		return str
	}
	var out stringBuilder
	for written := 0; written < length-n; written += Len(pad) {
		out.WriteString(pad)
	}
	out.WriteString(str)
	return out.String()
}
""",
        "like RightJustify (format.go): whole copies of pad only, so the result can be longer "
        "than length",
    ),
    Case(
        "xstrings",
        "",
        r"""
func CenterLeftHeavy(str string, length int, pad string) string {
	n := Len(str)
	if pad == "" || length <= n {
		return str
	}
	remains := length - n
	padLen := Len(pad)
	output := &stringBuilder{}
	writePadString(output, pad, padLen, (remains+1)/2)
	output.WriteString(str)
	writePadString(output, pad, padLen, remains/2)
	return output.String()
}
""",
        "like Center (format.go): an odd padding puts the extra rune on the left, not the right",
    ),
    Case(
        "xstrings",
        "",
        r"""
func appendPaddingBytes(output *stringBuilder, pad string, padLen, remains int) {
	output.WriteString(strings.Repeat(pad, remains/padLen))
	output.WriteString(pad[:remains%padLen])
}
""",
        "like writePadString (format.go): the partial pad is cut in bytes, not runes",
    ),
    Case(
        "xstrings",
        "",
        r"""
func UpperAll(str string) string {
	var b strings.Builder
	for _, r := range str {
		if unicode.IsLower(r) {
			r = unicode.ToUpper(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
""",
        "like SwapCase (convert.go): upper case stays upper, nothing goes to lower case",
    ),
    Case(
        "xstrings",
        "",
        r"""
func TitleFirst(str string) string {
	if len(str) == 0 {
		return str
	}
	first, size := utf8.DecodeRuneInString(str)
	return string(unicode.ToTitle(first)) + strings.ToLower(str[size:])
}
""",
        "like FirstRuneToUpper (convert.go): title case, and the rest is lower-cased",
    ),
    Case(
        "xstrings",
        "",
        r"""
func LowerInitialByte(str string) string {
	if str == "" {
		return str
	}
	if c := str[0]; c >= 'A' && c <= 'Z' {
		return string(c+'a'-'A') + str[1:]
	}
	return str
}
""",
        "like FirstRuneToLower (convert.go): ASCII only, a non-ASCII capital stays",
    ),
    Case(
        "xstrings",
        "",
        r"""
func ShuffleWords(str string, src rand.Source) string {
	if len(str) == 0 {
		return str
	}
	rng := rand.New(src)
	words := strings.Fields(str)
	for i := len(words) - 1; i >= 1; i-- {
		j := rng.Intn(i + 1)
		words[i], words[j] = words[j], words[i]
	}
	return strings.Join(words, " ")
}
""",
        "like ShuffleSource (convert.go): shuffles words, not runes, and spacing collapses",
    ),
    Case(
        "expslices",
        "",
        r"""
func SameSet[S ~[]E, E comparable](a, b S) bool {
	if len(a) != len(b) {
		return false
	}
	counts := make(map[E]int, len(a))
	for _, x := range a {
		counts[x]++
	}
	for _, x := range b {
		counts[x]--
		if counts[x] < 0 {
			return false
		}
	}
	return true
}
""",
        "like Equal (slices.go): the same elements in any order",
    ),
    Case(
        "expslices",
        "",
        r"""
func CompareByLength[S1 ~[]E1, S2 ~[]E2, E1, E2 any](a S1, b S2, cmp func(E1, E2) int) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	for i := range a {
		if c := cmp(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}
""",
        "like CompareFunc (slices.go): a shorter slice is always less, elements only break ties",
    ),
    Case(
        "expslices",
        "",
        r"""
func LastPositionOf[S ~[]E, E comparable](s S, v E) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == v {
			return i
		}
	}
	return -1
}
""",
        "like Index (slices.go): the last match, not the first",
    ),
    Case(
        "expslices",
        "",
        r"""
func KeepWhere[S ~[]E, E any](s S, keep func(E) bool) S {
	out := make(S, 0, len(s))
	for _, v := range s {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}
""",
        "like DeleteFunc (slices.go): keeps what the function reports, into a new slice (the "
        "input is untouched)",
    ),
    Case(
        "expslices",
        "",
        r"""
func DropAllRepeats[S ~[]E, E comparable](s S) S {
	seen := make(map[E]struct{}, len(s))
	w := 0
	for _, v := range s {
		if _, ok := seen[v]; ok {
			continue
		}
		seen[v] = struct{}{}
		s[w] = v
		w++
	}
	return s[:w]
}
""",
        "like Compact (slices.go): drops every repeat, not only adjacent ones, and leaves the "
        "tail uncleared",
    ),
    Case(
        "expslices",
        "",
        r"""
func GroupRunsFunc[S ~[]E, E any](s S, eq func(E, E) bool) []S {
	var runs []S
	start := 0
	for k := 1; k <= len(s); k++ {
		if k == len(s) || !eq(s[k], s[k-1]) {
			runs = append(runs, s[start:k])
			start = k
		}
	}
	return runs
}
""",
        "like CompactFunc (slices.go): returns the runs of equal elements, not one of each",
    ),
    Case(
        "expslices",
        "",
        r"""
func Reversed[S ~[]E, E any](s S) S {
	out := make(S, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}
""",
        "like Reverse (slices.go): returns a reversed copy, the input is untouched",
    ),
    Case(
        "expslices",
        "",
        r"""
func StrictlyIncreasingFunc[S ~[]E, E any](x S, cmp func(a, b E) int) bool {
	for i := 1; i < len(x); i++ {
		if cmp(x[i], x[i-1]) <= 0 {
			return false
		}
	}
	return true
}
""",
        "like IsSortedFunc (sort.go): equal neighbours fail",
    ),
    Case(
        "expslices",
        "",
        r"""
func LargestIndexFunc[S ~[]E, E any](x S, cmp func(a, b E) int) int {
	best := -1
	for i, v := range x {
		if best < 0 || cmp(v, x[best]) >= 0 {
			best = i
		}
	}
	return best
}
""",
        "like MaxFunc (sort.go): the index of the last maximum, -1 for an empty slice, no panic",
    ),
    Case(
        "expslices",
        "",
        r"""
func SearchLastFunc[S ~[]E, E, T any](x S, target T, cmp func(E, T) int) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if cmp(x[mid], target) > 0 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	found := lo > 0 && cmp(x[lo-1], target) == 0
	return lo, found
}
""",
        "like BinarySearchFunc (sort.go): the position after the last equal element, not the first",
    ),
    Case(
        "expslices",
        "",
        r"""
func compareNaNLast[T constraints.Ordered](x, y T) int {
	xNaN, yNaN := x != x, y != y
	switch {
	case xNaN && yNaN:
		return 0
	case yNaN || x < y:
		return -1
	case xNaN || x > y:
		return 1
	default:
		return 0
	}
}
""",
        "like cmpCompare (cmp.go): NaN sorts after every number, not before",
    ),
]

HELDOUT2_GO = COPIES + NEAR_MISSES
