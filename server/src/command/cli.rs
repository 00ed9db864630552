//! The command line: `serve` (the default), `migrate`, `evaluate`, `search`, `handoff`, `moves`, `fit`. Every setting comes from a
//! flag or the environment, with defaults that run the app from a checkout.

use crate::public_url::PublicUrl;
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
    /// Search for the cheapest fabrics that meet a design's targets (a search request, or a
    /// design spec searched with the default question) and print the Pareto frontier as JSON.
    Search(SearchArgs),
    /// Write a design's hand-off bundle (cabling, InfiniBand topology, Cumulus NVUE or Arista AVD
    /// switch configuration, NetBox, Slurm, Kubernetes, Graphviz and a README) as one zip file.
    Handoff(HandoffArgs),
    /// Write the move list between a design's growth phases (every cable each step adds, removes
    /// or re-terminates, with both ends, racks and lengths) as CSV.
    Moves(MovesArgs),
    /// Fit a fabric's calibration (its transport's efficiency and network-hop latency) to
    /// nccl-tests outputs measured on the built fabric, and print it as JSON.
    Fit(FitArgs),
}

#[derive(Debug, Clone, Args)]
pub struct FitArgs {
    /// The design spec, as JSON (`-` for standard input).
    pub spec: PathBuf,
    /// The fabric the runs crossed.
    #[arg(long)]
    pub fabric: String,
    /// The output of each nccl-tests run (all_reduce_perf, all_gather_perf,
    /// reduce_scatter_perf), as it printed it.
    #[arg(required = true)]
    pub runs: Vec<PathBuf>,
    /// Print the fit as lines instead of JSON.
    #[arg(long)]
    pub summary: bool,
}

#[derive(Debug, Clone, Args)]
pub struct MovesArgs {
    /// The design spec, as JSON (`-` for standard input).
    pub spec: PathBuf,
    /// Where to write the CSV.
    #[arg(long, short)]
    pub out: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct HandoffArgs {
    /// The design spec, as JSON (`-` for standard input).
    pub spec: PathBuf,
    /// Where to write the zip.
    #[arg(long, short)]
    pub out: PathBuf,
}

#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The search request or design spec, as JSON.
    pub request: PathBuf,
    /// Print the answer and the frontier as lines instead of the JSON result.
    #[arg(long)]
    pub summary: bool,
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
    #[arg(
        long = "request-timeout",
        env = "FABRIC_PLANNER_REQUEST_TIMEOUT",
        default_value_t = 30
    )]
    pub request_timeout_secs: u64,
    /// Saves a client (IP address) may make per minute; 0 for no limit.
    #[arg(long, env = "FABRIC_PLANNER_WRITES_PER_MINUTE", default_value_t = 60)]
    pub writes_per_minute: u32,
    /// Saves a client may make at once, above the steady rate.
    #[arg(long, env = "FABRIC_PLANNER_WRITE_BURST", default_value_t = 20)]
    pub write_burst: u32,
    /// Costly reads (dashboards, evaluations, reports, PDFs, spreadsheets) a client may make per
    /// minute; 0 for no limit.
    #[arg(long, env = "FABRIC_PLANNER_READS_PER_MINUTE", default_value_t = 300)]
    pub reads_per_minute: u32,
    /// Costly reads a client may make at once, above the steady rate.
    #[arg(long, env = "FABRIC_PLANNER_READ_BURST", default_value_t = 100)]
    pub read_burst: u32,
    /// The address users reach the planner at, such as `https://planner.example.com`: links in
    /// reports and PDFs are absolute under it, cross-site checks compare against it, and when it
    /// is https cookies are `__Host-` and `Secure` and responses carry HSTS.
    #[arg(long, env = "FABRIC_PLANNER_PUBLIC_URL", value_parser = PublicUrl::parse)]
    pub public_url: Option<PublicUrl>,
    /// Reverse proxies whose `Forwarded` or `X-Forwarded-For` header names the client
    /// (comma-separated addresses or CIDRs, such as `10.0.0.0/8,::1`). From any other peer
    /// those headers are ignored.
    #[arg(long = "trusted-proxy", env = "FABRIC_PLANNER_TRUSTED_PROXIES", value_delimiter = ',', value_parser = parse_network)]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Seconds a client has to send a request's headers before the connection is closed; also
    /// how long a connection may stay open with no request in flight.
    #[arg(
        long = "header-timeout",
        env = "FABRIC_PLANNER_HEADER_TIMEOUT",
        default_value_t = 10
    )]
    pub header_timeout_secs: u64,
    /// Connections one client address (an IPv6 client by its /64) may hold open at once; a
    /// trusted proxy is not limited. Beyond it new connections are closed at once.
    #[arg(
        long,
        env = "FABRIC_PLANNER_MAX_CONNECTIONS_PER_CLIENT",
        default_value_t = 64
    )]
    pub max_connections_per_client: usize,
    /// Host names (with port where not the scheme's default) that requests may name in `Host`;
    /// others are refused with 421, so that another name pointed at this server (DNS
    /// rebinding) reaches nothing. Comma-separated. Default: the public URL's host, or, without
    /// one, loopback names and addresses (`localhost`, `127.0.0.1`, `[::1]`) and the address
    /// the server listens on.
    #[arg(
        long = "allowed-host",
        env = "FABRIC_PLANNER_ALLOWED_HOSTS",
        value_delimiter = ','
    )]
    pub allowed_hosts: Vec<String>,
    /// Requests served at once; above it a request is answered 503 with Retry-After.
    #[arg(
        long,
        env = "FABRIC_PLANNER_MAX_CONCURRENT_REQUESTS",
        default_value_t = 256
    )]
    pub max_concurrent_requests: usize,
}

impl ServeConfig {
    /// The settings `serve` has by default (and from the environment), listening on `addr` and
    /// keeping designs in `database`.
    pub fn new(addr: SocketAddr, database: Database) -> ServeConfig {
        let mut config = Cli::parse_from(["fabric-planner"]).serve;
        config.addr = addr;
        config.database.database = database;
        config
    }
}

fn parse_network(setting: &str) -> Result<ipnet::IpNet, String> {
    let setting = setting.trim();
    setting
        .parse::<ipnet::IpNet>()
        .or_else(|_| setting.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{setting:?} is not an IP address or CIDR such as 10.0.0.0/8"))
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
