//! Persistence of designs (server only). The one module that speaks SQL.

mod id;

pub use id::DesignId;

use crate::design::{SavedDesign, StoredDesign};
use engine::{DesignSpec, Report, ENGINE_VERSION, SPEC_VERSION};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::{Row, SqlitePool};
use std::path::Path;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

/// Failures of the store. Their text is for logs, never for users.
#[derive(Debug)]
pub enum StoreError {
    Database(sqlx::Error),
    Migration(sqlx::migrate::MigrateError),
    /// A stored row that the engine can no longer read.
    Corrupt(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Database(e) => write!(f, "database: {e}"),
            StoreError::Migration(e) => write!(f, "migration: {e}"),
            StoreError::Corrupt(e) => write!(f, "stored data unreadable: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e)
    }
}

/// The design store: a pool of connections to one SQLite file.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

impl Store {
    /// Opens (creating if missing) the SQLite database at `path`, in WAL mode with foreign keys on.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        let url = format!("sqlite://{}", path.display());
        let options = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .foreign_keys(true)
            .busy_timeout(std::time::Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        Ok(Store { pool })
    }

    /// Applies every migration not yet applied.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        MIGRATOR
            .run(&self.pool)
            .await
            .map_err(StoreError::Migration)
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Stores a new design with `spec` as its first revision, in one transaction.
    pub async fn create_design(
        &self,
        spec: &DesignSpec,
        report: &Report,
    ) -> Result<SavedDesign, StoreError> {
        let id = DesignId::random();
        let now = now_ms();
        let spec_json =
            serde_json::to_string(spec).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let report_json =
            serde_json::to_string(report).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO designs (id, title, created_at_ms) VALUES (?, ?, ?)")
            .bind(id.as_str())
            .bind(&spec.title)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO revisions (design_id, number, schema_version, spec_json, engine_version, report_json, created_at_ms)
             VALUES (?, 1, ?, ?, ?, ?, ?)",
        )
        .bind(id.as_str())
        .bind(SPEC_VERSION)
        .bind(&spec_json)
        .bind(ENGINE_VERSION)
        .bind(&report_json)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(SavedDesign {
            id: id.as_str().to_string(),
            revision: 1,
        })
    }

    /// The newest revision of design `id`, if the design exists.
    pub async fn latest_revision(&self, id: &DesignId) -> Result<Option<StoredDesign>, StoreError> {
        let row = sqlx::query(
            "SELECT number, spec_json, engine_version, created_at_ms FROM revisions
             WHERE design_id = ? ORDER BY number DESC LIMIT 1",
        )
        .bind(id.as_str())
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let spec_json: String = row.try_get("spec_json")?;
        let spec =
            DesignSpec::from_json(&spec_json).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        Ok(Some(StoredDesign {
            id: id.as_str().to_string(),
            revision: row.try_get::<u32, _>("number")?,
            spec,
            engine_version: row.try_get("engine_version")?,
            saved_at_ms: row.try_get("created_at_ms")?,
        }))
    }

    /// Number of stored designs (for tests and health checks).
    pub async fn design_count(&self) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM designs")
            .fetch_one(&self.pool)
            .await?)
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
