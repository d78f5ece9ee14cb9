"""HELD-OUT Go near-copy set (#34, #35), never tuned on; format in nearcopy_languages.py.

Project helpers: github.com/samber/lo v1.47.0 (slice.go, find.go, intersect.go, string.go; package
`lo`) and github.com/joho/godotenv v1.5.1 (godotenv.go, parser.go; package `godotenv`), from the Go
module proxy. Copies are rewritten as agents do in Go: index loops and `range` over values,
`struct{}` sets and `bool` maps, `if err != nil` early returns and nested `if err == nil` blocks,
`continue` and `if`/`else`, recursion as a loop, private helpers inlined, reordered tests, renamed
locals, a new name. Each copy was compiled into its package and compared with the original on sample
inputs before this commit. Written to a file of the project, a case needs the package clause of its
label (`lo`, `godotenv`): as_file() adds it.
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "go"
SUFFIX = ".go"
PROJECTS = {
    "lo": Project("go", "go", "github.com/samber/lo@v1.47.0", "", (".go",)),
    "godotenv": Project("go", "go", "github.com/joho/godotenv@v1.5.1", "", (".go",)),
}
GO_PACKAGES = {"lo": "lo", "godotenv": "godotenv"}  # the package clause for as_file()

COPIES = [
    Case(
        "lo",
        "Uniq",
        r"""
func Dedupe[T comparable](items []T) []T {
	out := make([]T, 0, len(items))
	seen := make(map[T]bool, len(items))
	for _, item := range items {
		if !seen[item] {
			seen[item] = true
			out = append(out, item)
		}
	}
	return out
}
""",
        "slice.go: the index loop as range over values, the struct{} set as a bool map, continue "
        "as an if",
    ),
    Case(
        "lo",
        "Chunk",
        r"""
func Batches[T any](items []T, size int) [][]T {
	if size <= 0 {
		panic("Second parameter must be greater than 0")
	}
	batches := make([][]T, 0, (len(items)+size-1)/size)
	for start := 0; start < len(items); start += size {
		end := start + size
		if end > len(items) {
			end = len(items)
		}
		batches = append(batches, items[start:end:end])
	}
	return batches
}
""",
        "slice.go: the chunk count and index arithmetic as a loop stepping by size",
    ),
    Case(
        "lo",
        "PartitionBy",
        r"""
func PartitionInOrder[T any, K comparable](items []T, keyOf func(T) K) [][]T {
	groups := [][]T{}
	position := map[K]int{}
	for _, item := range items {
		k := keyOf(item)
		idx, found := position[k]
		if found {
			groups[idx] = append(groups[idx], item)
			continue
		}
		position[k] = len(groups)
		groups = append(groups, []T{item})
	}
	return groups
}
""",
        "slice.go: the not-found branch last after a continue, the group created with its first "
        "item",
    ),
    Case(
        "lo",
        "DropWhile",
        r"""
func SkipWhile[T any](items []T, keep func(T) bool) []T {
	start := len(items)
	for i, item := range items {
		if !keep(item) {
			start = i
			break
		}
	}
	rest := make([]T, 0, len(items)-start)
	return append(rest, items[start:]...)
}
""",
        "slice.go: the counting loop as range with break, the start defaulting to the length",
    ),
    Case(
        "lo",
        "Compact",
        r"""
func NonZero[T comparable](items []T) []T {
	var zero T
	kept := make([]T, 0, len(items))
	for _, item := range items {
		if item == zero {
			continue
		}
		kept = append(kept, item)
	}
	return kept
}
""",
        "slice.go: the != test inverted into a continue, range over values",
    ),
    Case(
        "lo",
        "IsSorted",
        r"""
func InOrder[T constraints.Ordered](items []T) bool {
	for i := range items {
		if i == 0 {
			continue
		}
		if items[i] < items[i-1] {
			return false
		}
	}
	return true
}
""",
        "slice.go: the loop from 1 as range with a skipped first index, the comparison's operands "
        "swapped",
    ),
    Case(
        "lo",
        "Subset",
        r"""
func Window[T any](items []T, offset int, length uint) []T {
	n := len(items)
	if offset < 0 {
		offset += n
		if offset < 0 {
			offset = 0
		}
	}
	if offset > n {
		return []T{}
	}
	if remaining := uint(n) - uint(offset); length > remaining {
		length = remaining
	}
	return items[offset : offset+int(length)]
}
""",
        "slice.go: the clamp's remaining length named in the if, locals renamed",
    ),
    Case(
        "lo",
        "Replace",
        r"""
func ReplaceN[T comparable](items []T, old T, replacement T, n int) []T {
	out := make([]T, len(items))
	copy(out, items)
	for i := range out {
		if n == 0 {
			break
		}
		if out[i] == old {
			out[i] = replacement
			n--
		}
	}
	return out
}
""",
        "slice.go: the n test as a break before the match test",
    ),
    Case(
        "lo",
        "FindDuplicates",
        r"""
func Repeated[T comparable](items []T) []T {
	counts := make(map[T]int, len(items))
	for _, item := range items {
		counts[item]++
	}
	out := make([]T, 0)
	for _, item := range items {
		if counts[item] > 1 {
			out = append(out, item)
			counts[item] = 0
		}
	}
	return out
}
""",
        "find.go: the seen/duplicated bool map as counts, the second pass resetting the count",
    ),
    Case(
        "lo",
        "Min",
        r"""
func Smallest[T constraints.Ordered](items []T) T {
	var best T
	for i, item := range items {
		if i == 0 || item < best {
			best = item
		}
	}
	return best
}
""",
        "find.go: the empty check and first-item seed folded into the loop (i == 0)",
    ),
    Case(
        "lo",
        "Nth",
        r"""
func At[T any](items []T, nth int) (T, error) {
	size := len(items)
	idx := nth
	if idx < 0 {
		idx += size
	}
	if idx < 0 || idx >= size {
		var zero T
		return zero, fmt.Errorf("nth: %d out of slice bounds", nth)
	}
	return items[idx], nil
}
""",
        "find.go: the negative index normalised first, one bounds test, the error path first",
    ),
    Case(
        "lo",
        "Every",
        r"""
func ContainsAll[T comparable](collection []T, subset []T) bool {
	for _, want := range subset {
		found := false
		for _, have := range collection {
			if have == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
""",
        "intersect.go: Contains inlined as an inner loop with a found flag",
    ),
    Case(
        "lo",
        "Intersect",
        r"""
func Common[T comparable](a []T, b []T) []T {
	inA := make(map[T]bool, len(a))
	for _, x := range a {
		inA[x] = true
	}
	out := []T{}
	for _, y := range b {
		if inA[y] {
			out = append(out, y)
		}
	}
	return out
}
""",
        "intersect.go: the struct{} set as a bool map, range over values",
    ),
    Case(
        "lo",
        "Union",
        r"""
func Merge[T comparable](lists ...[]T) []T {
	seen := map[T]struct{}{}
	out := make([]T, 0)
	for _, list := range lists {
		for _, item := range list {
			if _, dup := seen[item]; dup {
				continue
			}
			seen[item] = struct{}{}
			out = append(out, item)
		}
	}
	return out
}
""",
        "intersect.go: the capacity pass dropped, the membership test inverted into a continue",
    ),
    Case(
        "lo",
        "ChunkString",
        r"""
func SplitEvery(str string, size int) []string {
	if size <= 0 {
		panic("lo.ChunkString: Size parameter must be greater than 0")
	}
	if str == "" {
		return []string{""}
	}
	if len(str) <= size {
		return []string{str}
	}
	parts := make([]string, 0, (len(str)-1)/size+1)
	start, count := 0, 0
	for i := range str {
		if count == size {
			parts = append(parts, str[start:i])
			start, count = i, 0
		}
		count++
	}
	return append(parts, str[start:])
}
""",
        "string.go: the size test as <=, the two counters reset in one assignment, the last "
        "append returned",
    ),
    Case(
        "godotenv",
        "Read",
        r"""
func ReadAll(filenames ...string) (map[string]string, error) {
	if len(filenames) == 0 {
		filenames = []string{".env"}
	}
	merged := make(map[string]string)
	for _, name := range filenames {
		values, err := readFile(name)
		if err != nil {
			return merged, err
		}
		for k, v := range values {
			merged[k] = v
		}
	}
	return merged, nil
}
""",
        "godotenv.go: filenamesOrDefault inlined, named results as explicit returns",
    ),
    Case(
        "godotenv",
        "Write",
        r"""
func SaveEnv(envMap map[string]string, filename string) error {
	content, err := Marshal(envMap)
	if err == nil {
		var file *os.File
		if file, err = os.Create(filename); err == nil {
			defer file.Close()
			if _, err = file.WriteString(content + "\n"); err == nil {
				err = file.Sync()
			}
		}
	}
	return err
}
""",
        "godotenv.go: the `if err != nil` early returns as nested `if err == nil` blocks",
    ),
    Case(
        "godotenv",
        "Marshal",
        r"""
func Serialize(envMap map[string]string) (string, error) {
	lines := make([]string, 0, len(envMap))
	for key, value := range envMap {
		line := fmt.Sprintf(`%s="%s"`, key, doubleQuoteEscape(value))
		if n, err := strconv.Atoi(value); err == nil {
			line = fmt.Sprintf(`%s=%d`, key, n)
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), nil
}
""",
        "godotenv.go: the if/else as a default line overwritten when the value is a number",
    ),
    Case(
        "godotenv",
        "loadFile",
        r"""
func applyFile(filename string, overload bool) error {
	values, err := readFile(filename)
	if err != nil {
		return err
	}
	present := make(map[string]bool)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		present[name] = true
	}
	for key, value := range values {
		if overload || !present[key] {
			_ = os.Setenv(key, value)
		}
	}
	return nil
}
""",
        "godotenv.go: Split(...)[0] as strings.Cut, the || operands swapped",
    ),
    Case(
        "godotenv",
        "doubleQuoteEscape",
        r"""
func escapeForDoubleQuotes(line string) string {
	for _, c := range doubleQuoteSpecialChars {
		var replacement string
		switch c {
		case '\n':
			replacement = `\n`
		case '\r':
			replacement = `\r`
		default:
			replacement = `\` + string(c)
		}
		line = strings.ReplaceAll(line, string(c), replacement)
	}
	return line
}
""",
        "godotenv.go: the two ifs as a switch with a default, Replace(-1) as ReplaceAll",
    ),
    Case(
        "godotenv",
        "parseBytes",
        r"""
func parseInto(src []byte, out map[string]string) error {
	rest := bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	for {
		rest = getStatementStart(rest)
		if rest == nil {
			return nil
		}
		key, after, err := locateKeyName(rest)
		if err != nil {
			return err
		}
		value, after, err := extractVarValue(after, out)
		if err != nil {
			return err
		}
		out[key] = value
		rest = after
	}
}
""",
        "parser.go: the break and final return nil as a return inside the loop, locals renamed",
    ),
    Case(
        "godotenv",
        "getStatementStart",
        r"""
func nextStatement(src []byte) []byte {
	for {
		pos := bytes.IndexFunc(src, func(r rune) bool { return !unicode.IsSpace(r) })
		if pos == -1 {
			return nil
		}
		src = src[pos:]
		if src[0] != charComment {
			return src
		}
		pos = bytes.IndexByte(src, '\n')
		if pos == -1 {
			return nil
		}
		src = src[pos:]
	}
}
""",
        "parser.go: the tail recursion as a loop, indexOfNonSpaceChar and isCharFunc inlined",
    ),
]

NEAR_MISSES = [
    Case(
        "lo",
        "",
        r"""
func DedupeKeepLast[T comparable](items []T) []T {
	out := make([]T, 0, len(items))
	seen := make(map[T]bool, len(items))
	for i := len(items) - 1; i >= 0; i-- {
		if !seen[items[i]] {
			seen[items[i]] = true
			out = append([]T{items[i]}, out...)
		}
	}
	return out
}
""",
        "like Uniq (slice.go): keeps the last of equal items, in the order of their last "
        "appearance",
    ),
    Case(
        "lo",
        "",
        r"""
func FullBatches[T any](items []T, size int) [][]T {
	if size <= 0 {
		return nil
	}
	batches := make([][]T, 0, len(items)/size)
	for start := 0; start+size <= len(items); start += size {
		end := start + size
		batches = append(batches, items[start:end:end])
	}
	return batches
}
""",
        "like Chunk (slice.go): drops a short last batch, no panic (an empty result) for a bad "
        "size",
    ),
    Case(
        "lo",
        "",
        r"""
func Runs[T any, K comparable](items []T, keyOf func(T) K) [][]T {
	groups := [][]T{}
	var last K
	for i, item := range items {
		k := keyOf(item)
		if i > 0 && k == last {
			groups[len(groups)-1] = append(groups[len(groups)-1], item)
			continue
		}
		last = k
		groups = append(groups, []T{item})
	}
	return groups
}
""",
        "like PartitionBy (slice.go): groups consecutive runs only, a key seen again starts a new "
        "group",
    ),
    Case(
        "lo",
        "",
        r"""
func SkipThrough[T any](items []T, keep func(T) bool) []T {
	start := len(items)
	for i, item := range items {
		if !keep(item) {
			start = i + 1
			break
		}
	}
	rest := make([]T, 0, len(items)-start)
	return append(rest, items[start:]...)
}
""",
        "like DropWhile (slice.go): also drops the first item that fails the test",
    ),
    Case(
        "lo",
        "",
        r"""
func NonZeroUnique[T comparable](items []T) []T {
	var zero T
	seen := map[T]bool{}
	kept := make([]T, 0, len(items))
	for _, item := range items {
		if item == zero || seen[item] {
			continue
		}
		seen[item] = true
		kept = append(kept, item)
	}
	return kept
}
""",
        "like Compact (slice.go): also removes repeated items",
    ),
    Case(
        "lo",
        "",
        r"""
func StrictlyIncreasing[T constraints.Ordered](items []T) bool {
	for i := range items {
		if i == 0 {
			continue
		}
		if items[i] <= items[i-1] {
			return false
		}
	}
	return true
}
""",
        "like IsSorted (slice.go): strictly increasing, equal neighbours fail",
    ),
    Case(
        "lo",
        "",
        r"""
func CircularWindow[T any](items []T, offset int, length uint) []T {
	n := len(items)
	if n == 0 {
		return []T{}
	}
	out := make([]T, 0, length)
	for i := 0; i < int(length); i++ {
		idx := ((offset+i)%n + n) % n
		out = append(out, items[idx])
	}
	return out
}
""",
        "like Subset (slice.go): wraps around the end instead of stopping there",
    ),
    Case(
        "lo",
        "",
        r"""
func ReplaceLastN[T comparable](items []T, old T, replacement T, n int) []T {
	out := make([]T, len(items))
	copy(out, items)
	for i := len(out) - 1; i >= 0; i-- {
		if n == 0 {
			break
		}
		if out[i] == old {
			out[i] = replacement
			n--
		}
	}
	return out
}
""",
        "like Replace (slice.go): replaces the last n matches, from the end",
    ),
    Case(
        "lo",
        "",
        r"""
func ExtraCopies[T comparable](items []T) []T {
	seen := make(map[T]bool, len(items))
	out := make([]T, 0)
	for _, item := range items {
		if seen[item] {
			out = append(out, item)
			continue
		}
		seen[item] = true
	}
	return out
}
""",
        "like FindDuplicates (find.go): every repeated occurrence after the first, as often as it "
        "repeats",
    ),
    Case(
        "lo",
        "",
        r"""
func SmallestIndex[T constraints.Ordered](items []T) int {
	best := -1
	for i, item := range items {
		if best == -1 || item < items[best] {
			best = i
		}
	}
	return best
}
""",
        "like Min (find.go): the index of the smallest item, -1 for none",
    ),
    Case(
        "lo",
        "",
        r"""
func AtClamped[T any](items []T, nth int) (T, error) {
	size := len(items)
	if size == 0 {
		var zero T
		return zero, fmt.Errorf("nth: empty slice")
	}
	if nth < 0 {
		nth = 0
	}
	if nth >= size {
		nth = size - 1
	}
	return items[nth], nil
}
""",
        "like Nth (find.go): an out-of-range index is clamped to the ends, an error only for an "
        "empty slice",
    ),
    Case(
        "lo",
        "",
        r"""
func ContainsMultiset[T comparable](collection []T, subset []T) bool {
	available := make(map[T]int, len(collection))
	for _, have := range collection {
		available[have]++
	}
	for _, want := range subset {
		if available[want] == 0 {
			return false
		}
		available[want]--
	}
	return true
}
""",
        "like Every (intersect.go): counts multiplicity, each wanted copy needs its own item",
    ),
    Case(
        "lo",
        "",
        r"""
func OnlyInOne[T comparable](a []T, b []T) []T {
	inA := make(map[T]bool, len(a))
	inB := make(map[T]bool, len(b))
	for _, x := range a {
		inA[x] = true
	}
	for _, y := range b {
		inB[y] = true
	}
	out := []T{}
	for _, x := range a {
		if !inB[x] {
			out = append(out, x)
		}
	}
	for _, y := range b {
		if !inA[y] {
			out = append(out, y)
		}
	}
	return out
}
""",
        "like Intersect (intersect.go): items in exactly one of the two slices, in one result",
    ),
    Case(
        "lo",
        "",
        r"""
func MergeFold(lists ...[]string) []string {
	seen := map[string]struct{}{}
	out := make([]string, 0)
	for _, list := range lists {
		for _, item := range list {
			key := strings.ToLower(item)
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = struct{}{}
			out = append(out, item)
		}
	}
	return out
}
""",
        "like Union (intersect.go): strings compared case-insensitively, the first spelling kept",
    ),
    Case(
        "lo",
        "",
        r"""
func SplitBytes(str string, size int) []string {
	if size <= 0 {
		panic("size must be greater than 0")
	}
	parts := make([]string, 0, len(str)/size+1)
	for start := 0; start < len(str); start += size {
		end := start + size
		if end > len(str) {
			end = len(str)
		}
		parts = append(parts, str[start:end])
	}
	return parts
}
""",
        "like ChunkString (string.go): cuts every size bytes (splitting runes), nothing for an "
        "empty string",
    ),
    Case(
        "godotenv",
        "",
        r"""
func ReadFirstWins(filenames ...string) (map[string]string, error) {
	if len(filenames) == 0 {
		filenames = []string{".env"}
	}
	merged := make(map[string]string)
	for _, name := range filenames {
		values, err := readFile(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return merged, err
		}
		for k, v := range values {
			if _, ok := merged[k]; !ok {
				merged[k] = v
			}
		}
	}
	return merged, nil
}
""",
        "like Read (godotenv.go): the first file wins, a missing file is skipped instead of an "
        "error",
    ),
    Case(
        "godotenv",
        "",
        r"""
func AppendEnv(envMap map[string]string, filename string) error {
	content, err := Marshal(envMap)
	if err != nil {
		return err
	}
	file, err := os.OpenFile(filename, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0644)
	if err != nil {
		return err
	}
	defer file.Close()
	_, err = file.WriteString(content)
	return err
}
""",
        "like Write (godotenv.go): appends to the file, no trailing newline, no sync",
    ),
    Case(
        "godotenv",
        "",
        r"""
func SerializeExport(envMap map[string]string) (string, error) {
	lines := make([]string, 0, len(envMap))
	for key, value := range envMap {
		line := fmt.Sprintf(`export %s='%s'`, key, strings.ReplaceAll(value, `'`, `'\''`))
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n"), nil
}
""",
        "like Marshal (godotenv.go): single quotes, numbers quoted too, `export` prefix, map order",
    ),
    Case(
        "godotenv",
        "",
        r"""
func applyPrefixed(filename string, prefix string) ([]string, error) {
	values, err := readFile(filename)
	if err != nil {
		return nil, err
	}
	var set []string
	for key, value := range values {
		if !strings.HasPrefix(key, prefix) {
			continue
		}
		if _, exists := os.LookupEnv(key); exists {
			continue
		}
		_ = os.Setenv(key, value)
		set = append(set, key)
	}
	sort.Strings(set)
	return set, nil
}
""",
        "like loadFile (godotenv.go): sets only unset keys with a prefix and returns the keys it "
        "set",
    ),
    Case(
        "godotenv",
        "",
        r"""
func escapeForSingleQuotes(line string) string {
	var b strings.Builder
	for _, c := range line {
		switch c {
		case '\'':
			b.WriteString(`'\''`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}
""",
        "like doubleQuoteEscape (godotenv.go): escapes for single-quoted shell strings",
    ),
    Case(
        "godotenv",
        "",
        r"""
func parseLines(src []byte, out map[string]string) error {
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("line %d: no '='", i+1)
		}
		out[strings.TrimSpace(key)] = strings.TrimSpace(value)
	}
	return nil
}
""",
        "like parseBytes (parser.go): splits lines on the first '=', no quotes, no comments, no "
        "expansion",
    ),
    Case(
        "godotenv",
        "",
        r"""
func nextNonComment(src []byte) []byte {
	for {
		pos := bytes.IndexFunc(src, func(r rune) bool { return !unicode.IsSpace(r) })
		if pos == -1 {
			return nil
		}
		src = src[pos:]
		if !bytes.HasPrefix(src, []byte("//")) {
			return src
		}
		pos = bytes.IndexByte(src, '\n')
		if pos == -1 {
			return nil
		}
		src = src[pos:]
	}
}
""",
        "like getStatementStart (parser.go): skips `//` comments and keeps `#` lines as statements",
    ),
]

HELDOUT_GO = COPIES + NEAR_MISSES
