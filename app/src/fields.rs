//! Labelled form controls bound to the design being edited. Each shows the engine's message
//! for its field next to it; text that is not a value is reported, never silently corrected.

use crate::editor::{field_id, Editor};
use leptos::prelude::*;

/// What a numeric input accepts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Any number.
    Number,
    /// A whole number of at least 1.
    Count,
    /// A whole number of at least 0.
    CountOrZero,
}

/// Shows a number without a needless ".0" and without float noise.
pub fn show(value: f64) -> String {
    if !value.is_finite() {
        return String::new();
    }
    let rounded = (value * 1e6).round() / 1e6;
    let text = format!("{rounded}");
    text.strip_suffix(".0").map(str::to_string).unwrap_or(text)
}

/// Parses what was typed, with the reason when it is not a value. `Ok(None)` for empty text
/// when the field is optional.
pub(crate) fn parse(text: &str, kind: Kind, optional: bool) -> Result<Option<f64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return if optional {
            Ok(None)
        } else {
            Err("must not be empty".into())
        };
    }
    let value: f64 = text.parse().map_err(|_| "must be a number".to_string())?;
    if !value.is_finite() {
        return Err("must be a number".into());
    }
    // The same words as the engine's for a value out of range, so that -4 and 0 in a field
    // that needs at least 1 say the same thing.
    let least = match kind {
        Kind::Number => return Ok(Some(value)),
        Kind::Count => 1.0,
        Kind::CountOrZero => 0.0,
    };
    if value.fract() != 0.0 {
        return Err("must be a whole number".into());
    }
    if value < least {
        return Err(format!("must be at least {least}"));
    }
    Ok(Some(value))
}

fn field_frame(
    path: String,
    label: &'static str,
    unit: &'static str,
    help: String,
    control: AnyView,
) -> AnyView {
    let editor = Editor::get();
    let error = editor.error(path.clone());
    let id = field_id(&path);
    let error_id = format!("{id}-error");
    view! {
        <div class="field" class:invalid=move || error.get().is_some()>
            <label for=id.clone()>{label}</label>
            <div class="input-with-unit">
                {control}
                {(!unit.is_empty()).then(|| view! { <span class="unit">{unit}</span> })}
            </div>
            {(!help.is_empty()).then(|| view! { <p class="help">{help}</p> })}
            <p class="field-error" id=error_id role="alert">{move || error.get()}</p>
        </div>
    }
    .into_any()
}

/// A numeric input. `value` reads the field from the spec; `set` writes a parsed value back
/// (`None` only for an optional field left empty).
#[component]
pub fn NumInput(
    path: String,
    label: &'static str,
    #[prop(default = "")] unit: &'static str,
    #[prop(into, default = String::new())] help: String,
    #[prop(default = Kind::Number)] kind: Kind,
    #[prop(default = false)] optional: bool,
    #[prop(into)] value: Signal<Option<f64>>,
    set: Callback<Option<f64>>,
) -> AnyView {
    let editor = Editor::get();
    let text = RwSignal::new(value.get_untracked().map(show).unwrap_or_default());
    // Follow changes made elsewhere (a preset, the hybrid layout) unless the text already says it.
    Effect::new(move |_| {
        let current = value.get();
        let typed = text.with_untracked(|t| parse(t, kind, optional).ok().flatten());
        if typed != current {
            text.set(current.map(show).unwrap_or_default());
        }
    });
    let id = field_id(&path);
    let described_by = format!("{id}-error");
    let error = editor.error(path.clone());
    let path_for_input = path.clone();
    let control = view! {
        <input
            id=id.clone()
            name=id
            type="text"
            inputmode="decimal"
            autocomplete="off"
            // The attribute for the server-rendered page (complete without JavaScript), the
            // property for every later change.
            value=text.get_untracked()
            prop:value=move || text.get()
            aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
            aria-describedby=described_by
            on:input=move |ev| {
                let typed = event_target_value(&ev);
                text.set(typed.clone());
                match parse(&typed, kind, optional) {
                    Ok(v) => {
                        editor.set_unparsed(&path_for_input, None);
                        set.run(v);
                    }
                    Err(reason) => editor.set_unparsed(&path_for_input, Some(reason)),
                }
            }
        />
    }
    .into_any();
    field_frame(path, label, unit, help, control)
}

/// A free-text input (names, titles).
#[component]
pub fn TextInput(
    path: String,
    label: &'static str,
    #[prop(into)] value: Signal<String>,
    set: Callback<String>,
) -> AnyView {
    let id = field_id(&path);
    let control = view! {
        <input
            id=id.clone()
            name=id
            type="text"
            maxlength="200"
            autocomplete="off"
            value=value.get_untracked()
            prop:value=move || value.get()
            on:input=move |ev| set.run(event_target_value(&ev))
        />
    }
    .into_any();
    field_frame(path, label, "", String::new(), control)
}

/// A choice among `options` (value, label).
#[component]
pub fn SelectInput(
    path: String,
    label: &'static str,
    #[prop(into)] options: Signal<Vec<(String, String)>>,
    #[prop(into)] value: Signal<String>,
    set: Callback<String>,
    #[prop(into, default = String::new())] help: String,
) -> AnyView {
    let id = field_id(&path);
    let control = view! {
        <select id=id.clone() name=id on:change=move |ev| set.run(event_target_value(&ev))>
            {move || {
                let current = value.get();
                options
                    .get()
                    .into_iter()
                    .map(|(key, text)| {
                        let selected = key == current;
                        view! { <option value=key selected=selected>{text}</option> }
                    })
                    .collect_view()
            }}
        </select>
    }
    .into_any();
    field_frame(path, label, "", help, control)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_parse_and_text_is_refused_with_a_reason() {
        assert_eq!(parse(" 400 ", Kind::Number, false), Ok(Some(400.0)));
        assert_eq!(
            parse("fast", Kind::Number, false),
            Err("must be a number".into())
        );
        assert_eq!(
            parse("NaN", Kind::Number, false),
            Err("must be a number".into())
        );
        assert_eq!(
            parse("7.5", Kind::Count, false),
            Err("must be a whole number".into())
        );
        assert_eq!(
            parse("-4", Kind::Count, false),
            Err("must be at least 1".into())
        );
        assert_eq!(
            parse("-4", Kind::CountOrZero, false),
            Err("must be at least 0".into())
        );
        assert_eq!(parse("0", Kind::CountOrZero, false), Ok(Some(0.0)));
        assert_eq!(parse("", Kind::Count, true), Ok(None));
        assert_eq!(
            parse("", Kind::Count, false),
            Err("must not be empty".into())
        );
    }

    #[test]
    fn numbers_show_without_float_noise() {
        assert_eq!(show(70.0), "70");
        assert_eq!(show(0.1 + 0.2), "0.3");
        assert_eq!(show(1.33), "1.33");
    }
}
