//! `splut data`: data files converted, merged, deduplicated, shuffled.

use super::data_format;
use clap::Args;
use std::path::PathBuf;

/// `splut data` options.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// Data files, text or binary (known by the binary header), read in
    /// order.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The file written (replaced; it may not be an input).
    #[arg(short, long)]
    output: PathBuf,
    /// The output's format: binary (32 bytes a position) or text.
    #[arg(long, default_value = "binary", value_parser = ["binary", "text"])]
    format: String,
    /// Keep only the first of positions met more than once.
    #[arg(long)]
    dedup: bool,
    /// Shuffle the positions with this seed (the same seed, the same
    /// order).
    #[arg(long)]
    shuffle: Option<u64>,
}

/// Converts the data; exit code 2 on an error.
pub fn run(a: DataArgs) -> i32 {
    use crate::datagen::tool::{DataConfig, run};
    let cfg = DataConfig {
        inputs: a.inputs,
        output: a.output,
        format: data_format(&a.format),
        dedup: a.dedup,
        shuffle: a.shuffle,
    };
    match run(&cfg) {
        Ok(r) => {
            let per = r.bytes as f64 / r.written.max(1) as f64;
            eprintln!(
                "read {} positions, dropped {} duplicates, wrote {} to {} ({} bytes, {per:.1} a position{}) in {:.2} s: {:.0} positions/s",
                r.read,
                r.duplicates,
                r.written,
                cfg.output.display(),
                r.bytes,
                if r.renumbered {
                    "; games of several runs numbered afresh as one run, seed 0"
                } else {
                    ""
                },
                r.seconds,
                r.read as f64 / r.seconds.max(1e-9),
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
