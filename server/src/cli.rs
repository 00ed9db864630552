//! The command line: `serve` (the default), `migrate`, `evaluate`. Every setting comes from a
//! flag or the environment, with defaults that run the app from a checkout.

use app::store::Database;
use clap::{Args, Parser, Subcommand};
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "fabric-planner",
    version,
    about = "Design the network of a GPU cluster before you buy it"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Settings for `serve` when no command is given.
    #[command(flatten)]
    pub serve: ServeConfig,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web application (the default).
    Serve(ServeConfig),
    /// Apply database migrations and exit.
    Migrate(DatabaseConfig),
    /// Evaluate a design spec (JSON) and print the report as JSON.
    Evaluate(EvaluateArgs),
}

#[derive(Debug, Clone, Args)]
pub struct DatabaseConfig {
    /// Where designs are kept: a SQLite file (created, with its folder, if missing) or a
    /// PostgreSQL URL (`postgres://user:password@host/database`).
    #[arg(
        long = "database",
        env = "FABRIC_PLANNER_DATABASE",
        default_value = "data/fabric-planner.db",
        value_parser = parse_database
    )]
    pub database: Database,
}

#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "FABRIC_PLANNER_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub database: DatabaseConfig,
    /// Folder with the built browser bundle (`pkg/`) and public assets, as written by cargo-leptos.
    #[arg(long, env = "FABRIC_PLANNER_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,
    /// Seconds a request may take before it is answered with 408.
    #[arg(long, env = "FABRIC_PLANNER_REQUEST_TIMEOUT", default_value_t = 30)]
    pub request_timeout_secs: u64,
    /// Saves a client (IP address) may make per minute; 0 for no limit.
    #[arg(long, env = "FABRIC_PLANNER_WRITES_PER_MINUTE", default_value_t = 60)]
    pub writes_per_minute: u32,
    /// Saves a client may make at once, above the steady rate.
    #[arg(long, env = "FABRIC_PLANNER_WRITE_BURST", default_value_t = 20)]
    pub write_burst: u32,
}

#[derive(Debug, Clone, Args)]
pub struct EvaluateArgs {
    /// The design spec, as JSON (`-` for standard input).
    pub spec: PathBuf,
    /// Print a short human summary instead of the JSON report.
    #[arg(long)]
    pub summary: bool,
}

fn parse_database(setting: &str) -> Result<Database, String> {
    if setting.trim().is_empty() {
        return Err("give a SQLite file path or a postgres:// URL".to_string());
    }
    Ok(Database::parse(setting))
}
