//! The one error type of the application's server functions. Users see what was wrong with
//! their input and where; internal causes are logged on the server, never sent.

use engine::{FieldError, SpecErrors};
use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "error", content = "details", rename_all = "snake_case")]
pub enum AppError {
    /// The design is invalid: every error, with its field path (422).
    Invalid(Vec<FieldError>),
    /// Nothing exists at this id (404).
    NotFound(String),
    /// The edit key is missing or wrong: nothing was written (403).
    Forbidden(String),
    /// The request itself could not be read (400).
    BadRequest(String),
    /// The server could not do its part; the message is generic (500).
    Internal(String),
    /// The browser could not reach the server.
    Unreachable(String),
}

impl AppError {
    pub fn status(&self) -> u16 {
        match self {
            AppError::Invalid(_) => 422,
            AppError::NotFound(_) => 404,
            AppError::Forbidden(_) => 403,
            AppError::BadRequest(_) => 400,
            AppError::Internal(_) | AppError::Unreachable(_) => 500,
        }
    }

    /// The field errors, for showing each next to its field.
    pub fn field_errors(&self) -> Option<SpecErrors> {
        match self {
            AppError::Invalid(errors) => Some(SpecErrors(errors.clone())),
            _ => None,
        }
    }
}

impl From<SpecErrors> for AppError {
    fn from(errors: SpecErrors) -> Self {
        AppError::Invalid(errors.0)
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Invalid(errors) => {
                write!(f, "invalid design: {}", SpecErrors(errors.clone()))
            }
            AppError::NotFound(what) => write!(f, "not found: {what}"),
            AppError::Forbidden(why) => write!(f, "not allowed: {why}"),
            AppError::BadRequest(why) => write!(f, "bad request: {why}"),
            AppError::Internal(what) => write!(f, "server error: {what}"),
            AppError::Unreachable(why) => write!(f, "the server could not be reached: {why}"),
        }
    }
}

impl std::error::Error for AppError {}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        let error = match value {
            ServerFnErrorErr::Args(why) | ServerFnErrorErr::MissingArg(why) => {
                AppError::BadRequest(why)
            }
            // On the server, failing to deserialize means the request body could not be read.
            #[cfg(feature = "ssr")]
            ServerFnErrorErr::Deserialization(why) => AppError::BadRequest(why),
            ServerFnErrorErr::Request(why) => AppError::Unreachable(why),
            other => AppError::Internal(other.to_string()),
        };
        // On the server this runs while the response is being built: give it the right status.
        #[cfg(feature = "ssr")]
        crate::server::set_status(error.status());
        error
    }
}
