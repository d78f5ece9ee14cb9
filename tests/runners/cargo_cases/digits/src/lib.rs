fn two_digits(b1: u8, b2: u8) -> u64 {
    // the planted bug: the second digit is read against '1' (a '0' underflows)
    ((b1 - b'0') * 10 + (b2 - b'1')) as u64
}

pub fn parse_time(s: &str) -> u64 {
    let b = s.as_bytes();
    two_digits(b[0], b[1]) * 60 + two_digits(b[3], b[4])
}

pub fn format_time(minutes: u64) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn midnight() {
        assert_eq!(parse_time("00:00"), 0);
    }

    #[test]
    fn ten_past_ten() {
        assert_eq!(parse_time("10:10"), 610);
    }

    #[test]
    fn quarter_past_one() {
        assert_eq!(parse_time("01:15"), 75);
    }

    #[test]
    fn twenty_past_three() {
        assert_eq!(parse_time("03:22"), 202);
    }

    #[test]
    fn formats() {
        assert_eq!(format_time(75), "01:15");
    }
}
