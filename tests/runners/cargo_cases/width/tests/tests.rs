use width::{WidthChar, WidthStr};

macro_rules! assert_width {
    ($s:expr, $expected:expr $(,)?) => {{
        assert_eq!($s.width(), $expected, "{:?} has the wrong width", $s);
    }};
}

#[test]
fn test_str() {
    assert_width!("hello", 5);
}

#[test]
fn test_wide() {
    assert_width!("\u{FF01}\u{FF02}", 4);
}

#[test]
fn test_empty() {
    assert_width!("", 0);
}

#[test]
fn test_char() {
    assert_width!('h', Some(1));
    assert_width!('\u{FF01}', Some(2));
}

#[test]
fn test_control() {
    assert_width!('\x01', None);
}

#[test]
fn chars_in_a_loop() {
    for c in ['a', 'b'] {
        assert_width!(c, Some(1));
    }
}
