use clap::Parser;
use server::command::cli::{Cli, Command};
use server::command::serve::{open_store, shutdown_signal, start};
use tracing_subscriber::EnvFilter;

/// The server's allocator (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    let result = match cli.command.unwrap_or(Command::Serve(cli.serve)) {
        Command::Serve(config) => serve(config).await,
        Command::Migrate(database) => open_store(&database.database).await.map(|store| {
            tracing::info!(database = %database.database, "migrations applied");
            drop(store);
        }),
        Command::Evaluate(args) => {
            return std::process::ExitCode::from(server::command::evaluate::run(&args) as u8)
        }
        Command::Search(args) => {
            return std::process::ExitCode::from(server::command::search::run(&args) as u8)
        }
        Command::Handoff(args) => {
            return std::process::ExitCode::from(server::command::handoff::run(&args) as u8)
        }
        Command::Moves(args) => {
            return std::process::ExitCode::from(server::command::moves::run(&args) as u8)
        }
        Command::Fit(args) => {
            return std::process::ExitCode::from(server::command::fit::run(&args) as u8)
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn serve(config: server::command::cli::ServeConfig) -> anyhow::Result<()> {
    let running = start(&config, shutdown_signal()).await?;
    tracing::info!(database = %config.database.database, site_root = %config.site_root.display(), "started");
    println!("Fabric Planner is running at http://{}/", running.addr);
    running.done.await??;
    Ok(())
}
