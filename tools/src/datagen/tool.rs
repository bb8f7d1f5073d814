//! `splut data`: data files converted (text ⇄ binary), merged, shuffled
//! and deduplicated, for training sets of tens of millions of positions.
//!
//! Every input is read whole (text or binary, known by its header) and
//! checked as it is read; the positions are held as binary records (40
//! bytes each in memory with their seed: 10 million in 400 MB), then
//! deduplicated, shuffled and written.

use super::binary::{BinaryWriter, MAX_GAME, RECORD, decode, encode};
use super::format::Format;
use super::read::read_files_with;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What `splut data` does.
#[derive(Clone, Debug)]
pub struct DataConfig {
    /// The files read, in order.
    pub inputs: Vec<PathBuf>,
    /// The file written (replaced).
    pub output: PathBuf,
    /// Its format.
    pub format: Format,
    /// Drop a position met before (the same position, side to move and
    /// turn state: the same hash), keeping the first.
    pub dedup: bool,
    /// Shuffle with this seed (the same seed, the same order).
    pub shuffle: Option<u64>,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataReport {
    /// Positions read.
    pub read: u64,
    /// Positions dropped as duplicates.
    pub duplicates: u64,
    /// Positions written.
    pub written: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Whether games were numbered afresh (binary output of several runs).
    pub renumbered: bool,
    /// Seconds in all.
    pub seconds: f64,
}

/// Runs `splut data`.
pub fn run(cfg: &DataConfig) -> Result<DataReport, String> {
    let start = Instant::now();
    let out_name = cfg.output.display().to_string();
    for input in &cfg.inputs {
        if same_file(input, &cfg.output) {
            return Err(format!("{out_name} is also an input: write elsewhere"));
        }
    }
    let mut report = DataReport::default();
    let mut records: Vec<(u64, [u8; RECORD])> = Vec::new();
    let mut seen = HashSet::new();
    let mut failed = None;
    read_files_with(&cfg.inputs, &mut |s| {
        report.read += 1;
        if failed.is_some() {
            return;
        }
        if cfg.dedup && !seen.insert(s.position.hash()) {
            report.duplicates += 1;
            return;
        }
        match encode(&s) {
            Ok(r) => records.push((s.seed, r)),
            Err(e) => failed = Some(format!("position {}: {e}", report.read)),
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    drop(seen);
    if let Some(seed) = cfg.shuffle {
        records.shuffle(&mut SmallRng::seed_from_u64(seed));
    }
    if cfg.format == Format::Binary {
        report.renumbered = renumber_runs(&mut records)?;
    }
    write(cfg, &records)?;
    report.written = records.len() as u64;
    report.bytes = std::fs::metadata(&cfg.output).map_or(0, |m| m.len());
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Writes the records to the output in its format.
fn write(cfg: &DataConfig, records: &[(u64, [u8; RECORD])]) -> Result<(), String> {
    let name = cfg.output.display().to_string();
    let fail = |e: &dyn std::fmt::Display| format!("{name}: {e}");
    let file = std::fs::File::create(&cfg.output).map_err(|e| fail(&e))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    match cfg.format {
        Format::Text => {
            for (seed, r) in records {
                let s = decode(r, *seed)?;
                writeln!(out, "{}", s.to_line()).map_err(|e| fail(&e))?;
            }
            out.flush().map_err(|e| fail(&e))
        }
        Format::Binary => {
            let mut w = BinaryWriter::new(out);
            for (seed, r) in records {
                w.write_record(*seed, r).map_err(|e| fail(&e))?;
            }
            w.finish().map(drop).map_err(|e| fail(&e))
        }
    }
}

/// Binary records carry the seed in a header before them: positions of
/// several runs, shuffled together, would need a header each. So their
/// games are numbered afresh as one run (seed 0), each (seed, game) one
/// number in order of first appearance: positions of one game still share
/// a number, which is all a split by game needs. Whether it renumbered.
fn renumber_runs(records: &mut [(u64, [u8; RECORD])]) -> Result<bool, String> {
    let Some(&(first, _)) = records.first() else {
        return Ok(false);
    };
    if records.iter().all(|&(seed, _)| seed == first) {
        return Ok(false);
    }
    let mut numbers: HashMap<(u64, [u8; 3]), u64> = HashMap::new();
    for (seed, r) in records.iter_mut() {
        let game = [r[29], r[30], r[31]];
        let next = numbers.len() as u64 + 1;
        let n = *numbers.entry((*seed, game)).or_insert(next);
        if n > MAX_GAME {
            return Err(format!(
                "more than {MAX_GAME} games: write binary files of fewer runs"
            ));
        }
        *seed = 0;
        r[29..32].copy_from_slice(&n.to_le_bytes()[..3]);
    }
    Ok(true)
}

/// Whether two paths name one file (both existing).
fn same_file(a: &PathBuf, b: &PathBuf) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
