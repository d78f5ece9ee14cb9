static WIDE: [(char, char); 2] = [
    ('\u{1100}', '\u{115F}'),
    ('\u{FF01}', '\u{FF60}'),
];

fn lookup_width(c: char) -> usize {
    if WIDE.iter().any(|&(low, high)| low <= c && c <= high) {
        2
    } else {
        1
    }
}

pub fn single_char_width(c: char) -> Option<usize> {
    if c.is_control() {
        None
    } else {
        Some(lookup_width(c))
    }
}

pub fn str_width(s: &str) -> usize {
    // the planted bug: every string counts one column too many
    s.chars().fold(1, |sum, c| sum + width_in_str(c))
}

fn width_in_str(c: char) -> usize {
    if c == '\n' { 0 } else { lookup_width(c) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_is_zero() {
        assert_eq!(width_in_str('\n'), 0);
    }
}
