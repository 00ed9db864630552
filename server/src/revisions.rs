//! A design's revision as an address names it (`/d/{id}/r/{n}`), for every page about one.

use crate::respond::PageError;
use app::store::{DesignHead, DesignId, Store, StoreError, StoredRevision};

/// The design `id` and its newest revision, or revision `n` of it; `None` when it does not
/// exist. Reads only the design's head.
pub(crate) async fn head_and_number(
    store: &Store,
    id: &str,
    n: Option<u32>,
) -> Result<Option<(DesignHead, DesignId, u32)>, StoreError> {
    let Some(design_id) = DesignId::parse(id) else {
        return Ok(None);
    };
    let Some(head) = store.design(&design_id).await? else {
        return Ok(None);
    };
    let number = n.unwrap_or(head.latest_revision);
    if number == 0 || number > head.latest_revision {
        return Ok(None);
    }
    Ok(Some((head, design_id, number)))
}

/// Revision `n` of design `id`, with the design's id.
pub(crate) async fn stored_revision(
    store: &Store,
    id: &str,
    n: &str,
) -> Result<(DesignId, StoredRevision), PageError> {
    let (Some(design_id), Ok(n)) = (DesignId::parse(id), n.parse::<u32>()) else {
        return Err(PageError::NotFound);
    };
    match store.revision(&design_id, Some(n)).await? {
        Some(stored) => Ok((design_id, stored)),
        None => Err(PageError::NotFound),
    }
}
