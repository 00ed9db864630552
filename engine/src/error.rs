use serde::{Deserialize, Serialize};

/// One thing wrong with a spec: where (a field path such as `training.gpus`) and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("{}", located(.path, .reason))]
pub struct FieldError {
    pub path: String,
    pub reason: String,
}

impl FieldError {
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

/// Every error found in a spec, never empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("{}", joined(.0))]
pub struct SpecErrors(pub Vec<FieldError>);

impl SpecErrors {
    pub fn single(path: impl Into<String>, reason: impl Into<String>) -> Self {
        SpecErrors(vec![FieldError::new(path, reason)])
    }

    pub fn iter(&self) -> impl Iterator<Item = &FieldError> {
        self.0.iter()
    }

    /// The error for one field, if there is one (for showing it next to that field).
    pub fn for_path(&self, path: &str) -> Option<&FieldError> {
        self.0.iter().find(|e| e.path == path)
    }
}

/// Why a text is not what its parser reads (an as-built dump, nccl-tests output), and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("{}", located(&line_of(*.line), .message))]
pub struct ParseError {
    /// Line number from 1; 0 for the input as a whole.
    pub line: usize,
    pub message: String,
}

/// A parse error at `line` (from 1; 0 for the whole input).
pub(crate) fn parse_error(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// `reason`, after `at` and a colon when there is a place to name.
fn located(at: &str, reason: &str) -> String {
    if at.is_empty() {
        reason.to_string()
    } else {
        format!("{at}: {reason}")
    }
}

fn line_of(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}")
    }
}

fn joined(errors: &[FieldError]) -> String {
    errors
        .iter()
        .map(FieldError::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}
