//! `splut gui`: its options turned into the table server's configuration
//! ([`splut_server::Config`]); the server is the crate `splut-server`.

use clap::Args;
use std::path::PathBuf;

/// `splut gui` options.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port to listen on; 0 takes any free port.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. Anything but a loopback address lets other
    /// machines play on this one.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// A name the server is reached by besides its address (a DNS name,
    /// or a proxy's), like `splut.example.org` or
    /// `splut.example.org:443`: accepted in the Host and Origin headers
    /// (`http://` and `https://`). May be given more than once.
    #[arg(long, value_name = "NAME")]
    public_name: Vec<String>,
    /// The engine: any program that speaks the protocol, with its
    /// arguments, started for each game. Default: the engine in this
    /// process, its searches in a shared pool (`--searches`).
    #[arg(long)]
    engine: Option<String>,
    /// Most searches at once of the in-process engine seats, the others
    /// waiting their turn (1 to 256; default: the machine's cores). Not
    /// with `--engine`.
    #[arg(long, value_name = "N", conflicts_with = "engine", value_parser = clap::value_parser!(u64).range(1..=256))]
    searches: Option<u64>,
    /// Most games at once (1 to 1000; default 8).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_games: u64,
    /// Open the default browser at the page.
    #[arg(long)]
    open: bool,
    /// Seconds after which a game nobody looks at is closed and its
    /// engine stopped (1 to 86400).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    abandon_after: u64,
    /// Milliseconds the engine waits between the steps of its turn, so
    /// each piece can be seen moving (0 to 5000; 0 plays at full speed).
    #[arg(long, value_name = "MS", default_value_t = 350, value_parser = clap::value_parser!(u64).range(0..=5_000))]
    step_pause: u64,
    /// SQLite file the games are kept in (made if missing): each step is
    /// written before it is acknowledged, and unfinished games resume
    /// when the server starts again on the file. Default: kept in memory
    /// only, lost when the server stops.
    #[arg(long, value_name = "FILE")]
    db: Option<PathBuf>,
    /// When a step written to --db is acknowledged: `disk`, once synced
    /// to the disk (it survives a power cut); `os`, once the operating
    /// system has it (it survives the server's crash or kill -9, not a
    /// power cut), no sync waited for: faster where syncs are slow.
    #[arg(long, value_name = "WHERE", default_value = "disk", value_parser = ["disk", "os"])]
    db_sync: String,
}

/// Starts the GUI's server; exit code 2 if it cannot.
pub fn run(a: GuiArgs) -> i32 {
    if let Some(e) = a
        .public_name
        .iter()
        .find_map(|n| splut_server::http::check_public_name(n).err())
    {
        eprintln!("error: {e}");
        return 2;
    }
    let engine = match &a.engine {
        Some(cmd) => match splut_server::split_command(cmd) {
            Ok(words) => words,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        },
        None => match std::env::current_exe() {
            Ok(exe) => vec![exe.to_string_lossy().into_owned()],
            Err(e) => {
                eprintln!("error: cannot find this program: {e}");
                return 2;
            }
        },
    };
    // Without --engine the seats play in this process; hints and reviews
    // still start this program (the analyst).
    let searches = match (&a.engine, a.searches) {
        (Some(_), _) => None,
        (None, n) => Some(n.map_or_else(splut_server::pool::Pool::cores, |n| n as usize)),
    };
    splut_server::run(splut_server::Config {
        host: a.host,
        public_names: a.public_name,
        port: a.port,
        engine,
        searches,
        max_games: a.max_games as usize,
        open: a.open,
        abandon_after: std::time::Duration::from_secs(a.abandon_after),
        step_pause: std::time::Duration::from_millis(a.step_pause),
        db: a.db,
        db_sync: a.db_sync == "disk",
    })
}
