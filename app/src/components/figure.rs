use engine::Figure;
use leptos::prelude::*;
use std::fmt::Display;

/// One result: its meaning, its value with unit, and (on demand) the formula and source behind it.
#[component]
pub fn FigureRow<T>(
    /// What the figure means, in words.
    label: &'static str,
    figure: Figure<T>,
    /// A stable hook for tests and styling.
    #[prop(into)]
    id: String,
    /// How sure the figure is ("−6 % / +9 %"), beside its value.
    #[prop(default = None)]
    interval: Option<String>,
) -> AnyView
where
    T: Display + Send + Sync + 'static,
{
    let Figure {
        value,
        formula,
        source,
        worked,
    } = figure;
    view! {
        <tr>
            <th scope="row">{label}</th>
            <td class="figure">
                <span id=id>{value.to_string()}</span>
                {interval.map(|i| view! { " " <span class="interval">{format!("({i})")}</span> })}
            </td>
            <td class="work">
                <details>
                    // Twenty of these on a page: each is named for its figure.
                    <summary>"How"<span class="visually-hidden">{format!(": {label}")}</span></summary>
                    <p class="formula">{formula}</p>
                    {worked.map(|w| view! { <p class="worked">{w.to_string()}</p> })}
                    <p class="source">"Source: " {source}</p>
                </details>
            </td>
        </tr>
    }
    .into_any()
}
