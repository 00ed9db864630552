//! A design's revision as an address names it (`/d/{id}/r/{n}`), for every page about one.

use crate::resources::respond::PageError;
use app::store::{DesignHead, DesignId, Store, StoreError, StoredRevision};

/// The design an address's `id` names, with its head; `None` when it names none. The one
/// place an address becomes a design.
pub(crate) async fn design_head(
    store: &Store,
    id: &str,
) -> Result<Option<(DesignId, DesignHead)>, StoreError> {
    let Some(design_id) = DesignId::parse(id) else {
        return Ok(None);
    };
    Ok(store
        .design(&design_id)
        .await?
        .map(|head| (design_id, head)))
}

/// Revision `n` (the newest when absent) of the design an address's `id` names; `None` when
/// there is none.
pub(crate) async fn revision_at(
    store: &Store,
    id: &str,
    n: Option<u32>,
) -> Result<Option<(DesignId, StoredRevision)>, StoreError> {
    let Some(design_id) = DesignId::parse(id) else {
        return Ok(None);
    };
    Ok(store
        .revision(&design_id, n)
        .await?
        .map(|stored| (design_id, stored)))
}

/// The design `id` and its newest revision, or revision `n` of it; `None` when it does not
/// exist. Reads only the design's head.
pub(crate) async fn head_and_number(
    store: &Store,
    id: &str,
    n: Option<u32>,
) -> Result<Option<(DesignHead, DesignId, u32)>, StoreError> {
    let Some((design_id, head)) = design_head(store, id).await? else {
        return Ok(None);
    };
    let number = n.unwrap_or(head.latest_revision);
    if number == 0 || number > head.latest_revision {
        return Ok(None);
    }
    Ok(Some((head, design_id, number)))
}

/// The revision number an address's `n` names; not found when it names none.
pub(crate) fn revision_number(n: &str) -> Result<u32, PageError> {
    n.parse::<u32>().map_err(|_| PageError::NotFound)
}

/// Revision `n` of design `id`, with the design's id.
pub(crate) async fn stored_revision(
    store: &Store,
    id: &str,
    n: &str,
) -> Result<(DesignId, StoredRevision), PageError> {
    revision_at(store, id, Some(revision_number(n)?))
        .await?
        .ok_or(PageError::NotFound)
}

/// The design an address's `id` names, its newest spec, and whether the request holds its edit
/// key: what a page that may change the design needs.
pub(crate) async fn newest_for(
    store: &Store,
    id: &str,
    headers: &axum::http::HeaderMap,
) -> Result<(DesignId, DesignHead, engine::DesignSpec, bool), PageError> {
    let (design_id, head) = design_head(store, id).await?.ok_or(PageError::NotFound)?;
    let latest = store
        .revision(&design_id, None)
        .await?
        .ok_or(PageError::NotFound)?;
    let editable = match app::ownership::key_for(headers, &design_id) {
        Some(key) => store.holds_key(&design_id, &key).await?,
        None => false,
    };
    Ok((design_id, head, latest.spec, editable))
}

/// A change to the design an address's `id` names: its id and head, its newest spec and the
/// edit key the request holds, or the page titled `title` that refuses it (only a browser
/// holding the key changes a design).
pub(crate) async fn newest_to_change(
    store: &Store,
    id: &str,
    headers: &axum::http::HeaderMap,
    title: &str,
) -> Result<
    (
        DesignId,
        DesignHead,
        engine::DesignSpec,
        app::store::EditKey,
    ),
    PageError,
> {
    let (design_id, head, spec, editable) = newest_for(store, id, headers).await?;
    let key = app::ownership::key_for(headers, &design_id)
        .filter(|_| editable)
        .ok_or_else(|| {
            refused(
                title,
                403,
                "Only a browser holding the design's edit key changes it; nothing was stored."
                    .into(),
            )
        })?;
    Ok((design_id, head, spec, key))
}

/// The page titled `title` that refuses a change with `status` and `reason`.
pub(crate) fn refused(title: &str, status: u16, reason: String) -> PageError {
    PageError::Page(app::pages::document::message(status, title, reason))
}

/// A change saved as the design's next revision: on to `then`, or the page that says why not.
pub(crate) fn saved(
    result: Result<u32, app::store::SaveError>,
    title: &str,
    then: String,
) -> Result<axum::response::Response, PageError> {
    use app::store::SaveError;
    use axum::response::IntoResponse;
    match result {
        Ok(_) => Ok((
            axum::http::StatusCode::SEE_OTHER,
            [(axum::http::header::LOCATION, then)],
        )
            .into_response()),
        Err(SaveError::WrongKey) => Err(refused(
            title,
            403,
            "The edit key is not this design's; nothing was stored.".into(),
        )),
        Err(SaveError::NoSuchDesign(_)) => Err(PageError::NotFound),
        Err(SaveError::Full) => Err(refused(
            title,
            409,
            format!("{}; nothing was stored.", SaveError::Full),
        )),
        Err(e) => Err(refused(title, 422, format!("{e}; nothing was stored."))),
    }
}
