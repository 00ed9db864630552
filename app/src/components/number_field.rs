use leptos::prelude::*;

/// A labelled numeric input with its unit and, when the engine refuses the value, the reason
/// next to it.
#[component]
pub fn NumberField(
    /// The element id; also the hook browser tests use.
    id: &'static str,
    label: &'static str,
    /// Unit of the value, shown after the input ("Gb/s"); empty for plain counts.
    #[prop(default = "")]
    unit: &'static str,
    value: RwSignal<String>,
    /// The engine's message for this field, if any.
    #[prop(into)]
    error: Signal<Option<String>>,
) -> AnyView {
    let error_id = format!("{id}-error");
    let described_by = error_id.clone();
    view! {
        <div class="field" class:invalid=move || error.get().is_some()>
            <label for=id>{label}</label>
            <div class="input-with-unit">
                <input
                    id=id
                    name=id
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    prop:value=move || value.get()
                    on:input=move |ev| value.set(event_target_value(&ev))
                    aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                    aria-describedby=described_by
                />
                <span class="unit">{unit}</span>
            </div>
            <p class="field-error" id=error_id role="alert">{move || error.get()}</p>
        </div>
    }
    .into_any()
}
