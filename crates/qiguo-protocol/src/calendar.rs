//! Days of the calendar (UTC) as the server counts holidays: a day is a number of days since
//! 1970-01-01, written `YYYY-MM-DD` (the proleptic Gregorian calendar, as ISO 8601).

/// Milliseconds in a day.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The day (UTC) of a moment, in ms since 1970.
pub fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// The first moment of `day`, in ms since 1970.
pub fn start_of(day: i64) -> i64 {
    day.saturating_mul(DAY_MS)
}

/// The day of a date `y`-`m`-`d` (checked by [`parse_date`]).
fn day_from_civil(y: i64, m: i64, d: i64) -> i64 {
    // Howard Hinnant's days_from_civil: years counted from March, in eras of 400 years.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date (year, month, day) of `day`.
pub fn civil(day: i64) -> (i64, u32, u32) {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `day` written `YYYY-MM-DD`.
pub fn date_text(day: i64) -> String {
    let (y, m, d) = civil(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The day written `YYYY-MM-DD` (years 1970 to 9999), or `None` for anything else.
pub fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.trim().split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let number = |s: &str| -> Option<i64> {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (y, m, d) = (number(y)?, number(m)?, number(d)?);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || d < 1 || d > days_in(y, m) {
        return None;
    }
    Some(day_from_civil(y, m, d))
}

fn days_in(y: i64, m: i64) -> i64 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The first and last day of calendar year `y`.
pub fn year_days(y: i64) -> (i64, i64) {
    (day_from_civil(y, 1, 1), day_from_civil(y, 12, 31))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_and_written_back() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2000-03-01"), Some(11_017));
        assert_eq!(date_text(11_017), "2000-03-01");
        assert_eq!(
            parse_date("2024-02-29").map(date_text).as_deref(),
            Some("2024-02-29")
        );
        // Every day of four centuries, both ways.
        let (first, _) = year_days(1970);
        let (_, last) = year_days(2370);
        let mut previous = first - 1;
        for day in first..=last {
            let text = date_text(day);
            assert_eq!(parse_date(&text), Some(day), "{text}");
            assert!(text > date_text(previous) || day == first);
            previous = day;
        }
    }

    #[test]
    fn what_is_not_a_date_is_refused() {
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-02-29",
            "2100-02-29",
            "2026-1-01",
            "2026-01-1",
            "26-01-01",
            "1969-12-31",
            "2026-01-01-",
            "+026-01-01",
            "2026-0a-01",
            "２０２６-01-01",
        ] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
        assert_eq!(parse_date(" 2026-12-24 "), Some(year_days(2026).1 - 7));
    }

    #[test]
    fn moments_fall_on_their_day() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(DAY_MS - 1), 0);
        assert_eq!(day_of(-1), -1);
        assert_eq!(start_of(day_of(1_800_000_000_000)), 1_799_971_200_000);
        assert_eq!(civil(day_of(1_800_000_000_000)), (2027, 1, 15));
    }
}
