//! The frame of the pages rendered on the server as finished documents (saved designs, my
//! designs, compare, import): the app's stylesheet and header, and no scripts at all.

use crate::components::{NotFoundMessage, SiteHeader};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// A rendered page and its HTTP status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub status: u16,
    pub html: String,
}

impl Page {
    pub fn ok(html: String) -> Page {
        Page { status: 200, html }
    }
}

/// The page around `body` (already escaped HTML, as every view renders it).
pub fn document(title: &str, body: String) -> String {
    let head = view! {
        <head>
            <meta charset="utf-8"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <link rel="stylesheet" href="/pkg/fabric-planner.css"/>
            <title>{format!("{title} · Fabric Planner")}</title>
        </head>
    }
    .to_html();
    let header = view! { <SiteHeader/> }.to_html();
    format!(
        "<!DOCTYPE html><html lang=\"en\">{head}<body>{header}<main id=\"content\" tabindex=\"-1\">{body}</main></body></html>"
    )
}

pub fn not_found() -> Page {
    Page {
        status: 404,
        html: document("Not found", view! { <NotFoundMessage/> }.to_html()),
    }
}

/// A page that says what went wrong and what to do, with `status`.
pub fn message(status: u16, title: &str, text: String) -> Page {
    let heading = title.to_string();
    Page {
        status,
        html: document(
            title,
            view! {
                <section class="panel message">
                    <h1>{heading}</h1>
                    <p>{text}</p>
                    <p><a href="/">"Start a new design"</a> " · " <a href="/designs">"My designs"</a></p>
                </section>
            }
            .to_html(),
        ),
    }
}

/// When the store failed: nothing was changed, try again.
pub fn unavailable() -> Page {
    message(
        500,
        "The designs could not be read",
        "The server could not read its store. Nothing was changed; try again in a moment.".into(),
    )
}

/// `text` as HTML text, for the places where the renderer leaves text as it is (the content of
/// a `<textarea>`, which it treats as raw text): the same escaping the engine's drawings use.
pub fn escape(text: &str) -> String {
    engine::floor::svg::escape(text)
}

/// Milliseconds since the Unix epoch as a UTC date and time: `2026-12-03 05:25 UTC`.
pub fn date(ms: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000) {
        Ok(t) => format!(
            "{}-{:02}-{:02} {:02}:{:02} UTC",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute()
        ),
        Err(_) => "—".into(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(
            super::escape("</textarea><b a='1'>&"),
            "&lt;/textarea&gt;&lt;b a=&#39;1&#39;&gt;&amp;"
        );
    }

    #[test]
    fn dates_are_utc_to_the_minute() {
        assert_eq!(super::date(0), "1970-01-01 00:00 UTC");
        // 2026-12-03T05:25:55Z
        assert_eq!(super::date(1_796_275_555_000), "2026-12-03 05:25 UTC");
    }
}
