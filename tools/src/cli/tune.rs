//! `splut tune`: the hand-written evaluation's weights fitted to data.

use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `splut tune` options.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data files from `splut datagen` (any number; they concatenate).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Only the samples with this many seats in the game (2, 3 or 4);
    /// default: every sample.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: Option<u8>,
    /// Start from these weights (a parameter file, as `EvalFile` loads;
    /// its section for `--players`, or for 2) instead of the compiled-in
    /// ones.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Tune only these weights (comma-separated flat names, e.g.
    /// `dwarf,troll_near_rock.0`); default: all.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Most passes over the weights (1 to 1000).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_passes: u64,
    /// The sigmoid's and softmax's scale in centi-units; default: fitted
    /// to the starting weights and kept.
    #[arg(long)]
    scale: Option<f64>,
    /// How positions with 3-4 seats in the game predict the outcome:
    /// `pairs` (every two seats: who finishes ahead) or `softmax` (who
    /// wins).
    #[arg(long, default_value = "pairs")]
    model: crate::tune::Model,
    /// Where the tuned weights go (with `--players`, as that count's
    /// `players <n>` section).
    #[arg(short, long, default_value = "tuned.txt")]
    output: PathBuf,
}

/// Reads the data, tunes, prints the report and writes the weights; exit
/// code 2 on an error.
pub fn run(a: &TuneArgs) -> i32 {
    let result = (|| -> Result<String, String> {
        let start = match &a.start {
            // Read as `EvalFile` reads it: an empty file, or one naming
            // no weight, is refused rather than taken as the defaults.
            Some(path) => splut_engine::eval::EvalSet::from_file(&path.to_string_lossy())
                .map_err(|e| e.to_string())?
                .for_players(a.players.map_or(2, u32::from))
                .clone(),
            None => splut_engine::eval::EvalParams::default(),
        };
        let samples = crate::datagen::read_files(&a.files)?;
        let data: Vec<crate::tune::Prepared> = samples
            .iter()
            .filter(|s| {
                a.players
                    .is_none_or(|n| s.position.players_left() == u32::from(n))
            })
            .filter_map(|s| crate::tune::Prepared::new(s, a.model))
            .collect();
        eprintln!("{} samples read, {} used", samples.len(), data.len());
        let cfg = crate::tune::Config {
            only: a.only.clone(),
            max_passes: a.max_passes as usize,
            scale: a.scale,
        };
        let o = crate::tune::tune(&data, &start, &cfg, &mut |pass, loss| {
            eprintln!("pass {pass}: loss {loss:.6}");
        })?;
        // Weights fitted to one count of seats are written as its section.
        let text = match a.players {
            Some(n) => format!("players {n}\n{}", o.params.to_text()),
            None => o.params.to_text(),
        };
        std::fs::write(&a.output, text).map_err(|e| format!("{}: {e}", a.output.display()))?;
        Ok(format!(
            "{}tuned weights written to {}\n",
            crate::tune::report(&o, data.len()),
            a.output.display()
        ))
    })();
    match result {
        Ok(text) => {
            let _ = std::io::stdout().write_all(text.as_bytes());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
