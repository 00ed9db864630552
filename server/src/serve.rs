//! `fabric-planner serve`: open the store, run migrations, listen, and stop cleanly on
//! Ctrl-C or SIGTERM.

use crate::cli::ServeConfig;
use crate::rate_limit::WriteLimit;
use crate::routes::{leptos_options, router};
use anyhow::Context;
use app::store::{Database, Store};
use std::time::Duration;

/// Opens the configured database (creating a SQLite file and its folder if needed) and brings
/// its schema up to date.
pub async fn open_store(database: &Database) -> anyhow::Result<Store> {
    if let Database::SqliteFile(path) = database {
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("creating the database folder {}", folder.display()))?;
        }
    }
    let store = Store::connect(database)
        .await
        .with_context(|| format!("opening the database: {database}"))?;
    store
        .migrate()
        .await
        .context("applying database migrations")?;
    Ok(store)
}

/// A running server: its address, and a handle that ends when it has shut down.
pub struct Running {
    pub addr: std::net::SocketAddr,
    pub done: tokio::task::JoinHandle<std::io::Result<()>>,
}

/// Binds `config.addr` and serves until `shutdown` completes.
pub async fn start(
    config: &ServeConfig,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<Running> {
    let store = open_store(&config.database.database).await?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("listening on {}", config.addr))?;
    let addr = listener.local_addr()?;
    let options = leptos_options(&config.site_root, addr);
    let app = router(
        store.clone(),
        options,
        Duration::from_secs(config.request_timeout_secs),
        WriteLimit::new(config.writes_per_minute, config.write_burst),
    );
    let done = tokio::spawn(async move {
        let result = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await;
        store.close().await;
        result
    });
    Ok(Running { addr, done })
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
    tracing::info!("shutting down");
}
