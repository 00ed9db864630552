//! Saved designs: the server functions that store them, and the types they exchange. They are
//! a public API: everything they receive is validated by the engine before it is stored.

use crate::error::AppError;
use crate::wire::JsonReply;
use leptos::prelude::*;
use leptos::server_fn::codec::{Json, Post};
use serde::{Deserialize, Serialize};

/// What a successful save returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedDesign {
    pub id: String,
    pub revision: u32,
    /// The secret edit key, returned once, when the design is created.
    pub edit_key: Option<String>,
}

impl SavedDesign {
    pub fn share_path(&self) -> String {
        format!("/d/{}", self.id)
    }

    /// Where the planner edits this design: a reload there reopens it.
    pub fn editor_path(&self) -> String {
        format!("/d/{}/edit", self.id)
    }

    pub fn revision_path(&self) -> String {
        format!("/d/{}/r/{}", self.id, self.revision)
    }

    /// The link that gives any browser the right to edit: shown once, for the owner to keep.
    pub fn edit_path(&self) -> Option<String> {
        self.edit_key
            .as_ref()
            .map(|key| format!("/d/{}/claim?key={key}", self.id))
    }
}

/// The browser reads a save's answer as serde writes it (`tests` holds the reader to it): a
/// revision is a whole number, an edit key a string or null.
impl crate::wire::answer::FromAnswer for SavedDesign {
    fn from_answer(answer: &impl crate::wire::answer::Json) -> Option<SavedDesign> {
        let revision = answer.member("revision")?.number()?;
        let whole = revision.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&revision);
        let edit_key = match answer.member("edit_key")? {
            key if key.is_null() => None,
            key => Some(key.string()?),
        };
        Some(SavedDesign {
            id: answer.text("id")?,
            revision: whole.then_some(revision as u32)?,
            edit_key,
        })
    }
}

/// Validates `spec` with the engine and stores it as a new design; the response sets the
/// cookie that lets this browser save new revisions. Refuses an invalid spec with 422 and
/// every field error; nothing is written then.
#[server(prefix = "/fn", endpoint = "save_design", input = Json, output = Post<JsonReply>)]
#[middleware(crate::costs::WRITES)]
pub async fn save_design(
    spec: Box<serde_json::value::RawValue>,
    note: Option<String>,
) -> Result<SavedDesign, AppError> {
    use crate::server::{fail, store};
    let checked = crate::store::check_off_the_workers(
        move || engine::DesignSpec::from_json(spec.get()),
        note.unwrap_or_default(),
    )
    .await
    .map_err(|e| fail(e.into()))?;
    let (id, key) = store()?
        .save_new(&checked)
        .await
        .map_err(|e| fail(e.into()))?;
    crate::server::give_key(&id, &key);
    Ok(SavedDesign {
        id: id.as_str().to_string(),
        revision: 1,
        edit_key: Some(key.as_str().to_string()),
    })
}

/// Appends a revision to design `id`, with the edit key from this browser's cookie: 403 when
/// it holds none or the wrong one, 404 for an unknown id, 422 for an invalid spec; nothing is
/// written then.
#[server(prefix = "/fn", endpoint = "save_revision", input = Json, output = Post<JsonReply>)]
#[middleware(crate::costs::WRITES)]
pub async fn save_revision(
    id: String,
    spec: Box<serde_json::value::RawValue>,
    note: Option<String>,
) -> Result<SavedDesign, AppError> {
    use crate::server::{fail, request_headers, store, stored};
    use crate::store::DesignId;
    let not_found = || fail(AppError::NotFound(format!("no design has the id {id:?}")));
    let design_id = DesignId::parse(&id).ok_or_else(not_found)?;
    let checked = crate::store::check_off_the_workers(
        move || engine::DesignSpec::from_json(spec.get()),
        note.unwrap_or_default(),
    )
    .await
    .map_err(|e| fail(e.into()))?;
    let store = store()?;
    if stored(store.design(&design_id).await)?.is_none() {
        return Err(not_found());
    }
    let Some(key) = crate::ownership::key_for(&request_headers(), &design_id) else {
        return Err(fail(AppError::Forbidden(
            "this browser does not hold the edit key of this design: duplicate it instead".into(),
        )));
    };
    let revision = store
        .save_next(&design_id, &key, &checked)
        .await
        .map_err(|e| fail(e.into()))?;
    crate::server::give_key(&design_id, &key);
    Ok(SavedDesign {
        id,
        revision,
        edit_key: None,
    })
}

#[cfg(test)]
mod tests {
    use super::SavedDesign;

    /// The members the browser reads a save's answer by are the ones serde writes.
    #[test]
    fn a_saves_answer_has_the_members_the_browser_reads() {
        let saved = SavedDesign {
            id: "k3j5v9q2".into(),
            revision: 1,
            edit_key: None,
        };
        let answer = serde_json::to_value(&saved).unwrap();
        let mut members: Vec<&str> = answer
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        members.sort();
        assert_eq!(members, ["edit_key", "id", "revision"]);
        assert!(answer["edit_key"].is_null(), "{answer}");
        assert!(answer["revision"].is_u64(), "{answer}");
    }

    /// The browser's reader of a save's answer reads back what serde wrote, with or without an
    /// edit key, and refuses a revision that is not a whole number.
    #[test]
    fn the_browser_reads_a_saves_answer_as_serde_wrote_it() {
        use crate::wire::answer::FromAnswer;
        for edit_key in [None, Some("k3y-0123".to_string())] {
            let saved = SavedDesign {
                id: "k3j5v9q2".into(),
                revision: 7,
                edit_key,
            };
            let answer = serde_json::to_value(&saved).unwrap();
            assert_eq!(SavedDesign::from_answer(&answer), Some(saved));
        }
        let mut half = serde_json::json!({"id": "x", "revision": 1.5, "edit_key": null});
        assert_eq!(SavedDesign::from_answer(&half), None);
        half["revision"] = 2.into();
        half.as_object_mut().unwrap().remove("edit_key");
        assert_eq!(SavedDesign::from_answer(&half), None, "a member missing");
    }
}
