//! Saved designs: the server functions that store and load them, and the types they exchange.
//! They are a public API: everything they receive is validated by the engine before it is stored.

use crate::error::AppError;
use engine::DesignSpec;
use leptos::prelude::*;
use leptos::server_fn::codec::Json;
use serde::{Deserialize, Serialize};

/// What a successful save returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedDesign {
    pub id: String,
    pub revision: u32,
}

impl SavedDesign {
    pub fn share_path(&self) -> String {
        format!("/d/{}", self.id)
    }
}

/// A stored design at its latest revision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredDesign {
    pub id: String,
    pub revision: u32,
    pub spec: DesignSpec,
    pub engine_version: String,
    /// Milliseconds since the Unix epoch, UTC.
    pub saved_at_ms: i64,
}

/// Validates `spec` with the engine and stores it as a new design. Refuses an invalid spec with
/// 422 and every field error; nothing is written then.
#[server(prefix = "/fn", endpoint = "save_design", input = Json)]
pub async fn save_design(spec: serde_json::Value) -> Result<SavedDesign, AppError> {
    use crate::{respond::fail, store::Store};
    let spec = DesignSpec::from_value(spec).map_err(|e| fail(e.into()))?;
    let report = engine::evaluate(&spec).map_err(|e| fail(e.into()))?;
    let store = use_context::<Store>()
        .ok_or_else(|| fail(AppError::Internal("the design store is unavailable".into())))?;
    store.create_design(&spec, &report).await.map_err(|error| {
        tracing::error!(%error, "saving a design failed");
        fail(AppError::Internal(
            "the design could not be saved; nothing was stored".into(),
        ))
    })
}

/// The latest revision of design `id`; 404 when there is none.
#[server(prefix = "/fn", endpoint = "load_design")]
pub async fn load_design(id: String) -> Result<StoredDesign, AppError> {
    use crate::{
        respond::fail,
        store::{DesignId, Store},
    };
    let not_found = || fail(AppError::NotFound(format!("no design has the id {id:?}")));
    let design_id = DesignId::parse(&id).ok_or_else(not_found)?;
    let store = use_context::<Store>()
        .ok_or_else(|| fail(AppError::Internal("the design store is unavailable".into())))?;
    match store.latest_revision(&design_id).await {
        Ok(Some(design)) => Ok(design),
        Ok(None) => Err(not_found()),
        Err(error) => {
            tracing::error!(%error, "loading a design failed");
            Err(fail(AppError::Internal(
                "the design could not be read".into(),
            )))
        }
    }
}
