//! Columns a char or a string takes.
//!
//! ```
//! use width::WidthStr;
//! assert_eq!("ab".width(), 2);
//! ```

mod tables;

pub trait WidthChar {
    fn width(self) -> Option<usize>;
}

pub trait WidthStr {
    fn width(&self) -> usize;
}

impl WidthChar for char {
    fn width(self) -> Option<usize> {
        tables::single_char_width(self)
    }
}

impl WidthStr for str {
    fn width(&self) -> usize {
        tables::str_width(self)
    }
}
