//! The HTTP status of the response being built (server only): set by the error type, so that
//! a server function's refusal carries its status.

use leptos::prelude::use_context;

/// Sets the HTTP status of the response being built.
pub fn set_status(code: u16) {
    if let (Some(options), Ok(status)) = (
        use_context::<leptos_axum::ResponseOptions>(),
        http::StatusCode::from_u16(code),
    ) {
        options.set_status(status);
    }
}
