//! Designs and their revisions: create, append, read, list.

use super::{now_ms, revision_number, DesignId, EditKey, Store, StoreError};
use engine::{DesignSpec, Report, ENGINE_VERSION, SPEC_VERSION};
use sqlx::any::AnyRow;
use sqlx::Row;

/// Revisions one design keeps: its history page, its comparisons and its revision list read
/// them, and anyone may make a design and hold its key, so what one design may hold is
/// bounded. A design at the limit is duplicated to go on.
pub const MAX_REVISIONS: u32 = 1_000;

/// What saving a new revision came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveOutcome {
    /// Stored with this revision number.
    Saved(u32),
    /// The design already has [`MAX_REVISIONS`]: nothing written.
    Full,
    /// The design exists and the key is not its edit key (or it has none): nothing written.
    WrongKey,
    /// No design has this id: nothing written.
    NoSuchDesign,
}

/// A design as listed: its newest title and revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DesignHead {
    pub id: String,
    pub title: String,
    pub latest_revision: u32,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// One entry of a design's history.
#[derive(Debug, Clone, PartialEq)]
pub struct RevisionMeta {
    pub number: u32,
    pub title: String,
    pub note: String,
    pub engine_version: String,
    pub saved_at_ms: i64,
}

/// One stored revision, whole.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRevision {
    pub number: u32,
    pub spec: DesignSpec,
    /// The report as the engine of `engine_version` computed it when saved; `None` when
    /// today's engine can no longer read that snapshot, or when the spec's names were mapped to
    /// today's rules (the snapshot names them as they were).
    pub report: Option<Report>,
    pub engine_version: String,
    pub note: String,
    pub saved_at_ms: i64,
}

impl StoredRevision {
    /// The revision's report: its snapshot, or today's engine's when the snapshot can no
    /// longer be read.
    pub fn report_or_today(&self) -> Result<Report, engine::SpecErrors> {
        match &self.report {
            Some(report) => Ok(report.clone()),
            None => engine::evaluate(&self.spec),
        }
    }
}

/// The designs a browser holds keys for, as listed on "My designs".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub designs: Vec<DesignHead>,
}

/// The order of a list of designs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    #[default]
    NewestFirst,
    OldestFirst,
    Title,
}

impl Sort {
    pub fn parse(text: &str) -> Sort {
        match text {
            "oldest" => Sort::OldestFirst,
            "title" => Sort::Title,
            _ => Sort::NewestFirst,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Sort::NewestFirst => "newest",
            Sort::OldestFirst => "oldest",
            Sort::Title => "title",
        }
    }
}

/// Most keys one listing looks up (a browser holds one cookie per design, and browsers keep
/// a few hundred cookies per site at most).
pub const MAX_LISTED_KEYS: usize = 500;

pub(super) fn json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

impl Store {
    /// Stores a new design with `spec` as its first revision, in one transaction, and returns
    /// its id and the edit key (which is never stored, only its hash).
    pub(super) async fn create_design(
        &self,
        spec: &DesignSpec,
        report: &Report,
        note: &str,
    ) -> Result<(DesignId, EditKey), StoreError> {
        let id = DesignId::random();
        let key = EditKey::random();
        let now = now_ms();
        let revision = Written::new(spec, report, note)?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO designs (id, title, created_at_ms, edit_key_hash, latest_revision, updated_at_ms)
             VALUES ($1, $2, $3, $4, 1, $3)",
        )
        .bind(id.as_str())
        .bind(&spec.title)
        .bind(now)
        .bind(key.hash())
        .execute(&mut *tx)
        .await?;
        insert_revision(&mut tx, &id, 1, &revision, now).await?;
        tx.commit().await?;
        Ok((id, key))
    }

    /// Appends a revision to design `id` if `key` is its edit key, in one transaction. The
    /// first statement takes the write lock, so concurrent saves queue and number in order.
    pub(super) async fn save_revision(
        &self,
        id: &DesignId,
        key: &EditKey,
        spec: &DesignSpec,
        report: &Report,
        note: &str,
    ) -> Result<SaveOutcome, StoreError> {
        let now = now_ms();
        let revision = Written::new(spec, report, note)?;
        let mut tx = self.pool.begin().await?;
        let number: Option<i64> = sqlx::query_scalar(
            "UPDATE designs SET latest_revision = latest_revision + 1, updated_at_ms = $1, title = $2
             WHERE id = $3 AND edit_key_hash = $4
             RETURNING latest_revision",
        )
        .bind(now)
        .bind(&spec.title)
        .bind(id.as_str())
        .bind(key.hash())
        .fetch_optional(&mut *tx)
        .await?;
        let Some(number) = number else {
            let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM designs WHERE id = $1")
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            tx.rollback().await?;
            return Ok(if exists.is_some() {
                SaveOutcome::WrongKey
            } else {
                SaveOutcome::NoSuchDesign
            });
        };
        if number > i64::from(MAX_REVISIONS) {
            tx.rollback().await?;
            return Ok(SaveOutcome::Full);
        }
        insert_revision(&mut tx, id, number, &revision, now).await?;
        tx.commit().await?;
        let number = u32::try_from(number)
            .map_err(|_| StoreError::Corrupt(format!("revision number {number}")))?;
        Ok(SaveOutcome::Saved(number))
    }

    /// Whether `key` is the edit key of design `id`.
    pub async fn holds_key(&self, id: &DesignId, key: &EditKey) -> Result<bool, StoreError> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM designs WHERE id = $1 AND edit_key_hash = $2")
                .bind(id.as_str())
                .bind(key.hash())
                .fetch_optional(&self.pool)
                .await?;
        Ok(found.is_some())
    }

    /// The design `id`, if it exists.
    pub async fn design(&self, id: &DesignId) -> Result<Option<DesignHead>, StoreError> {
        let row = sqlx::query(
            "SELECT id, title, latest_revision, created_at_ms, updated_at_ms FROM designs WHERE id = $1",
        )
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| head(&r)).transpose()
    }

    /// Every revision of design `id`, newest first (empty when there is no such design).
    pub async fn revisions(&self, id: &DesignId) -> Result<Vec<RevisionMeta>, StoreError> {
        let rows = sqlx::query(
            "SELECT number, title, note, engine_version, created_at_ms FROM revisions
             WHERE design_id = $1 ORDER BY number DESC",
        )
        .bind(id.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RevisionMeta {
                    number: revision_number(row, "number")?,
                    title: row.try_get("title")?,
                    note: row.try_get("note")?,
                    engine_version: row.try_get("engine_version")?,
                    saved_at_ms: row.try_get("created_at_ms")?,
                })
            })
            .collect()
    }

    /// Revision `number` of design `id`, or its newest when `number` is `None`.
    pub async fn revision(
        &self,
        id: &DesignId,
        number: Option<u32>,
    ) -> Result<Option<StoredRevision>, StoreError> {
        let query = match number {
            Some(n) => sqlx::query(
                "SELECT number, spec_json, report_json, engine_version, note, created_at_ms
                 FROM revisions WHERE design_id = $1 AND number = $2",
            )
            .bind(id.as_str())
            .bind(i64::from(n)),
            None => sqlx::query(
                "SELECT number, spec_json, report_json, engine_version, note, created_at_ms
                 FROM revisions WHERE design_id = $1 ORDER BY number DESC LIMIT 1",
            )
            .bind(id.as_str()),
        };
        let Some(row) = query.fetch_optional(&self.pool).await? else {
            return Ok(None);
        };
        let spec_json: String = row.try_get("spec_json")?;
        let (spec, mapped) = DesignSpec::from_stored_json(&spec_json)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        // A spec saved under earlier name rules is read with its names mapped; the report saved
        // with it still has the old ones, and is not used (today's engine makes it again).
        let report_json: String = row.try_get("report_json")?;
        let report = (!mapped)
            .then(|| serde_json::from_str(&report_json).ok())
            .flatten();
        Ok(Some(StoredRevision {
            number: revision_number(&row, "number")?,
            spec,
            report,
            engine_version: row.try_get("engine_version")?,
            note: row.try_get("note")?,
            saved_at_ms: row.try_get("created_at_ms")?,
        }))
    }

    /// The designs among `keys` whose edit key the browser really holds, whose title contains
    /// `search` (ignoring case), in `sort` order. Looks up at most [`MAX_LISTED_KEYS`] keys,
    /// each by primary key.
    pub async fn owned_designs(
        &self,
        keys: &[(DesignId, EditKey)],
        search: &str,
        sort: Sort,
    ) -> Result<Listing, StoreError> {
        let keys = &keys[..keys.len().min(MAX_LISTED_KEYS)];
        if keys.is_empty() {
            return Ok(Listing { designs: vec![] });
        }
        let placeholders: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id, title, latest_revision, created_at_ms, updated_at_ms, edit_key_hash
             FROM designs WHERE id IN ({})",
            placeholders.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for (id, _) in keys {
            query = query.bind(id.as_str());
        }
        let rows = query.fetch_all(&self.pool).await?;
        // Each key hashed once; a browser may send several keys for one id.
        let held: std::collections::HashSet<(&str, String)> =
            keys.iter().map(|(i, k)| (i.as_str(), k.hash())).collect();
        let search = search.trim().to_lowercase();
        let mut designs = Vec::with_capacity(rows.len());
        for row in &rows {
            let id: String = row.try_get("id")?;
            let hash: Option<String> = row.try_get("edit_key_hash")?;
            let held = hash.is_some_and(|h| held.contains(&(id.as_str(), h)));
            let design = head(row)?;
            if held && design.title.to_lowercase().contains(&search) {
                designs.push(design);
            }
        }
        match sort {
            Sort::NewestFirst => designs.sort_by_key(|d| std::cmp::Reverse(d.updated_at_ms)),
            Sort::OldestFirst => designs.sort_by_key(|d| d.updated_at_ms),
            Sort::Title => designs.sort_by_key(|d| d.title.to_lowercase()),
        }
        Ok(Listing { designs })
    }

    /// Number of stored designs (for tests and health checks).
    pub async fn design_count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM designs")
            .fetch_one(&self.pool)
            .await?)
    }

    /// Number of stored revisions of all designs.
    pub async fn revision_count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM revisions")
            .fetch_one(&self.pool)
            .await?)
    }
}

/// A revision as it is stored: its spec and report as JSON, and the spec's title on its own,
/// which the design's history lists without reading the spec.
struct Written<'a> {
    spec_json: String,
    title: &'a str,
    report_json: String,
    note: &'a str,
}

impl<'a> Written<'a> {
    fn new(spec: &'a DesignSpec, report: &Report, note: &'a str) -> Result<Self, StoreError> {
        Ok(Written {
            spec_json: json(spec)?,
            title: &spec.title,
            report_json: json(report)?,
            note,
        })
    }
}

async fn insert_revision(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &DesignId,
    number: i64,
    revision: &Written<'_>,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO revisions (design_id, number, schema_version, spec_json, title, engine_version, report_json, note, created_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(id.as_str())
    .bind(number)
    .bind(i64::from(SPEC_VERSION))
    .bind(&revision.spec_json)
    .bind(revision.title)
    .bind(ENGINE_VERSION)
    .bind(&revision.report_json)
    .bind(revision.note)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn head(row: &AnyRow) -> Result<DesignHead, StoreError> {
    Ok(DesignHead {
        id: row.try_get("id")?,
        title: row.try_get("title")?,
        latest_revision: revision_number(row, "latest_revision")?,
        created_at_ms: row.try_get("created_at_ms")?,
        updated_at_ms: row.try_get("updated_at_ms")?,
    })
}
