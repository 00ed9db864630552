//! Records kept with a revision after installation (nccl-tests baselines, as-built checks):
//! only the holder of the design's edit key adds one, numbered after the design's last, and
//! none is ever changed.

use super::{DesignId, EditKey, StoreError};
use sqlx::{Any, Transaction};

/// Records of each kind (baselines, as-built checks) one design keeps: the pages that list
/// them and the fits that read them read every one, and anyone may make a design and
/// hold its key, so what one design may hold is bounded.
pub const MAX_RECORDS: u32 = 200;

/// What adding a record came to; nothing is written unless it is `Added`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddOutcome {
    Added(u32),
    WrongKey,
    NoSuchDesign,
    NoSuchRevision,
    /// The design already keeps [`MAX_RECORDS`] of this kind.
    Full,
}

/// A record's number as stored.
pub(super) fn record_number(number: i64) -> Result<u32, StoreError> {
    u32::try_from(number).map_err(|_| StoreError::Corrupt(format!("record number {number}")))
}

/// Opens the addition of a record to `table` for `revision` of design `id`: the number it
/// gets, in a transaction that holds the design's write lock (so concurrent additions number
/// in order), or why nothing may be added (the transaction is then rolled back).
pub(super) async fn begin(
    pool: &sqlx::AnyPool,
    table: &'static str,
    id: &DesignId,
    key: &EditKey,
    revision: u32,
) -> Result<Result<(Transaction<'static, Any>, i64), AddOutcome>, StoreError> {
    let mut tx = pool.begin().await?;
    let latest: Option<i64> = sqlx::query_scalar(
        "UPDATE designs SET latest_revision = latest_revision
         WHERE id = $1 AND edit_key_hash = $2
         RETURNING latest_revision",
    )
    .bind(id.as_str())
    .bind(key.hash())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(latest) = latest else {
        let exists = sqlx::query("SELECT id FROM designs WHERE id = $1")
            .bind(id.as_str())
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        tx.rollback().await?;
        return Ok(Err(if exists {
            AddOutcome::WrongKey
        } else {
            AddOutcome::NoSuchDesign
        }));
    };
    if revision < 1 || i64::from(revision) > latest {
        tx.rollback().await?;
        return Ok(Err(AddOutcome::NoSuchRevision));
    }
    let number: i64 = sqlx::query_scalar(&format!(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM {table} WHERE design_id = $1"
    ))
    .bind(id.as_str())
    .fetch_one(&mut *tx)
    .await?;
    if number > i64::from(MAX_RECORDS) {
        tx.rollback().await?;
        return Ok(Err(AddOutcome::Full));
    }
    Ok(Ok((tx, number)))
}
