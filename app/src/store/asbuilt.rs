//! As-built checks kept with a revision: what the check found on the day, as the report and the
//! page need it (a record: only the key holder adds one, and none is ever changed). What the
//! built fabric reported is not kept: its size is bounded only by the upload limit, and a kept
//! check's findings are bounded ([`AsBuiltCheck::kept`]). Checks kept before this kept their
//! output instead, and are run again from it when shown.

use super::records::{self, AddOutcome};
use super::{now_ms, revision_number, DesignId, EditKey, Store, StoreError};
use engine::asbuilt::{AsBuiltCheck, Summary};
use sqlx::Row;

/// The tool whose output a check read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Ibnetdiscover,
    /// One switch's LLDP neighbour table.
    Lldp,
}

impl Tool {
    /// The tool's key, as stored and as forms and the API name it.
    pub fn key(self) -> &'static str {
        match self {
            Tool::Ibnetdiscover => "ibnetdiscover",
            Tool::Lldp => "lldp",
        }
    }

    pub fn from_key(key: &str) -> Option<Tool> {
        match key {
            "ibnetdiscover" => Some(Tool::Ibnetdiscover),
            "lldp" => Some(Tool::Lldp),
            _ => None,
        }
    }
}

/// A check to keep.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCheck<'a> {
    pub revision: u32,
    pub fabric: &'a str,
    pub tool: Tool,
    /// The switch an LLDP table is from; empty for ibnetdiscover.
    pub device: &'a str,
    pub label: &'a str,
    /// The day the output was taken, `YYYY-MM-DD`.
    pub checked_on: &'a str,
    /// What the check found, as kept ([`AsBuiltCheck::kept`]; the total's name is not kept).
    pub found: &'a AsBuiltCheck,
}

/// What a kept check shows: what it found, or, for a check kept before findings were kept,
/// the output to run it again from.
#[derive(Debug, Clone, PartialEq)]
pub enum KeptFindings {
    Found(Box<AsBuiltCheck>),
    Output(String),
}

/// A kept check (what it found is read on its own, by `kept_findings`).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCheck {
    pub number: u32,
    pub revision: u32,
    pub fabric: String,
    pub tool: Tool,
    pub device: String,
    pub label: String,
    pub checked_on: String,
    /// What the check found, named by its label.
    pub found: Summary,
    pub saved_at_ms: i64,
}

fn count(row: &sqlx::any::AnyRow, column: &str) -> Result<u32, StoreError> {
    let value: i64 = row.try_get(column)?;
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("{column} = {value}")))
}

impl Store {
    /// Keeps an as-built check of design `id` if `key` is its edit key.
    pub async fn add_check(
        &self,
        id: &DesignId,
        key: &EditKey,
        check: &NewCheck<'_>,
    ) -> Result<AddOutcome, StoreError> {
        let (mut tx, number) =
            match records::begin(&self.pool, "asbuilt_checks", id, key, check.revision).await? {
                Ok(begun) => begun,
                Err(refused) => return Ok(refused),
            };
        let found = &check.found.total;
        let found_json = super::designs::json(check.found)?;
        sqlx::query(
            "INSERT INTO asbuilt_checks (design_id, number, revision, fabric, tool, device, label, checked_on, output,
                                         found, as_planned, missing, swapped, degraded, extra, created_at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '', $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(id.as_str())
        .bind(number)
        .bind(i64::from(check.revision))
        .bind(check.fabric)
        .bind(check.tool.key())
        .bind(check.device)
        .bind(check.label)
        .bind(check.checked_on)
        .bind(found_json)
        .bind(i64::from(found.as_planned))
        .bind(i64::from(found.missing))
        .bind(i64::from(found.swapped))
        .bind(i64::from(found.degraded))
        .bind(i64::from(found.extra))
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(AddOutcome::Added(records::record_number(number)?))
    }

    /// The kept checks of revision `revision` of design `id`, in the order they were taken
    /// (then kept).
    pub async fn checks(
        &self,
        id: &DesignId,
        revision: u32,
    ) -> Result<Vec<StoredCheck>, StoreError> {
        let rows = sqlx::query(
            "SELECT number, revision, fabric, tool, device, label, checked_on,
                    as_planned, missing, swapped, degraded, extra, created_at_ms
             FROM asbuilt_checks WHERE design_id = $1 AND revision = $2
             ORDER BY checked_on, number",
        )
        .bind(id.as_str())
        .bind(i64::from(revision))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let label: String = row.try_get("label")?;
                let tool: String = row.try_get("tool")?;
                Ok(StoredCheck {
                    number: revision_number(row, "number")?,
                    revision: revision_number(row, "revision")?,
                    fabric: row.try_get("fabric")?,
                    tool: Tool::from_key(&tool)
                        .ok_or_else(|| StoreError::Corrupt(format!("as-built tool {tool:?}")))?,
                    device: row.try_get("device")?,
                    checked_on: row.try_get("checked_on")?,
                    found: Summary {
                        name: label.clone(),
                        as_planned: count(row, "as_planned")?,
                        missing: count(row, "missing")?,
                        swapped: count(row, "swapped")?,
                        degraded: count(row, "degraded")?,
                        extra: count(row, "extra")?,
                    },
                    label,
                    saved_at_ms: row.try_get("created_at_ms")?,
                })
            })
            .collect()
    }

    /// How many checks are kept with revision `revision` of design `id`.
    pub async fn check_count(&self, id: &DesignId, revision: u32) -> Result<usize, StoreError> {
        let count: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM asbuilt_checks WHERE design_id = $1 AND revision = $2",
        )
        .bind(id.as_str())
        .bind(i64::from(revision))
        .fetch_one(&self.pool)
        .await?;
        usize::try_from(count).map_err(|_| StoreError::Corrupt(format!("check count {count}")))
    }

    /// What check `number` of design `id` found, or the output it was kept with.
    pub async fn kept_findings(
        &self,
        id: &DesignId,
        number: u32,
    ) -> Result<Option<KeptFindings>, StoreError> {
        let row = sqlx::query(
            "SELECT found, output FROM asbuilt_checks WHERE design_id = $1 AND number = $2",
        )
        .bind(id.as_str())
        .bind(i64::from(number))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let found: String = row.try_get("found")?;
        if found.is_empty() {
            return Ok(Some(KeptFindings::Output(row.try_get("output")?)));
        }
        serde_json::from_str(&found)
            .map(|found| Some(KeptFindings::Found(Box::new(found))))
            .map_err(|e| StoreError::Corrupt(format!("as-built findings: {e}")))
    }
}
