use core::fmt;

use crate::{lowercase, transform};

/// ```
/// use case::AsKebabCase;
/// assert_eq!(format!("{}", AsKebabCase("a b")), "a-b");
/// ```
pub struct AsKebabCase<T: AsRef<str>>(pub T);

pub trait ToKebabCase {
    fn to_kebab_case(&self) -> String;
}

impl ToKebabCase for str {
    fn to_kebab_case(&self) -> String {
        AsKebabCase(self).to_string()
    }
}

impl<T: AsRef<str>> fmt::Display for AsKebabCase<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        transform(self.0.as_ref(), lowercase, "-", f)
    }
}

#[cfg(test)]
mod tests {
    use super::ToKebabCase;

    macro_rules! t {
        ($t:ident : $s1:expr => $s2:expr) => {
            #[test]
            fn $t() {
                assert_eq!($s1.to_kebab_case(), $s2)
            }
        };
    }

    t!(test1: "CamelCase" => "camelcase");
    t!(test2: "two words" => "two-words");
}
