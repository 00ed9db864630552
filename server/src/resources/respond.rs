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
    /// A busy page (503) says when to ask again, as every busy answer of the server does.
    fn into_response(self) -> Response {
        let page = self.page();
        let response = html(&page);
        if page.status == 503 {
            crate::work::heavy::with_retry_after(response)
        } else {
            response
        }
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
pub(crate) fn attachment(content_type: &str, body: impl IntoResponse, file: &str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (header::CONTENT_DISPOSITION, disposition("attachment", file)),
        ],
        body,
    )
        .into_response()
}

/// A `Content-Disposition` value (`attachment` or `inline`) naming `file`. The name is built
/// from a safe alphabet (letters, digits, `.`, `_`, `-`; anything else a `-`, no leading dot)
/// and given both as `filename` and as RFC 6266's `filename*`, so that no browser reads
/// another name or a path into it.
pub(crate) fn disposition(kind: &str, file: &str) -> String {
    let mut safe: String = file
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(120)
        .collect();
    while safe.starts_with('.') {
        safe.remove(0);
    }
    if safe.is_empty() {
        safe.push_str("download");
    }
    format!("{kind}; filename=\"{safe}\"; filename*=UTF-8''{safe}")
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

/// Bytes handed to the response at a time when a file is sent as it is written.
const CHUNK: usize = 64 * 1024;
/// Chunks written ahead of what the client has taken: what a file sent as it is written holds
/// in memory, however large it is.
const CHUNKS_AHEAD: usize = 4;

/// How long a client may leave the next chunk of a download untaken before its writing stops:
/// a client that asks for a large file and never reads it would otherwise hold one of the
/// blocking pool's threads for as long as its connection stays open.
const STALLED: std::time::Duration = std::time::Duration::from_secs(60);

/// A response body that `write` writes on the blocking pool as it is sent, so that a large
/// file never lies whole in memory. Writing fails once the client has gone or has taken no
/// chunk for [`STALLED`], which stops it; a failure of `write` ends the body with an error (the
/// client sees a truncated transfer, not a whole file).
pub(crate) fn streamed(
    write: impl FnOnce(&mut Chunks) -> std::io::Result<()> + Send + 'static,
) -> axum::body::Body {
    streamed_within(STALLED, write)
}

/// [`streamed`], stopping once the client has taken no chunk for `stalled`.
fn streamed_within(
    stalled: std::time::Duration,
    write: impl FnOnce(&mut Chunks) -> std::io::Result<()> + Send + 'static,
) -> axum::body::Body {
    let (sender, receiver) =
        tokio::sync::mpsc::channel::<std::io::Result<axum::body::Bytes>>(CHUNKS_AHEAD);
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let mut chunks = Chunks {
            buffer: Vec::with_capacity(CHUNK),
            sender,
            runtime,
            stalled,
        };
        let written = write(&mut chunks).and_then(|()| std::io::Write::flush(&mut chunks));
        match written {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(error) if error.kind() == std::io::ErrorKind::TimedOut => {
                tracing::info!("a client took no part of a download for a minute: stopped");
            }
            Err(error) => {
                tracing::error!(%error, "writing a file as it was sent failed");
                let _ = chunks.sender.try_send(Err(error));
            }
        }
    });
    axum::body::Body::from_stream(futures_util::stream::unfold(
        receiver,
        |mut receiver| async move { receiver.recv().await.map(|chunk| (chunk, receiver)) },
    ))
}

/// Where a file sent as it is written is written: [`CHUNK`] bytes at a time to the response.
pub(crate) struct Chunks {
    buffer: Vec<u8>,
    sender: tokio::sync::mpsc::Sender<std::io::Result<axum::body::Bytes>>,
    /// The server's runtime, which times the wait for the client on this blocking thread.
    runtime: tokio::runtime::Handle,
    stalled: std::time::Duration,
}

impl std::io::Write for Chunks {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= CHUNK {
            self.flush()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK));
        use tokio::sync::mpsc::error::SendTimeoutError;
        let sent = self
            .runtime
            .block_on(self.sender.send_timeout(Ok(chunk.into()), self.stalled));
        match sent {
            Ok(()) => Ok(()),
            Err(SendTimeoutError::Closed(_)) => Err(std::io::ErrorKind::BrokenPipe.into()),
            Err(SendTimeoutError::Timeout(_)) => Err(std::io::ErrorKind::TimedOut.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    /// A client that asks for a file and never reads it: once the chunks ahead are written and
    /// the next waits longer than allowed, the writing stops instead of holding its thread.
    #[tokio::test]
    async fn a_download_nobody_reads_stops_being_written() {
        use std::sync::mpsc;
        use std::time::Duration;
        let (done, result) = mpsc::channel();
        let body = super::streamed_within(Duration::from_millis(50), move |out| {
            let chunk = vec![b'x'; super::CHUNK];
            let written = (0..1_000).try_for_each(|_| std::io::Write::write_all(out, &chunk));
            let _ = done.send(written.map_err(|e| e.kind()));
            Ok(())
        });
        let stopped =
            tokio::task::spawn_blocking(move || result.recv_timeout(Duration::from_secs(10)))
                .await
                .unwrap();
        assert_eq!(stopped, Ok(Err(std::io::ErrorKind::TimedOut)));
        drop(body);
    }

    #[test]
    fn file_names_keep_letters_and_digits() {
        assert_eq!(
            super::file_stem("70B training / 1,024 GPUs"),
            "70b-training-1-024-gpus"
        );
        assert_eq!(super::file_stem("<script>"), "script");
        assert_eq!(super::file_stem("日本"), "design");
    }

    #[test]
    fn a_download_is_named_from_a_safe_alphabet_only() {
        assert_eq!(
            super::disposition("attachment", "plan-r1-cvt-compute-p2p.csv"),
            "attachment; filename=\"plan-r1-cvt-compute-p2p.csv\"; \
             filename*=UTF-8''plan-r1-cvt-compute-p2p.csv"
        );
        let crafted = super::disposition("attachment", "x\"; filename=\"invoice.exe\r\n");
        assert_eq!(crafted.matches("filename=").count(), 1, "{crafted}");
        assert!(!crafted.contains('\r') && !crafted.contains(" filename=\"invoice"));
        assert_eq!(
            super::disposition("inline", "../../.bashrc"),
            "inline; filename=\"-..-.bashrc\"; filename*=UTF-8''-..-.bashrc"
        );
    }
}
