//! `fabric-planner serve`: open the store, run migrations, listen, and stop cleanly on
//! Ctrl-C or SIGTERM.

use crate::command::cli::ServeConfig;
use crate::middleware::client::TrustedProxies;
use crate::middleware::connections::Connections;
use crate::middleware::csrf::AllowedHosts;
use crate::middleware::rate_limit::{Limit, Limits};
use crate::routes::{leptos_options, router, Settings};
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
    if config.public_url.as_ref().is_some_and(|u| u.is_https()) {
        app::ownership::use_secure_cookies();
    }
    let limits = Limits {
        writes: Limit::new(config.writes_per_minute, config.write_burst),
        computes: Limit::new(config.reads_per_minute, config.read_burst),
    };
    let pruning = limits.prune_every_minute();
    let app = router(
        store.clone(),
        options,
        Settings {
            request_timeout: Duration::from_secs(config.request_timeout_secs),
            limits,
            public_url: config.public_url.clone(),
            trusted_proxies: TrustedProxies::new(config.trusted_proxies.clone()),
            max_concurrent_requests: config.max_concurrent_requests,
            allowed_hosts: AllowedHosts::new(&config.allowed_hosts, config.public_url.as_ref()),
        },
    );
    let connections = Connections {
        header_timeout: Duration::from_secs(config.header_timeout_secs.max(1)),
        max_open: config.max_concurrent_requests.max(1) * CONNECTIONS_PER_REQUEST_SLOT,
        max_per_client: config.max_connections_per_client.max(1),
        trusted_proxies: TrustedProxies::new(config.trusted_proxies.clone()),
    };
    let done = tokio::spawn(async move {
        let result = connections.serve(listener, app, shutdown).await;
        pruning.abort();
        store.close().await;
        result
    });
    Ok(Running { addr, done })
}

/// Open connections allowed per request served at once: idle keep-alive connections
/// outnumber busy ones.
const CONNECTIONS_PER_REQUEST_SLOT: usize = 4;

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
