//! The hand-off files of a revision: what each file is for (the bundle's own README) and a
//! link to download each, for the teams and tools that build and run the fabric.

use app::pages::document::{document, Page};
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

/// The page listing `files` (name, size in bytes) of revision `n` of design `id`, titled
/// `title`, with the bundle's `readme`.
pub fn handoff_page(
    id: &str,
    n: u32,
    title: &str,
    readme: &str,
    files: &[(String, usize)],
) -> Page {
    let base = format!("/d/{id}/r/{n}/handoff");
    let readme = readme.to_string();
    let items = files
        .iter()
        .map(|(name, bytes)| {
            let href = format!("{base}/{name}");
            let size = file_size(*bytes);
            view! { <li><a href=href download="">{name.clone()}</a> " " <span class="note">{size}</span></li> }
        })
        .collect_view();
    let heading = format!("Hand-off files of “{title}”, revision {n}");
    let body = view! {
        <section class="panel" aria-labelledby="handoff-heading">
            <h1 id="handoff-heading">{heading}</h1>
            <p>"The design in the formats the next tools read: cabling validation, the InfiniBand topology, Ethernet fabric automation, the source of truth, the scheduler and a drawing. Names and cable labels are those of the cabling sheet."</p>
            <p><a id="handoff-zip" href=format!("{base}.zip") download="">"Download every file as one zip"</a></p>
            <ul id="handoff-files">{items}</ul>
            <p><a href=format!("/d/{id}/r/{n}")>"Back to the design"</a></p>
            <h2>"What each file is for"</h2>
            <pre class="handoff-readme">{readme}</pre>
        </section>
    }
    .to_html();
    Page::ok(document(&format!("Hand-off: {title}"), body))
}

/// A file's size in the unit the engine writes bytes in ("86.1 MB"); below a kilobyte, the
/// whole bytes a file has ("53 B", not "53.0 B").
fn file_size(bytes: usize) -> String {
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    engine::Bytes::gigabytes(bytes as f64 / 1e9).to_string()
}

#[cfg(test)]
mod tests {
    use super::file_size;

    #[test]
    fn a_file_reads_in_the_unit_of_its_size() {
        assert_eq!(file_size(53), "53 B");
        assert_eq!(file_size(9_365), "9.37 kB");
        assert_eq!(file_size(1_378_685), "1.38 MB");
        assert_eq!(file_size(86_076_834), "86.1 MB");
    }
}
