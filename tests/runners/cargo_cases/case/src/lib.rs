mod kebab;
mod shouty;
mod snake;

pub use kebab::{AsKebabCase, ToKebabCase};
pub use shouty::ToShoutyCase;
pub use snake::{AsSnakeCase, ToSnakeCase};

use core::fmt;

fn transform<F>(s: &str, mut with_word: F, boundary: &str, f: &mut fmt::Formatter) -> fmt::Result
where
    F: FnMut(&str, &mut fmt::Formatter) -> fmt::Result,
{
    for (i, word) in s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).enumerate() {
        if i > 0 {
            f.write_str(boundary)?;
        }
        with_word(word, f)?;
    }
    Ok(())
}

fn lowercase(s: &str, f: &mut fmt::Formatter) -> fmt::Result {
    for c in s.chars() {
        // the planted bug: lowercase writes upper case
        write!(f, "{}", c.to_uppercase())?;
    }
    Ok(())
}

fn uppercase(s: &str, f: &mut fmt::Formatter) -> fmt::Result {
    for c in s.chars() {
        write!(f, "{}", c.to_uppercase())?;
    }
    Ok(())
}
