//! `splut standings`: the standings of any number of records files —
//! the shards of one tournament, or its runs — as the whole tournament
//! prints them at its end.
//!
//! Every file must start with a header of one schedule (see [`header`]);
//! the schedule is rebuilt from it, and each game must be one of it, sit
//! the participants the schedule seats, belong to its file's shard and
//! come once. Games are read one at a time.
//!
//! [`header`]: super::header

use super::header::{self, Header};
use super::record::{RecordReader, validate};
use super::schedule::GameSpec;
use super::standings::Standings;
use std::path::PathBuf;

/// What a merge found.
#[derive(Debug)]
pub struct Merged {
    /// The standings, as the tournament prints them at its end.
    pub report: String,
    /// Games read.
    pub games: usize,
    /// Games the schedule has.
    pub scheduled: usize,
    /// The first scheduled game no file has.
    pub first_missing: Option<usize>,
    /// Games `--check` found invalid.
    pub invalid: usize,
}

/// Merges `files`; with `check` every game is also replayed and judged,
/// each invalid one reported to `on_invalid` (the merge goes on). A file
/// of another schedule, a game twice, a game not in the schedule or its
/// shard, or one that cannot be read is an error.
pub fn merge(
    files: &[PathBuf],
    check: bool,
    on_invalid: &mut dyn FnMut(String),
) -> Result<Merged, String> {
    let mut first: Option<(Header, &PathBuf)> = None;
    let mut schedule: Vec<GameSpec> = Vec::new();
    let mut standings: Option<Standings> = None;
    // Where each game was read: file index and line.
    let mut seen: Vec<Option<(usize, usize)>> = Vec::new();
    let (mut games, mut invalid) = (0usize, 0usize);
    let mut opened: Vec<PathBuf> = Vec::new();
    for (fi, path) in files.iter().enumerate() {
        let shown = path.display();
        // The same file twice would be every game twice.
        if let Ok(real) = std::fs::canonicalize(path) {
            if opened.contains(&real) {
                return Err(format!("{shown} is given twice"));
            }
            opened.push(real);
        }
        let f = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
        let mut input = std::io::BufReader::new(f);
        let (lines, head) = match header::read(&mut input).map_err(|e| format!("{shown}: {e}"))? {
            Some(header::Block {
                lines,
                header: Ok(h),
            }) => (lines, h),
            Some(header::Block { header: Err(e), .. }) => {
                return Err(format!("{shown}: header: {e}"));
            }
            None => {
                return Err(format!(
                    "{shown}: no tournament header (written by an older splut?): \
                     its schedule is unknown"
                ));
            }
        };
        match &first {
            None => {
                schedule = head.schedule().map_err(|e| format!("{shown}: {e}"))?;
                seen = vec![None; schedule.len()];
                standings = Some(Standings::new(head.names.clone(), head.players));
                first = Some((head.clone(), path));
            }
            Some((h, p)) => h
                .same_schedule(&head)
                .map_err(|d| format!("{shown} is not of the tournament of {}: {d}", p.display()))?,
        }
        let Some((h, _)) = &first else {
            continue;
        };
        let Some(st) = standings.as_mut() else {
            continue;
        };
        for game in RecordReader::after_lines(input, lines) {
            let (line, g) = game.map_err(|b| {
                format!("{shown}: {b}: the game cannot be read, so the standings would miss it")
            })?;
            let n = g.number;
            let spec = n
                .checked_sub(1)
                .and_then(|i| schedule.get(i))
                .ok_or_else(|| {
                    format!(
                        "{shown}: game {n} (line {line}) is not in the schedule, \
                         which has games 1 to {}",
                        schedule.len()
                    )
                })?;
            if !head.shard.has(spec.unit) {
                let owner = spec.unit % head.shard.count;
                return Err(format!(
                    "{shown}: game {n} (line {line}) belongs to shard {owner}/{}, \
                     but the file is shard {}",
                    head.shard.count, head.shard
                ));
            }
            // The seats must be the schedule's: the names are what the
            // standings count.
            let want: Vec<&str> = spec.seating.iter().map(|&p| h.names[p].as_str()).collect();
            let got: Vec<&str> = g.seats.iter().map(|(_, name)| name.as_str()).collect();
            if want != got || g.players != h.players {
                return Err(format!(
                    "{shown}: game {n} (line {line}) seats {} where the schedule seats {}",
                    got.join(" "),
                    want.join(" ")
                ));
            }
            let mut placed: Vec<_> = g.places.iter().flatten().copied().collect();
            let mut seats: Vec<_> = g.seats.iter().map(|s| s.0).collect();
            placed.sort();
            seats.sort();
            if placed != seats {
                return Err(format!(
                    "{shown}: game {n} (line {line}): the result does not place each seat once"
                ));
            }
            if let Some((f0, l0)) = seen[n - 1] {
                return Err(format!(
                    "game {n} is twice: in {} (line {l0}) and in {shown} (line {line})",
                    files[f0].display()
                ));
            }
            seen[n - 1] = Some((fi, line));
            if check && let Err(e) = validate(&g) {
                invalid += 1;
                on_invalid(format!("{shown}: game {n} (line {line}): INVALID: {e}"));
            }
            st.add(&g, spec.pair);
            games += 1;
        }
    }
    let (Some((h, _)), Some(st)) = (first, standings) else {
        return Err("no records files".into());
    };
    Ok(Merged {
        report: st.report(h.sprt.as_ref()),
        games,
        scheduled: schedule.len(),
        first_missing: seen.iter().position(Option::is_none).map(|i| i + 1),
        invalid,
    })
}
