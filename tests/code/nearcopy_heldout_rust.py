"""HELD-OUT Rust near-copy set (#34, #35), never tuned on; format in nearcopy_languages.py.

Project helpers: strsim 0.11.1 (src/lib.rs) and textwrap 0.16.1 (src/core.rs, src/indentation.rs,
src/word_separators.rs, src/wrap_algorithms.rs, src/fill.rs), from crates.io. Copies are rewritten as
agents do in Rust: iterator chains (`find`/`map`/`unwrap_or`, `flat_map`, `filter`/`collect`, `take_while`
/`count`) and `for`/`while let`/`loop` with `break`, `match` and `if`/`else if`, `min(min())` and
chained `.min`, early returns and `else`, private helpers inlined, reordered arms and operands, renamed
locals, a new name. Each copy was compiled into its crate and compared with the original on sample
inputs before this commit. Each `why` starts with the path of the original (or of the look-alike).
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "rust"
SUFFIX = ".rs"
PROJECTS = {
    "strsim": Project("rust", "cargo", "strsim@0.11.1", "", (".rs",)),
    "textwrap": Project("rust", "cargo", "textwrap@0.16.1", "", (".rs",)),
}

COPIES = [
    Case(
        "strsim",
        "generic_hamming",
        r"""
pub fn count_mismatches<Iter1, Iter2, Elem1, Elem2>(a: Iter1, b: Iter2) -> HammingResult
where
    Iter1: IntoIterator<Item = Elem1>,
    Iter2: IntoIterator<Item = Elem2>,
    Elem1: PartialEq<Elem2>,
{
    let mut left = a.into_iter();
    let mut right = b.into_iter();
    let mut differing = 0;
    loop {
        let (x, y) = match (left.next(), right.next()) {
            (None, None) => break,
            (Some(x), Some(y)) => (x, y),
            _ => return Err(StrSimError::DifferentLengthArgs),
        };
        differing += usize::from(x != y);
    }
    Ok(differing)
}
""",
        "src/lib.rs: the match arms reordered, the pair bound first, the count as usize::from",
    ),
    Case(
        "strsim",
        "generic_jaro_winkler",
        r"""
pub fn winkler_boosted<'a, 'b, Iter1, Iter2, Elem1, Elem2>(a: &'a Iter1, b: &'b Iter2) -> f64
where
    &'a Iter1: IntoIterator<Item = Elem1>,
    &'b Iter2: IntoIterator<Item = Elem2>,
    Elem1: PartialEq<Elem2>,
{
    let sim = generic_jaro(a, b);
    if sim <= 0.7 {
        return sim;
    }
    let mut prefix = 0;
    for (x, y) in a.into_iter().take(4).zip(b) {
        if x != y {
            break;
        }
        prefix += 1;
    }
    sim + 0.1 * prefix as f64 * (1.0 - sim)
}
""",
        "src/lib.rs: the take_while/count chain as a loop with break, the else as an early return",
    ),
    Case(
        "strsim",
        "generic_levenshtein",
        r"""
pub fn edit_distance<'a, 'b, Iter1, Iter2, Elem1, Elem2>(a: &'a Iter1, b: &'b Iter2) -> usize
where
    &'a Iter1: IntoIterator<Item = Elem1>,
    &'b Iter2: IntoIterator<Item = Elem2>,
    Elem1: PartialEq<Elem2>,
{
    let b_len = b.into_iter().count();
    let mut row: Vec<usize> = Vec::with_capacity(b_len);
    for k in 1..=b_len {
        row.push(k);
    }
    let mut result = b_len;
    for (i, x) in a.into_iter().enumerate() {
        result = i + 1;
        let mut diag = i;
        for (j, y) in b.into_iter().enumerate() {
            let substitute = diag + if x != y { 1 } else { 0 };
            diag = row[j];
            result = (result + 1).min(substitute).min(diag + 1);
            row[j] = result;
        }
    }
    result
}
""",
        "src/lib.rs: the collected range as a push loop, min(min()) as chained .min, the cost as if/else",
    ),
    Case(
        "strsim",
        "normalized_levenshtein",
        r"""
pub fn levenshtein_similarity(a: &str, b: &str) -> f64 {
    let longest = std::cmp::max(a.chars().count(), b.chars().count());
    if longest == 0 {
        return 1.0;
    }
    let distance = levenshtein(a, b) as f64;
    1.0 - distance / longest as f64
}
""",
        "src/lib.rs: both-empty as a zero longest length, the terms named",
    ),
    Case(
        "strsim",
        "osa_distance",
        r"""
pub fn optimal_alignment_distance(a: &str, b: &str) -> usize {
    let n = b.chars().count();
    let mut two_back: Vec<usize> = (0..=n).collect();
    let mut one_back: Vec<usize> = (0..=n).collect();
    let mut current = vec![0usize; n + 1];
    let mut last_a = char::MAX;
    let mut last_b = char::MAX;
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.chars().enumerate() {
            let cost = if ca == cb { 0 } else { 1 };
            let mut best = (current[j] + 1).min(one_back[j + 1] + 1).min(one_back[j] + cost);
            let transposed = i > 0 && j > 0 && ca != cb && ca == last_b && cb == last_a;
            if transposed {
                best = best.min(two_back[j - 1] + 1);
            }
            current[j + 1] = best;
            last_b = cb;
        }
        std::mem::swap(&mut two_back, &mut one_back);
        std::mem::swap(&mut one_back, &mut current);
        last_a = ca;
    }
    one_back[n]
}
""",
        "src/lib.rs: the nested min calls as chained .min, the transposition test named, the ranges inclusive",
    ),
    Case(
        "strsim",
        "normalized_damerau_levenshtein",
        r"""
pub fn damerau_similarity(a: &str, b: &str) -> f64 {
    let (len_a, len_b) = (a.chars().count(), b.chars().count());
    if len_a == 0 && len_b == 0 {
        return 1.0;
    }
    let distance = damerau_levenshtein_impl(a.chars(), len_a, b.chars(), len_b) as f64;
    1.0 - distance / len_a.max(len_b) as f64
}
""",
        "src/lib.rs: the lengths counted first and the empty test on them, max as a method",
    ),
    Case(
        "strsim",
        "sorensen_dice",
        r"""
pub fn dice_coefficient(a: &str, b: &str) -> f64 {
    let mut left = String::new();
    for c in a.chars() {
        if !c.is_whitespace() {
            left.push(c);
        }
    }
    let right: String = b.chars().filter(|c| !c.is_whitespace()).collect();
    if left == right {
        return 1.0;
    }
    if left.len() < 2 || right.len() < 2 {
        return 0.0;
    }
    let mut counts: HashMap<(char, char), usize> = HashMap::new();
    for pair in left.chars().zip(left.chars().skip(1)) {
        *counts.entry(pair).or_default() += 1;
    }
    let mut shared = 0usize;
    for pair in right.chars().zip(right.chars().skip(1)) {
        if let Some(n) = counts.get_mut(&pair) {
            if *n > 0 {
                *n -= 1;
                shared += 1;
            }
        }
    }
    (2 * shared) as f64 / (left.len() + right.len() - 2) as f64
}
""",
        "src/lib.rs: one filter/collect as a push loop, bigrams() inlined as zip/skip, and_modify as get_mut",
    ),
    Case(
        "textwrap",
        "indent",
        r"""
pub fn prefix_lines(s: &str, prefix: &str) -> String {
    let blank_prefix = prefix.trim_end();
    let mut out = String::with_capacity(2 * s.len());
    let mut first = true;
    for line in s.split_terminator('\n') {
        if !first {
            out.push('\n');
        }
        first = false;
        out.push_str(if line.trim().is_empty() { blank_prefix } else { prefix });
        out.push_str(line);
    }
    if s.ends_with('\n') {
        out.push('\n');
    }
    out
}
""",
        "src/indentation.rs: enumerate as a first-line flag, the if/else as an expression",
    ),
    Case(
        "textwrap",
        "dedent",
        r"""
pub fn remove_common_indent(s: &str) -> String {
    let mut lines = s.lines();
    let mut prefix = "";
    for line in &mut lines {
        let end = line
            .char_indices()
            .find(|(_, ch)| !ch.is_whitespace())
            .map(|(idx, _)| idx)
            .unwrap_or(line.len());
        if end < line.len() {
            prefix = &line[..end];
            break;
        }
    }
    for line in &mut lines {
        let end = line
            .char_indices()
            .zip(prefix.chars())
            .find(|((_, a), b)| a != b)
            .map(|((idx, _), _)| idx)
            .unwrap_or(line.len());
        if end < line.len() && end < prefix.len() {
            prefix = &line[..end];
        }
    }
    let mut result = String::new();
    for line in s.lines() {
        if line.starts_with(prefix) && line.chars().any(|c| !c.is_whitespace()) {
            result.push_str(&line[prefix.len()..]);
        }
        result.push('\n');
    }
    if result.ends_with('\n') && !s.ends_with('\n') {
        result.pop();
    }
    result
}
""",
        "src/indentation.rs: both search loops as find/map/unwrap_or chains, split_at as slicing, truncate as pop",
    ),
    Case(
        "textwrap",
        "skip_ansi_escape_sequence",
        r"""
pub(crate) fn skip_escape<I: Iterator<Item = char>>(ch: char, chars: &mut I) -> bool {
    if ch != CSI.0 {
        return false;
    }
    match chars.next() {
        Some(']') => {
            let mut last = ']';
            for c in chars {
                if c == '\x07' || (last == CSI.0 && c == '\\') {
                    break;
                }
                last = c;
            }
        }
        Some(c) if c == CSI.1 => {
            while let Some(c) = chars.next() {
                if ANSI_FINAL_BYTE.contains(&c) {
                    break;
                }
            }
        }
        _ => {}
    }
    true
}
""",
        "src/core.rs: the if/else-if on the next char as a match, the for loop as while let",
    ),
    Case(
        "textwrap",
        "display_width",
        r"""
pub fn text_width(text: &str) -> usize {
    let mut chars = text.chars();
    let mut total = 0;
    loop {
        let Some(ch) = chars.next() else { break };
        if !skip_ansi_escape_sequence(ch, &mut chars) {
            total += ch_width(ch);
        }
    }
    total
}
""",
        "src/core.rs: while let as loop with let-else, the continue as a negated if",
    ),
    Case(
        "textwrap",
        "strip_ansi_escape_sequences",
        r"""
fn remove_ansi_codes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if !skip_ansi_escape_sequence(ch, &mut chars) {
            out.push(ch);
        }
    }
    out
}
""",
        "src/word_separators.rs: the continue as a negated if, locals renamed",
    ),
    Case(
        "textwrap",
        "break_words",
        r"""
pub fn split_long_words<'a, I>(words: I, line_width: usize) -> Vec<Word<'a>>
where
    I: IntoIterator<Item = Word<'a>>,
{
    words
        .into_iter()
        .flat_map(|word| {
            if word.width() <= line_width as f64 {
                vec![word]
            } else {
                word.break_apart(line_width).collect::<Vec<_>>()
            }
        })
        .collect()
}
""",
        "src/core.rs: the loop with extend/push as flat_map and collect, the test inverted",
    ),
    Case(
        "textwrap",
        "wrap_first_fit",
        r"""
pub fn first_fit_lines<'a, T: Fragment>(fragments: &'a [T], line_widths: &[f64]) -> Vec<&'a [T]> {
    let fallback = match line_widths.last() {
        Some(w) => *w,
        None => 0.0,
    };
    let mut lines: Vec<&'a [T]> = Vec::new();
    let mut line_start = 0;
    let mut used = 0.0;
    for idx in 0..fragments.len() {
        let fragment = &fragments[idx];
        let limit = if lines.len() < line_widths.len() { line_widths[lines.len()] } else { fallback };
        if idx > line_start && used + fragment.width() + fragment.penalty_width() > limit {
            lines.push(&fragments[line_start..idx]);
            line_start = idx;
            used = 0.0;
        }
        used += fragment.width() + fragment.whitespace_width();
    }
    lines.push(&fragments[line_start..]);
    lines
}
""",
        "src/wrap_algorithms.rs: get/copied/unwrap_or as an index test, enumerate as an index loop, && operands swapped",
    ),
    Case(
        "textwrap",
        "fill_inplace",
        r"""
pub fn rewrap_in_place(text: &mut String, width: usize) {
    let mut breaks = Vec::new();
    let mut offset = 0;
    for line in text.split('\n') {
        let words: Vec<_> = WordSeparator::AsciiSpace.find_words(line).collect();
        let wrapped = wrap_algorithms::wrap_first_fit(&words, &[width as f64]);
        let mut pos = offset;
        for line_words in wrapped.iter().take(wrapped.len() - 1) {
            let mut len = 0;
            for word in line_words.iter() {
                len += word.len() + word.whitespace.len();
            }
            pos += len;
            breaks.push(pos - 1);
        }
        offset += line.len() + 1;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for idx in breaks {
        bytes[idx] = b'\n';
    }
    *text = String::from_utf8(bytes).unwrap();
}
""",
        "src/fill.rs: the map/sum chain as a loop, the slice [..len - 1] as take, locals renamed",
    ),
]

NEAR_MISSES = [
    Case(
        "strsim",
        "",
        r"""
pub fn padded_mismatches<Iter1, Iter2, Elem1, Elem2>(a: Iter1, b: Iter2) -> usize
where
    Iter1: IntoIterator<Item = Elem1>,
    Iter2: IntoIterator<Item = Elem2>,
    Elem1: PartialEq<Elem2>,
{
    let mut left = a.into_iter();
    let mut right = b.into_iter();
    let mut differing = 0;
    loop {
        match (left.next(), right.next()) {
            (None, None) => break,
            (Some(x), Some(y)) => differing += usize::from(x != y),
            _ => differing += 1,
        }
    }
    differing
}
""",
        "like generic_hamming (src/lib.rs): no error for different lengths, the extra items count as mismatches",
    ),
    Case(
        "strsim",
        "",
        r"""
pub fn strong_prefix_boost<'a, 'b, Iter1, Iter2, Elem1, Elem2>(a: &'a Iter1, b: &'b Iter2) -> f64
where
    &'a Iter1: IntoIterator<Item = Elem1>,
    &'b Iter2: IntoIterator<Item = Elem2>,
    Elem1: PartialEq<Elem2>,
{
    let sim = generic_jaro(a, b);
    if sim <= 0.5 {
        return sim;
    }
    let mut prefix = 0;
    for (x, y) in a.into_iter().take(6).zip(b) {
        if x != y {
            break;
        }
        prefix += 1;
    }
    (sim + 0.2 * prefix as f64 * (1.0 - sim)).min(1.0)
}
""",
        "like generic_jaro_winkler (src/lib.rs): a prefix of up to 6, boosted from 0.5, scale 0.2",
    ),
    Case(
        "strsim",
        "",
        r"""
pub fn indel_distance<'a, 'b, Iter1, Iter2, Elem1, Elem2>(a: &'a Iter1, b: &'b Iter2) -> usize
where
    &'a Iter1: IntoIterator<Item = Elem1>,
    &'b Iter2: IntoIterator<Item = Elem2>,
    Elem1: PartialEq<Elem2>,
{
    let b_len = b.into_iter().count();
    let mut row: Vec<usize> = (1..=b_len).collect();
    let mut result = b_len;
    for (i, x) in a.into_iter().enumerate() {
        result = i + 1;
        let mut diag = i;
        for (j, y) in b.into_iter().enumerate() {
            let substitute = diag + if x != y { 2 } else { 0 };
            diag = row[j];
            result = (result + 1).min(substitute).min(diag + 1);
            row[j] = result;
        }
    }
    result
}
""",
        "like generic_levenshtein (src/lib.rs): a substitution costs 2 (insertions and deletions only)",
    ),
    Case(
        "strsim",
        "",
        r"""
pub fn levenshtein_ratio(a: &str, b: &str) -> f64 {
    let total = a.chars().count() + b.chars().count();
    if total == 0 {
        return 0.0;
    }
    let distance = levenshtein(a, b) as f64;
    1.0 - distance / total as f64
}
""",
        "like normalized_levenshtein (src/lib.rs): divides by the sum of the lengths, 0.0 for two empty strings",
    ),
    Case(
        "strsim",
        "",
        r"""
pub fn common_subsequence_len(a: &str, b: &str) -> usize {
    let n = b.chars().count();
    let mut previous = vec![0usize; n + 1];
    let mut current = vec![0usize; n + 1];
    for ca in a.chars() {
        for (j, cb) in b.chars().enumerate() {
            current[j + 1] = if ca == cb {
                previous[j] + 1
            } else {
                current[j].max(previous[j + 1])
            };
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[n]
}
""",
        "like osa_distance (src/lib.rs): the length of the longest common subsequence, not a distance",
    ),
    Case(
        "strsim",
        "",
        r"""
pub fn damerau_score_short(a: &str, b: &str) -> f64 {
    let (len_a, len_b) = (a.chars().count(), b.chars().count());
    if len_a == 0 || len_b == 0 {
        return 0.0;
    }
    let distance = damerau_levenshtein_impl(a.chars(), len_a, b.chars(), len_b) as f64;
    (1.0 - distance / len_a.min(len_b) as f64).max(0.0)
}
""",
        "like normalized_damerau_levenshtein (src/lib.rs): normalised by the shorter length and clamped at 0",
    ),
    Case(
        "strsim",
        "",
        r"""
pub fn bigram_jaccard(a: &str, b: &str) -> f64 {
    let left: std::collections::HashSet<(char, char)> = a.chars().zip(a.chars().skip(1)).collect();
    let right: std::collections::HashSet<(char, char)> = b.chars().zip(b.chars().skip(1)).collect();
    if left.is_empty() && right.is_empty() {
        return 1.0;
    }
    let shared = left.intersection(&right).count();
    let union = left.union(&right).count();
    shared as f64 / union as f64
}
""",
        "like sorensen_dice (src/lib.rs): Jaccard on the sets of bigrams, whitespace kept",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn prefix_every_line(s: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(2 * s.len());
    let mut first = true;
    for line in s.lines() {
        if !first {
            out.push('\n');
        }
        first = false;
        out.push_str(prefix);
        out.push_str(line);
    }
    out
}
""",
        "like indent (src/indentation.rs): blank lines get the whole prefix, the trailing newline is dropped",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn strip_each_indent(s: &str) -> String {
    let mut result = String::new();
    for line in s.lines() {
        let end = line
            .char_indices()
            .find(|(_, ch)| !ch.is_whitespace())
            .map(|(idx, _)| idx)
            .unwrap_or(line.len());
        result.push_str(&line[end..]);
        result.push('\n');
    }
    if result.ends_with('\n') && !s.ends_with('\n') {
        result.pop();
    }
    result
}
""",
        "like dedent (src/indentation.rs): strips each line's own leading whitespace, not the common prefix",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub(crate) fn starts_csi<I: Iterator<Item = char>>(ch: char, chars: &mut I) -> bool {
    if ch != CSI.0 {
        return false;
    }
    match chars.next() {
        Some(c) if c == CSI.1 => {
            for c in chars {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            true
        }
        _ => false,
    }
}
""",
        "like skip_ansi_escape_sequence (src/core.rs): CSI sequences only, and only says whether one started",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn char_count_width(text: &str) -> usize {
    let mut chars = text.chars();
    let mut total = 0;
    loop {
        let Some(ch) = chars.next() else { break };
        if !ch.is_control() {
            total += 1;
        }
    }
    total
}
""",
        "like display_width (src/core.rs): counts chars, escape sequences and wide chars included",
    ),
    Case(
        "textwrap",
        "",
        r"""
fn remove_control_chars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if !ch.is_control() {
            out.push(ch);
        }
    }
    out
}
""",
        "like strip_ansi_escape_sequences (src/word_separators.rs): drops every control char, keeps the sequences' bodies",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn drop_long_words<'a, I>(words: I, line_width: usize) -> Vec<Word<'a>>
where
    I: IntoIterator<Item = Word<'a>>,
{
    words
        .into_iter()
        .filter(|word| word.width() <= line_width as f64)
        .collect()
}
""",
        "like break_words (src/core.rs): drops the words that are too long instead of breaking them",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn fixed_count_lines<'a, T: Fragment>(fragments: &'a [T], per_line: usize) -> Vec<&'a [T]> {
    let mut lines: Vec<&'a [T]> = Vec::new();
    let mut line_start = 0;
    for idx in 0..fragments.len() {
        if idx - line_start == per_line.max(1) {
            lines.push(&fragments[line_start..idx]);
            line_start = idx;
        }
    }
    lines.push(&fragments[line_start..]);
    lines
}
""",
        "like wrap_first_fit (src/wrap_algorithms.rs): at most n fragments per line, widths ignored",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn unwrap_in_place(text: &mut String) {
    let mut bytes = std::mem::take(text).into_bytes();
    let mut previous = b' ';
    for byte in bytes.iter_mut() {
        if *byte == b'\n' && previous != b'\n' {
            *byte = b' ';
        }
        previous = *byte;
    }
    *text = String::from_utf8(bytes).unwrap();
}
""",
        "like fill_inplace (src/fill.rs): joins the lines (newlines to spaces) instead of breaking them",
    ),
]

HELDOUT_RUST = COPIES + NEAR_MISSES
