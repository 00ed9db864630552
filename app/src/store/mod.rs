//! Persistence of designs (server only): the one module that speaks SQL. Its statements are
//! plain SQL with numbered parameters (`$1`), which SQLite and PostgreSQL both read, run through
//! sqlx's `Any` driver; the configured [`Database`] chooses the backend. Only the connection
//! settings and the migrations (`migrations/` for SQLite, `migrations/postgres/`) differ.

mod asbuilt;
mod baselines;
mod designs;
mod id;
mod key;
mod records;
mod save;

pub use asbuilt::{KeptFindings, NewCheck, StoredCheck, Tool};
pub use baselines::{NewBaseline, StoredBaseline};
pub use designs::{
    DesignHead, Listing, RevisionMeta, SaveOutcome, Sort, StoredRevision, MAX_REVISIONS,
};
pub use id::DesignId;
pub use key::EditKey;
pub use records::{AddOutcome, MAX_RECORDS};
pub use save::{check, check_off_the_workers, Checked, SaveError, MAX_NOTE_CHARS};

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::AnyPool;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Failures of the store. Their text is for logs, never for users.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migration(sqlx::migrate::MigrateError),
    /// A stored row that the engine can no longer read.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
}

/// Where designs are kept, as configured: a SQLite file (the default) or a PostgreSQL server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    SqliteFile(PathBuf),
    /// A `postgres://` (or `postgresql://`) connection URL.
    Postgres(String),
}

impl Database {
    /// Reads a `--database` setting: a PostgreSQL URL, a `sqlite://` URL, or a file path.
    pub fn parse(setting: &str) -> Database {
        if setting.starts_with("postgres://") || setting.starts_with("postgresql://") {
            Database::Postgres(setting.to_string())
        } else {
            let path = setting.strip_prefix("sqlite://").unwrap_or(setting);
            Database::SqliteFile(PathBuf::from(path))
        }
    }
}

/// Describes the database without any password in its URL, for logs and error messages.
impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::SqliteFile(path) => write!(f, "SQLite file {}", path.display()),
            Database::Postgres(url) => {
                // Neither the user information nor the query, where libpq also takes a password.
                let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
                let rest = rest.split(['?', '#']).next().unwrap_or_default();
                let host = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
                write!(f, "PostgreSQL at {host}")
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Backend {
    Sqlite,
    Postgres,
}

/// The design store: a pool of connections to one SQLite file or one PostgreSQL database.
/// Every statement is written once, in SQL that both read; the backend only chooses the
/// connection settings and the migrations.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// Set on every SQLite connection: WAL with `synchronous = FULL`, so a commit is durable once it
/// returns; foreign keys enforced; writers wait for each other instead of failing.
const SQLITE_SETTINGS: &str = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
     PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;";

impl Store {
    /// Opens (creating if missing) the SQLite database at `path`.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        Store::connect(&Database::SqliteFile(path.to_path_buf())).await
    }

    /// Connects to `database`, creating a SQLite file if it is missing.
    pub async fn connect(database: &Database) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let (url, backend) = match database {
            Database::SqliteFile(path) => (
                format!("sqlite://{}?mode=rwc", path.display()),
                Backend::Sqlite,
            ),
            Database::Postgres(url) => (url.clone(), Backend::Postgres),
        };
        let mut options = AnyPoolOptions::new().max_connections(8);
        if backend == Backend::Sqlite {
            options = options.after_connect(|connection, _| {
                Box::pin(async move {
                    use sqlx::Executor;
                    connection.execute(SQLITE_SETTINGS).await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(&url).await?;
        Ok(Store { pool, backend })
    }

    /// Applies every migration not yet applied.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        let migrations = match self.backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrations
            .run(&self.pool)
            .await
            .map_err(StoreError::Migration)
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// The database's own consistency check, then the store's: `"ok"` when both hold. SQLite
    /// checks the whole file (`PRAGMA integrity_check`); PostgreSQL verifies its pages as it
    /// reads them. The store's invariant: each design's latest revision is its highest stored one.
    pub async fn integrity_check(&self) -> Result<String, StoreError> {
        if self.backend == Backend::Sqlite {
            let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
                .fetch_one(&self.pool)
                .await?;
            if verdict != "ok" {
                return Ok(verdict);
            }
        }
        let inconsistent: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM designs WHERE latest_revision <>
             (SELECT MAX(number) FROM revisions WHERE revisions.design_id = designs.id)",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(if inconsistent == 0 {
            "ok".to_string()
        } else {
            format!("{inconsistent} designs whose latest revision is not their highest stored one")
        })
    }
}

/// A stored integer column (64 bits in both databases) as a revision number.
fn revision_number(row: &AnyRow, column: &str) -> Result<u32, StoreError> {
    use sqlx::Row;
    let value: i64 = row.try_get(column)?;
    u32::try_from(value).map_err(|_| StoreError::Corrupt(format!("{column} = {value}")))
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::Database;
    use std::path::PathBuf;

    #[test]
    fn a_database_setting_is_a_postgres_url_or_else_a_sqlite_file() {
        assert_eq!(
            Database::parse("postgres://planner:secret@db.example:5432/fp"),
            Database::Postgres("postgres://planner:secret@db.example:5432/fp".into())
        );
        assert!(matches!(
            Database::parse("postgresql://db/fp"),
            Database::Postgres(_)
        ));
        assert_eq!(
            Database::parse("data/fabric-planner.db"),
            Database::SqliteFile(PathBuf::from("data/fabric-planner.db"))
        );
        assert_eq!(
            Database::parse("sqlite:///srv/fp.db"),
            Database::SqliteFile(PathBuf::from("/srv/fp.db"))
        );
    }

    #[test]
    fn a_described_database_never_shows_its_password() {
        let shown = Database::parse("postgres://planner:secret@db.example:5432/fp").to_string();
        assert_eq!(shown, "PostgreSQL at db.example:5432/fp");
        let shown = Database::parse("postgres://db.example/fp").to_string();
        assert_eq!(shown, "PostgreSQL at db.example/fp");
        let shown =
            Database::parse("postgres://db.example/fp?user=p&password=se@cret&sslmode=require")
                .to_string();
        assert_eq!(shown, "PostgreSQL at db.example/fp");
    }
}
