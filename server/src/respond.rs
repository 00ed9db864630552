//! What the HTML handlers answer with: a finished document with its policy, a file to save,
//! and [`PageError`], the one error of a page handler, which renders the right page with its
//! status. A handler returns [`Answer`] and uses `?` on the store and on lookups.

use app::pages::document::{not_found, unavailable, Page};
use app::store::StoreError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// A page without scripts: its stylesheet and nothing else.
pub(crate) const DOCUMENT_POLICY: &str =
    "default-src 'self'; script-src 'none'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A header that asks a proxy in front of the server not to hold a page sent as it is made
/// back (nginx reads it); the server's own compression leaves such a response alone too.
pub(crate) const UNBUFFERED: (&str, &str) = ("x-accel-buffering", "no");

/// Why a page handler answers with something else than its page.
#[derive(Debug)]
pub(crate) enum PageError {
    /// No such design, revision or record, or an address that names none.
    NotFound,
    /// The store failed: logged, and the reader told that nothing was changed.
    Store(StoreError),
    /// A page that says what is wrong, with its own status.
    Page(Page),
}

impl From<StoreError> for PageError {
    fn from(error: StoreError) -> Self {
        PageError::Store(error)
    }
}

impl PageError {
    /// The page that says so.
    pub(crate) fn page(self) -> Page {
        match self {
            PageError::NotFound => not_found(),
            PageError::Store(error) => {
                tracing::error!(%error, "the design store failed");
                unavailable()
            }
            PageError::Page(page) => page,
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        html(&self.page())
    }
}

/// What a page handler answers.
pub(crate) type Answer = Result<Response, PageError>;

/// A finished document.
pub(crate) fn html(page: &Page) -> Response {
    (
        StatusCode::from_u16(page.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        [
            (header::CONTENT_SECURITY_POLICY, DOCUMENT_POLICY),
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        ],
        page.html.clone(),
    )
        .into_response()
}

/// `body` as a file to save, named `file`.
pub(crate) fn attachment(content_type: &str, body: String, file: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// A file name from a title: letters and digits, the rest as dashes.
pub(crate) fn file_stem(title: &str) -> String {
    let stem: String = title
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let stem = stem
        .split('-')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if stem.is_empty() {
        "design".into()
    } else {
        stem.chars().take(60).collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(
            super::file_stem("70B training / 1,024 GPUs"),
            "70b-training-1-024-gpus"
        );
        assert_eq!(super::file_stem("<script>"), "script");
        assert_eq!(super::file_stem("日本"), "design");
    }
}
