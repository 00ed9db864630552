//! Baselines: nccl-tests output measured on the built fabric, kept with a revision of its
//! design (a record: only the key holder adds one, and none is ever changed).

use super::records::{self, AddOutcome};
use super::{now_ms, revision_number, DesignId, EditKey, Store, StoreError};
use sqlx::Row;

/// A baseline to add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBaseline<'a> {
    /// The revision of the design it was measured against.
    pub revision: u32,
    pub fabric: &'a str,
    pub label: &'a str,
    /// The day it was measured, `YYYY-MM-DD`.
    pub measured_on: &'a str,
    /// The nccl-tests output, as given.
    pub output: &'a str,
    /// The run's ranks and nodes where the output does not say.
    pub stated: engine::baseline::Stated,
}

/// A stored baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBaseline {
    pub number: u32,
    pub revision: u32,
    pub fabric: String,
    pub label: String,
    pub measured_on: String,
    pub output: String,
    pub stated: engine::baseline::Stated,
    pub saved_at_ms: i64,
}

/// A stated count: NULL when none was stated.
fn stated_count(row: &sqlx::any::AnyRow, column: &str) -> Result<Option<u32>, StoreError> {
    let value: Option<i64> = row.try_get(column)?;
    value
        .map(|v| u32::try_from(v).map_err(|_| StoreError::Corrupt(format!("{column} = {v}"))))
        .transpose()
}

impl Store {
    /// Adds a baseline to design `id` if `key` is its edit key, numbered after the design's
    /// last one. The first statement takes the design's write lock, so concurrent additions
    /// number in order.
    pub async fn add_baseline(
        &self,
        id: &DesignId,
        key: &EditKey,
        baseline: &NewBaseline<'_>,
    ) -> Result<AddOutcome, StoreError> {
        let (mut tx, number) =
            match records::begin(&self.pool, "baselines", id, key, baseline.revision).await? {
                Ok(begun) => begun,
                Err(refused) => return Ok(refused),
            };
        sqlx::query(
            "INSERT INTO baselines (design_id, number, revision, fabric, label, measured_on, output, created_at_ms, ranks, nodes)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(id.as_str())
        .bind(number)
        .bind(i64::from(baseline.revision))
        .bind(baseline.fabric)
        .bind(baseline.label)
        .bind(baseline.measured_on)
        .bind(baseline.output)
        .bind(now_ms())
        .bind(baseline.stated.ranks.map(i64::from))
        .bind(baseline.stated.nodes.map(i64::from))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(AddOutcome::Added(records::record_number(number)?))
    }

    /// Every baseline of design `id`, in the order they were measured (then added).
    pub async fn baselines(&self, id: &DesignId) -> Result<Vec<StoredBaseline>, StoreError> {
        let rows = sqlx::query(
            "SELECT number, revision, fabric, label, measured_on, output, created_at_ms, ranks, nodes
             FROM baselines WHERE design_id = $1 ORDER BY measured_on, number",
        )
        .bind(id.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredBaseline {
                    number: revision_number(row, "number")?,
                    revision: revision_number(row, "revision")?,
                    fabric: row.try_get("fabric")?,
                    label: row.try_get("label")?,
                    measured_on: row.try_get("measured_on")?,
                    output: row.try_get("output")?,
                    stated: engine::baseline::Stated {
                        ranks: stated_count(row, "ranks")?,
                        nodes: stated_count(row, "nodes")?,
                    },
                    saved_at_ms: row.try_get("created_at_ms")?,
                })
            })
            .collect()
    }

    /// Number of stored baselines of all designs.
    pub async fn baseline_count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM baselines")
            .fetch_one(&self.pool)
            .await?)
    }
}
