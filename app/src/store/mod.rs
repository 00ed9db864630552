//! Persistence of designs (server only): the one module that speaks SQL. Its statements are
//! plain SQL with numbered parameters (`$1`), which SQLite and PostgreSQL both read; only
//! [`Store::open`] (file, WAL, foreign keys) is SQLite's own.

mod designs;
mod id;
mod key;

pub use designs::{DesignHead, Listing, RevisionMeta, SaveOutcome, Sort, StoredRevision};
pub use id::DesignId;
pub use key::EditKey;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
use sqlx::SqlitePool;
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
    /// Opens (creating if missing) the SQLite database at `path`, in WAL mode with foreign keys
    /// on. A commit is durable once it returns: WAL with `synchronous = FULL`.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        let url = format!("sqlite://{}", path.display());
        let options = SqliteConnectOptions::from_str(&url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(sqlx::sqlite::SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(std::time::Duration::from_secs(10));
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

    /// SQLite's own check of the database file: `"ok"` when it is sound.
    pub async fn integrity_check(&self) -> Result<String, StoreError> {
        Ok(sqlx::query_scalar("PRAGMA integrity_check")
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
