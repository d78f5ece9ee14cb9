use core::fmt;

use crate::{lowercase, transform};

/// ```
/// use case::AsSnakeCase;
/// assert_eq!(format!("{}", AsSnakeCase("a b")), "a_b");
/// ```
pub struct AsSnakeCase<T: AsRef<str>>(pub T);

pub trait ToSnakeCase {
    fn to_snake_case(&self) -> String;
}

impl ToSnakeCase for str {
    fn to_snake_case(&self) -> String {
        AsSnakeCase(self).to_string()
    }
}

impl<T: AsRef<str>> fmt::Display for AsSnakeCase<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        transform(self.0.as_ref(), lowercase, "_", f)
    }
}

#[cfg(test)]
mod tests {
    use super::ToSnakeCase;

    macro_rules! t {
        ($t:ident : $s1:expr => $s2:expr) => {
            #[test]
            fn $t() {
                assert_eq!($s1.to_snake_case(), $s2)
            }
        };
    }

    t!(test1: "CamelCase" => "camelcase");
    t!(test2: "two words" => "two_words");
    t!(test3: "under_score" => "under_score");
    t!(test4: "" => "");
}
