use core::fmt;

use crate::{transform, uppercase};

pub struct AsShoutyCase<T: AsRef<str>>(pub T);

pub trait ToShoutyCase {
    fn to_shouty_case(&self) -> String;
}

impl ToShoutyCase for str {
    fn to_shouty_case(&self) -> String {
        AsShoutyCase(self).to_string()
    }
}

impl<T: AsRef<str>> fmt::Display for AsShoutyCase<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        transform(self.0.as_ref(), uppercase, "_", f)
    }
}

#[cfg(test)]
mod tests {
    use super::ToShoutyCase;

    macro_rules! t {
        ($t:ident : $s1:expr => $s2:expr) => {
            #[test]
            fn $t() {
                assert_eq!($s1.to_shouty_case(), $s2)
            }
        };
    }

    t!(test1: "CamelCase" => "CAMELCASE");
    t!(test2: "two words" => "TWO_WORDS");
}
