//! The fields of every record kept with a revision after installation (nccl-tests baselines,
//! as-built checks): a label, and the day its output was taken.

/// Longest label kept, in characters.
pub(crate) const MAX_LABEL_CHARS: usize = 200;

/// The page that refuses a record of kind `kind` ("baselines", "as-built checks") to a design
/// that keeps as many as one design may.
pub(crate) fn full(kind: &str) -> crate::resources::respond::PageError {
    crate::resources::respond::PageError::Page(app::pages::document::message(
        409,
        "The design keeps as many as it may",
        format!(
            "A design keeps at most {} {kind}; nothing was stored. Duplicate the design to go on.",
            engine::thousands(f64::from(app::store::MAX_RECORDS))
        ),
    ))
}

/// Today, `YYYY-MM-DD` (UTC): what a new record's day starts as.
pub(crate) fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    app::pages::document::date(ms).chars().take(10).collect()
}

/// Adds to `errors` what is wrong with a record's `label` (which a check must have) and its
/// day, typed in the field labelled `day_field`; a good day is rewritten as `YYYY-MM-DD`.
pub(crate) fn check_label_and_day(
    label: &str,
    required: bool,
    taken_on: &mut String,
    day_field: &str,
    errors: &mut Vec<String>,
) {
    if required && label.is_empty() {
        errors.push("label: name it, e.g. “after recabling rail 3”".into());
    } else if label.chars().count() > MAX_LABEL_CHARS {
        errors.push(format!(
            "label: is longer than {MAX_LABEL_CHARS} characters"
        ));
    }
    match day(taken_on) {
        Some(date) => *taken_on = date,
        None => errors.push(format!(
            "{day_field}: {taken_on:?} is not a date (YYYY-MM-DD)"
        )),
    }
}

/// `text` as a calendar day `YYYY-MM-DD`, or `None` when it is not one.
pub(crate) fn day(text: &str) -> Option<String> {
    let mut parts = text.trim().splitn(3, '-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    if year.len() != 4 || month.len() != 2 || day.len() != 2 {
        return None;
    }
    let year: i32 = year.parse().ok()?;
    let month = time::Month::try_from(month.parse::<u8>().ok()?).ok()?;
    let date = time::Date::from_calendar_date(year, month, day.parse().ok()?).ok()?;
    Some(format!(
        "{:04}-{:02}-{:02}",
        date.year(),
        u8::from(date.month()),
        date.day()
    ))
}

#[cfg(test)]
mod tests {
    use super::day;

    #[test]
    fn a_day_is_a_real_calendar_date_written_yyyy_mm_dd() {
        assert_eq!(day("2026-12-03").as_deref(), Some("2026-12-03"));
        assert_eq!(day(" 2028-02-29 ").as_deref(), Some("2028-02-29"));
        for wrong in [
            "2026-02-30",
            "2026-13-01",
            "26-12-03",
            "2026-1-3",
            "today",
            "",
            "2026-12-03-1",
        ] {
            assert_eq!(day(wrong), None, "{wrong}");
        }
    }
}
