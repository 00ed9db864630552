//! Response details that server functions and pages set (server only).

/// Sets the HTTP status of the response being built.
pub fn set_status(code: u16) {
    if let (Some(options), Ok(status)) = (
        leptos::prelude::use_context::<leptos_axum::ResponseOptions>(),
        http::StatusCode::from_u16(code),
    ) {
        options.set_status(status);
    }
}

/// Gives the response the status that `error` calls for, and returns it.
pub fn fail(error: crate::error::AppError) -> crate::error::AppError {
    set_status(error.status());
    error
}
