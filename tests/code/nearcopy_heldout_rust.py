"""HELD-OUT Rust near-copy set (#34, #35), never tuned on; format in nearcopy_languages.py.

Project helpers, from crates.io: textwrap 0.16.1 (src/core.rs, src/indentation.rs,
src/word_separators.rs, src/wrap_algorithms.rs, src/fill.rs, src/wrap.rs, src/refill.rs), unindent
0.2.3 (src/unindent.rs), pathdiff 0.2.1 (src/lib.rs) and natord 1.0.9 (lib.rs, at the crate's root).
Copies are rewritten as agents do in Rust: iterator chains (`find`/`map`/`unwrap_or`, `position`,
`flat_map`, `filter_map`/`min`, `repeat`/`take`, `for_each`) and `for`/`while let`/`loop` with
`break`, `match` and `if`/`else if`, `Option` combinators and early returns, private helpers
inlined, reordered arms and operands, renamed locals, a new name. Each copy was compiled into its
crate and compared with the original on sample inputs before this commit. Each `why` starts with the
path of the original (or of the look-alike).
"""

from __future__ import annotations

from nearcopies import Case
from realprojects import Project

LANGUAGE = "rust"
SUFFIX = ".rs"
PROJECTS = {
    "textwrap": Project("rust", "cargo", "textwrap@0.16.1", "", (".rs",)),
    "unindent": Project("rust", "cargo", "unindent@0.2.3", "", (".rs",)),
    "pathdiff": Project("rust", "cargo", "pathdiff@0.2.1", "", (".rs",)),
    "natord": Project("rust", "cargo", "natord@1.0.9", "", (".rs",)),
}

COPIES = [
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
        "src/indentation.rs: both search loops as find/map/unwrap_or chains, split_at as slicing, "
        "truncate as pop",
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
        "src/wrap_algorithms.rs: get/copied/unwrap_or as an index test, enumerate as an index "
        "loop, && operands swapped",
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
    Case(
        "textwrap",
        "wrap",
        r"""
pub fn wrap_lines<'a, Opt>(text: &str, width_or_options: Opt) -> Vec<Cow<'_, str>>
where
    Opt: Into<Options<'a>>,
{
    let options: Options = width_or_options.into();
    let mut lines = Vec::new();
    text.split(options.line_ending.as_str())
        .for_each(|line| wrap_single_line(line, &options, &mut lines));
    lines
}
""",
        "src/wrap.rs: the for loop as for_each, the line ending read inline",
    ),
    Case(
        "textwrap",
        "wrap_single_line",
        r"""
pub(crate) fn wrap_one_line<'a>(line: &'a str, options: &Options<'_>, lines: &mut Vec<Cow<'a, str>>) {
    let indent = match lines.is_empty() {
        true => options.initial_indent,
        false => options.subsequent_indent,
    };
    if !indent.is_empty() || line.len() >= options.width {
        wrap_single_line_slow_path(line, options, lines);
        return;
    }
    lines.push(Cow::from(line.trim_end_matches(' ')));
}
""",
        "src/wrap.rs: the fast-path test negated with the slow path first and an early return, "
        "if/else as a match",
    ),
    Case(
        "textwrap",
        "refill",
        r"""
pub fn rewrap<'a, Opt>(filled_text: &str, new_width_or_options: Opt) -> String
where
    Opt: Into<Options<'a>>,
{
    let (text, detected) = unfill(filled_text);
    let mut options: Options = new_width_or_options.into();
    let ending = options.line_ending.as_str();
    options.initial_indent = detected.initial_indent;
    options.subsequent_indent = detected.subsequent_indent;
    match text.strip_suffix(detected.line_ending.as_str()) {
        Some(body) => {
            let mut out = fill(body, options);
            out.push_str(ending);
            out
        }
        None => fill(&text, options),
    }
}
""",
        "src/refill.rs: the Option from strip_suffix as a match with the fill in each arm",
    ),
    Case(
        "unindent",
        "do_unindent_bytes",
        r"""
fn unindent_lines(s: &[u8], preserve_empty_first_line: bool) -> Vec<u8> {
    let skip_first_newline =
        !preserve_empty_first_line && (s.starts_with(b"\r\n") || s.starts_with(b"\n"));
    let mut spaces: Option<usize> = None;
    for line in s.lines().skip(1) {
        if let Some(n) = count_spaces(line) {
            spaces = Some(spaces.map_or(n, |m| m.min(n)));
        }
    }
    let spaces = spaces.unwrap_or(0);
    let mut out = Vec::with_capacity(s.len());
    for (i, line) in s.lines().enumerate() {
        if i == 0 {
            out.extend_from_slice(line);
            continue;
        }
        if i > 1 || !skip_first_newline {
            out.push(b'\n');
        }
        if line.len() > spaces {
            out.extend_from_slice(&line[spaces..]);
        }
    }
    out
}
""",
        "src/unindent.rs: the filter_map/min chain as a loop with an Option, the first line as a "
        "continue",
    ),
    Case(
        "unindent",
        "count_spaces",
        r"""
fn leading_blanks(line: &[u8]) -> Option<usize> {
    line.iter().position(|&ch| ch != b' ' && ch != b'\t')
}
""",
        "src/unindent.rs: the loop that returns as iter().position",
    ),
    Case(
        "pathdiff",
        "diff_paths",
        r"""
pub fn relative_to<P, B>(path: P, base: B) -> Option<PathBuf>
where
    P: AsRef<Path>,
    B: AsRef<Path>,
{
    let (path, base) = (path.as_ref(), base.as_ref());
    if path.is_absolute() && !base.is_absolute() {
        return Some(PathBuf::from(path));
    }
    if !path.is_absolute() && base.is_absolute() {
        return None;
    }
    let mut ita = path.components();
    let mut itb = base.components();
    let mut comps: Vec<Component> = Vec::new();
    loop {
        match (ita.next(), itb.next()) {
            (None, None) => break,
            (Some(a), None) => {
                comps.push(a);
                comps.extend(ita.by_ref());
                break;
            }
            (None, _) => comps.push(Component::ParentDir),
            (Some(a), Some(b)) if comps.is_empty() && a == b => {}
            (Some(a), Some(b)) if b == Component::CurDir => comps.push(a),
            (Some(_), Some(b)) if b == Component::ParentDir => return None,
            (Some(a), Some(_)) => {
                comps.extend(std::iter::repeat(Component::ParentDir).take(1 + itb.count()));
                comps.push(a);
                comps.extend(ita.by_ref());
                break;
            }
        }
    }
    Some(comps.iter().map(|c| c.as_os_str()).collect())
}
""",
        "src/lib.rs: the nested if/else on absoluteness as two guards, the ParentDir loop as "
        "repeat().take()",
    ),
    Case(
        "natord",
        "compare_ignore_case",
        r"""
pub fn natural_cmp_ignore_case(left: &str, right: &str) -> Ordering {
    let to_digit = |c: &char| c.to_digit(10).map(|v| v as isize);
    compare_iter(
        left.chars().flat_map(char::to_lowercase),
        right.chars().flat_map(char::to_lowercase),
        |c: &char| c.is_whitespace(),
        |a: &char, b: &char| a.cmp(b),
        to_digit,
    )
}
""",
        "lib.rs: the lowercasing iterators passed inline, the digit closure named",
    ),
]

NEAR_MISSES = [
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
        "like indent (src/indentation.rs): blank lines get the whole prefix, the trailing newline "
        "is dropped",
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
        "like dedent (src/indentation.rs): strips each line's own leading whitespace, not the "
        "common prefix",
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
        "like skip_ansi_escape_sequence (src/core.rs): CSI sequences only, and only says whether "
        "one started",
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
        "like strip_ansi_escape_sequences (src/word_separators.rs): drops every control char, "
        "keeps the sequences' bodies",
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
        "like break_words (src/core.rs): drops the words that are too long instead of breaking "
        "them",
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
        "like wrap_first_fit (src/wrap_algorithms.rs): at most n fragments per line, widths "
        "ignored",
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
        "like fill_inplace (src/fill.rs): joins the lines (newlines to spaces) instead of "
        "breaking them",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn wrap_trimmed<'a, Opt>(text: &str, width_or_options: Opt) -> Vec<Cow<'_, str>>
where
    Opt: Into<Options<'a>>,
{
    let options: Options = width_or_options.into();
    let mut lines = Vec::new();
    text.split('\n')
        .for_each(|line| wrap_single_line(line.trim(), &options, &mut lines));
    lines
}
""",
        "like wrap (src/wrap.rs): always splits on '\\n' and trims every line, whatever the "
        "options' line ending",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub(crate) fn wrap_one_line_keep_spaces<'a>(line: &'a str, options: &Options<'_>, lines: &mut Vec<Cow<'a, str>>) {
    if line.len() >= options.width {
        wrap_single_line_slow_path(line, options, lines);
        return;
    }
    lines.push(Cow::from(line));
}
""",
        "like wrap_single_line (src/wrap.rs): the fast path ignores the indent and keeps trailing "
        "spaces",
    ),
    Case(
        "textwrap",
        "",
        r"""
pub fn refill_same_width(filled_text: &str) -> String {
    let (text, detected) = unfill(filled_text);
    let width = detected.width;
    let body = text.strip_suffix(detected.line_ending.as_str()).unwrap_or(&text);
    let options = Options::new(width)
        .initial_indent(detected.initial_indent)
        .subsequent_indent(detected.subsequent_indent);
    fill(body, options)
}
""",
        "like refill (src/refill.rs): refills at the width unfill detected, without the new "
        "options, line ending dropped",
    ),
    Case(
        "unindent",
        "",
        r"""
fn unindent_all_lines(s: &[u8]) -> Vec<u8> {
    let mut spaces: Option<usize> = None;
    for line in s.split(|b| *b == b'\n') {
        if let Some(n) = line.iter().position(|&ch| ch != b' ') {
            spaces = Some(spaces.map_or(n, |m| m.min(n)));
        }
    }
    let spaces = spaces.unwrap_or(0);
    let mut out = Vec::with_capacity(s.len());
    for (i, line) in s.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        if line.len() > spaces {
            out.extend_from_slice(&line[spaces..]);
        }
    }
    out
}
""",
        "like do_unindent_bytes (src/unindent.rs): counts only spaces, and the first line counts "
        "too",
    ),
    Case(
        "unindent",
        "",
        r"""
fn leading_spaces(line: &[u8]) -> Option<usize> {
    Some(line.iter().position(|&ch| ch != b' ').unwrap_or(line.len()))
}
""",
        "like count_spaces (src/unindent.rs): a blank line counts its length, tabs are not "
        "indentation",
    ),
    Case(
        "pathdiff",
        "",
        r"""
pub fn path_under<P, B>(path: P, base: B) -> Option<PathBuf>
where
    P: AsRef<Path>,
    B: AsRef<Path>,
{
    let (path, base) = (path.as_ref(), base.as_ref());
    if path.is_absolute() != base.is_absolute() {
        return None;
    }
    let mut ita = path.components();
    for b in base.components() {
        match ita.next() {
            Some(a) if a == b => {}
            _ => return None,
        }
    }
    Some(ita.map(|c| c.as_os_str()).collect())
}
""",
        "like diff_paths (src/lib.rs): only paths under the base, None instead of climbing with "
        "`..`",
    ),
    Case(
        "natord",
        "",
        r"""
pub fn lexical_cmp_ignore_case(left: &str, right: &str) -> Ordering {
    let a = left.chars().flat_map(char::to_lowercase).filter(|c| !c.is_whitespace());
    let b = right.chars().flat_map(char::to_lowercase).filter(|c| !c.is_whitespace());
    a.cmp(b)
}
""",
        "like compare_ignore_case (lib.rs): plain lexical order of the lowercased strings, digits "
        "compared as text",
    ),
]

HELDOUT_RUST = COPIES + NEAR_MISSES
