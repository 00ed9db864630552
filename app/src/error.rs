//! The one error type of the application's server functions. Users see what was wrong with
//! their input and where; internal causes are logged on the server, never sent.

use crate::wire::JsonReply;
use engine::{FieldError, SpecErrors};
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(
    feature = "ssr",
    derive(schemars::JsonSchema),
    schemars(rename = "Error")
)]
#[serde(tag = "error", content = "details", rename_all = "snake_case")]
pub enum AppError {
    /// The design is invalid: every error, with its field path (422).
    #[error("invalid design: {}", SpecErrors(.0.clone()))]
    Invalid(Vec<FieldError>),
    /// Nothing exists at this id (404).
    #[error("not found: {0}")]
    NotFound(String),
    /// The edit key is missing or wrong: nothing was written (403).
    #[error("not allowed: {0}")]
    Forbidden(String),
    /// The request itself could not be read (400).
    #[error("bad request: {0}")]
    BadRequest(String),
    /// The client has used up its allowance of this kind of request for now (429, with
    /// Retry-After).
    #[error("too many requests: {0}")]
    TooManyRequests(String),
    /// The server could not do its part; the message is generic (500).
    #[error("server error: {0}")]
    Internal(String),
    /// The browser could not reach the server.
    #[error("the server could not be reached: {0}")]
    Unreachable(String),
}

impl AppError {
    /// The `error` member of an invalid design's body, whose `details` are its field errors.
    pub const INVALID: &'static str = "invalid";

    /// The `error` member of this error's body, as serde writes it.
    pub fn kind(&self) -> &'static str {
        match self {
            AppError::Invalid(_) => AppError::INVALID,
            AppError::NotFound(_) => "not_found",
            AppError::Forbidden(_) => "forbidden",
            AppError::BadRequest(_) => "bad_request",
            AppError::TooManyRequests(_) => "too_many_requests",
            AppError::Internal(_) => "internal",
            AppError::Unreachable(_) => "unreachable",
        }
    }

    /// The error of kind `kind` whose details are `message`: none for an unknown kind or for
    /// an invalid design, whose details are field errors.
    pub fn with_message(kind: &str, message: String) -> Option<AppError> {
        let kinds: [fn(String) -> AppError; 6] = [
            AppError::NotFound,
            AppError::Forbidden,
            AppError::BadRequest,
            AppError::TooManyRequests,
            AppError::Internal,
            AppError::Unreachable,
        ];
        kinds
            .into_iter()
            .map(|error| error(message.clone()))
            .find(|error| error.kind() == kind)
    }

    pub fn status(&self) -> u16 {
        match self {
            AppError::Invalid(_) => 422,
            AppError::NotFound(_) => 404,
            AppError::Forbidden(_) => 403,
            AppError::BadRequest(_) => 400,
            AppError::TooManyRequests(_) => 429,
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

/// The browser reads an error's answer as serde writes it (`tests` holds the reader to it).
impl crate::wire::answer::FromAnswer for AppError {
    fn from_answer(answer: &impl crate::wire::answer::Json) -> Option<AppError> {
        let kind = answer.text("error")?;
        let details = answer.member("details")?;
        if kind == AppError::INVALID {
            let errors = details.items()?.into_iter();
            let errors = errors.map(|e| Some(FieldError::new(e.text("path")?, e.text("reason")?)));
            return errors.collect::<Option<_>>().map(AppError::Invalid);
        }
        AppError::with_message(&kind, details.string()?)
    }
}

impl From<SpecErrors> for AppError {
    fn from(errors: SpecErrors) -> Self {
        AppError::Invalid(errors.0)
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonReply;

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
        crate::status::set_status(error.status());
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<AppError> {
        let m = || "why".to_string();
        vec![
            AppError::Invalid(vec![FieldError::new("cluster.nodes", "must be at least 1")]),
            AppError::NotFound(m()),
            AppError::Forbidden(m()),
            AppError::BadRequest(m()),
            AppError::TooManyRequests(m()),
            AppError::Internal(m()),
            AppError::Unreachable(m()),
        ]
    }

    /// The browser's reader of an error's answer reads back every kind as serde wrote it, an
    /// invalid design with each of its field errors.
    #[test]
    fn the_browser_reads_every_error_as_serde_wrote_it() {
        use crate::wire::answer::FromAnswer;
        let mut kinds = every_kind();
        kinds.push(AppError::Invalid(vec![
            FieldError::new("cluster.nodes", "must be at least 1"),
            FieldError::new("fabrics[0].name", "«compute» is taken"),
        ]));
        for error in kinds {
            let body = serde_json::to_value(&error).unwrap();
            assert_eq!(AppError::from_answer(&body), Some(error), "{body}");
        }
        let unknown = serde_json::json!({"error": "teapot", "details": "short and stout"});
        assert_eq!(AppError::from_answer(&unknown), None);
    }

    /// The browser reads an error's body by its kind: each kind is the one serde writes, and
    /// reading a message back by it gives the same error.
    #[test]
    fn each_kind_is_the_error_member_serde_writes_and_reads_back() {
        for error in every_kind() {
            let body = serde_json::to_value(&error).unwrap();
            assert_eq!(body["error"], error.kind(), "{body}");
            match &error {
                AppError::Invalid(_) => {
                    assert_eq!(error.kind(), AppError::INVALID);
                    assert!(body["details"].is_array());
                    assert_eq!(AppError::with_message(AppError::INVALID, "x".into()), None);
                }
                _ => {
                    let message = body["details"].as_str().unwrap().to_string();
                    assert_eq!(AppError::with_message(error.kind(), message), Some(error));
                }
            }
        }
        assert_eq!(AppError::with_message("teapot", "x".into()), None);
    }

    /// The browser reads an invalid design's field errors by the members serde writes.
    #[test]
    fn a_field_error_has_the_members_the_browser_reads() {
        let body = serde_json::to_value(FieldError::new("cluster.nodes", "must be at least 1"));
        assert_eq!(
            body.unwrap(),
            serde_json::json!({"path": "cluster.nodes", "reason": "must be at least 1"})
        );
    }
}
