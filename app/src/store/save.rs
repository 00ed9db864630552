//! Saving a design, once for every way in (the planner's server functions, the JSON API and
//! the import page): the spec and the note are checked together, the spec evaluated by the
//! engine, and only then stored. A refused save writes nothing.

use super::{DesignId, EditKey, SaveOutcome, Store, StoreError};
use crate::error::AppError;
use engine::{DesignSpec, FieldError, Report, SpecErrors};

/// Longest note accepted with a save, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

/// Why a save stored nothing.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The spec or the note is refused: every error, with its field path.
    #[error("invalid design: {}", SpecErrors(.0.clone()))]
    Invalid(Vec<FieldError>),
    #[error("no design has the id {0:?}")]
    NoSuchDesign(String),
    #[error("the edit key is not this design's")]
    WrongKey,
    #[error(
        "the design keeps {} revisions, the most one design may: duplicate it to go on",
        engine::thousands(f64::from(super::MAX_REVISIONS))
    )]
    Full,
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The evaluation stopped before it answered (a fault of the server's, not the design's).
    #[error("the design could not be evaluated")]
    Unevaluated,
}

impl From<SaveError> for AppError {
    /// A store failure is logged here with its cause; the client hears only that nothing
    /// was changed.
    fn from(error: SaveError) -> AppError {
        match error {
            SaveError::Invalid(errors) => AppError::Invalid(errors),
            SaveError::NoSuchDesign(id) => {
                AppError::NotFound(format!("no design has the id {id:?}"))
            }
            SaveError::WrongKey => AppError::Forbidden("the edit key is not this design's".into()),
            SaveError::Full => AppError::Forbidden(SaveError::Full.to_string()),
            SaveError::Store(error) => {
                tracing::error!(%error, "the design store failed");
                AppError::Internal("the design store failed; nothing was changed".into())
            }
            SaveError::Unevaluated => {
                AppError::Internal("the design could not be evaluated; nothing was changed".into())
            }
        }
    }
}

/// [`check`] on the blocking pool, the spec read there too: evaluating a large design is CPU
/// work that would otherwise hold one of the async workers every other request is answered on.
pub async fn check_off_the_workers(
    spec: impl FnOnce() -> Result<DesignSpec, SpecErrors> + Send + 'static,
    note: String,
) -> Result<Checked, SaveError> {
    crate::compute::run(move || check(spec(), &note))
        .await
        .unwrap_or(Err(SaveError::Unevaluated))
}

/// A submission that passed every check: the spec, its report and the trimmed note. Made only
/// by [`check`], and the only way into the store, so nothing unchecked is saved.
pub struct Checked {
    spec: DesignSpec,
    report: Report,
    note: String,
}

impl Checked {
    pub fn spec(&self) -> &DesignSpec {
        &self.spec
    }

    pub fn report(&self) -> &Report {
        &self.report
    }

    pub fn note(&self) -> &str {
        &self.note
    }
}

/// The note's error, if it is too long.
pub fn note_error(note: &str) -> Option<FieldError> {
    (note.chars().count() > MAX_NOTE_CHARS).then(|| {
        FieldError::new(
            "note",
            format!("must be at most {MAX_NOTE_CHARS} characters"),
        )
    })
}

/// Checks a submission: the spec as read (`DesignSpec::from_value` or `from_json`), evaluated
/// by the engine, and the note; every error of both at once.
pub fn check(spec: Result<DesignSpec, SpecErrors>, note: &str) -> Result<Checked, SaveError> {
    let note = note.trim().to_string();
    let evaluated = spec.and_then(|spec| engine::evaluate(&spec).map(|report| (spec, report)));
    let mut errors: Vec<FieldError> = match &evaluated {
        Ok(_) => Vec::new(),
        Err(SpecErrors(errors)) => errors.clone(),
    };
    errors.extend(note_error(&note));
    match evaluated {
        Ok((spec, report)) if errors.is_empty() => Ok(Checked { spec, report, note }),
        _ => Err(SaveError::Invalid(errors)),
    }
}

impl Store {
    /// Stores a checked submission as a new design: its id and edit key.
    pub async fn save_new(&self, checked: &Checked) -> Result<(DesignId, EditKey), SaveError> {
        Ok(self
            .create_design(&checked.spec, &checked.report, &checked.note)
            .await?)
    }

    /// Stores a checked submission as the next revision of design `id`, with its edit `key`.
    pub async fn save_next(
        &self,
        id: &DesignId,
        key: &EditKey,
        checked: &Checked,
    ) -> Result<u32, SaveError> {
        match self
            .save_revision(id, key, &checked.spec, &checked.report, &checked.note)
            .await?
        {
            SaveOutcome::Saved(n) => Ok(n),
            SaveOutcome::WrongKey => Err(SaveError::WrongKey),
            SaveOutcome::NoSuchDesign => Err(SaveError::NoSuchDesign(id.as_str().to_string())),
            SaveOutcome::Full => Err(SaveError::Full),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_spec_and_a_long_note_are_refused_together() {
        let mut spec = crate::templates::first_design();
        spec.cluster.nodes = 0;
        let Err(SaveError::Invalid(errors)) = check(Ok(spec), &"n".repeat(501)) else {
            panic!("refused")
        };
        let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
        assert!(
            paths.contains(&"cluster.nodes") && paths.contains(&"note"),
            "{paths:?}"
        );
    }

    #[test]
    fn a_good_submission_is_evaluated_and_its_note_trimmed() {
        let checked = check(Ok(crate::templates::first_design()), "  first cut ").unwrap();
        assert_eq!(checked.note, "first cut");
        assert_eq!(checked.report.cluster.nodes, 16);
    }
}
