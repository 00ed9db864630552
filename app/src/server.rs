//! What the server functions share (server only): the store from the context, the request's
//! headers, statuses, cookies, and turning store failures into a generic error.

use crate::error::AppError;
use crate::status::set_status;
use crate::store::{DesignId, EditKey, Store, StoreError};
use leptos::prelude::use_context;

/// Gives the response the status that `error` calls for, and returns it.
pub fn fail(error: AppError) -> AppError {
    set_status(error.status());
    error
}

pub fn store() -> Result<Store, AppError> {
    use_context::<Store>()
        .ok_or_else(|| fail(AppError::Internal("the design store is unavailable".into())))
}

/// The result of a store call, its failure logged and reported without its cause.
pub fn stored<T>(result: Result<T, StoreError>) -> Result<T, AppError> {
    result.map_err(|error| {
        tracing::error!(%error, "the design store failed");
        fail(AppError::Internal(
            "the design store failed; nothing was changed".into(),
        ))
    })
}

/// The headers of the request being answered.
pub fn request_headers() -> http::HeaderMap {
    use_context::<http::request::Parts>()
        .map(|parts| parts.headers)
        .unwrap_or_default()
}

/// Makes the response give this browser the edit key of design `id`.
pub fn give_key(id: &DesignId, key: &EditKey) {
    if let (Some(options), Ok(value)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::HeaderValue::from_str(&crate::ownership::key_cookie(id, key)),
    ) {
        options.append_header(http::header::SET_COOKIE, value);
    }
}
