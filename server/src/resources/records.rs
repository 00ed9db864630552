//! The fields of every record kept with a revision after installation (nccl-tests baselines,
//! as-built checks): a label, and the day its output was taken.

use app::pages::baselines::day;

/// Longest label kept, in characters.
pub(crate) const MAX_LABEL_CHARS: usize = 200;

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
