//! `splut standings`: records files of one tournament (or, pooled, of
//! several runs of the same participants) merged, judged and ranked.

use crate::tournament::merge::Merged;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `splut standings` options.
#[derive(Args, Debug)]
pub struct StandingsArgs {
    /// Replay and judge every game: the default (kept for older
    /// scripts).
    #[arg(long, overrides_with = "no_check")]
    check: bool,
    /// Do not replay the games (faster for very large merges): an
    /// edited result, step or reason is then counted as it stands.
    /// Still refused: files of another tournament, edited headers,
    /// games twice, games not scheduled or in another shard's file,
    /// seats other than the schedule's, results that do not place
    /// each seat once, and games that cannot be read.
    #[arg(long, overrides_with = "check")]
    no_check: bool,
    /// Print the standings of the valid games found even when games
    /// are missing or invalid; missing games then exit with 0.
    #[arg(long)]
    partial: bool,
    /// Pool tournaments of the same participants (runs with other seeds
    /// or rounds): every game counted as one tournament's, each run
    /// checked for missing games on its own. The participants must be
    /// the same (players, names, engines, options, time controls); no
    /// SPRT is shown.
    #[arg(long)]
    pool: bool,
    /// The records files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Records files of a second tournament that plays the same games
    /// (the same seed, openings, rounds and seatings, as many
    /// participants), to compare the first participant of each game by
    /// game: printed after the standings, the difference of their place
    /// points with its 95% interval.
    #[arg(long, num_args = 1.., value_name = "FILES")]
    vs: Vec<PathBuf>,
}

/// Runs `splut standings` on its options.
pub fn run(a: StandingsArgs) -> i32 {
    let check = !a.no_check;
    let (code, merged) = run_standings(&a.files, check, a.partial, a.pool);
    let Some(ours) = merged.filter(|_| !a.vs.is_empty()) else {
        return code;
    };
    match paired(&a, &ours, check) {
        Ok(report) => {
            let _ = std::io::stdout().write_all(report.as_bytes());
            let _ = std::io::stdout().flush();
            code
        }
        Err(e) => {
            eprintln!("error: --vs: {e}");
            2
        }
    }
}

/// The paired comparison of `--vs`: A's merged files against B's, merged
/// as the standings merge them.
fn paired(a: &StandingsArgs, ours: &Merged, check: bool) -> Result<String, String> {
    let mut quiet = |_: String| {};
    let theirs = crate::tournament::merge::merge(&a.vs, check, a.pool, &mut quiet)?;
    if (theirs.missing > 0 || theirs.invalid > 0) && !a.partial {
        return Err(format!(
            "B's files miss {} games and hold {} invalid ones; --partial compares \
             the valid games both have",
            theirs.missing, theirs.invalid
        ));
    }
    let p = crate::tournament::paired::Paired::of(ours, &theirs)?;
    let names: Vec<String> = a.vs.iter().map(|f| f.display().to_string()).collect();
    Ok(p.report(&names.join(" ")))
}

/// Merges records files (with `pool`, of several tournaments of the same
/// participants) and prints their standings (when complete and valid, or
/// with `partial`); exit code 1 if a game is invalid, 2 if the files were
/// refused, 3 if games are missing (without `partial`); and the merge,
/// when its standings were printed.
fn run_standings(
    files: &[PathBuf],
    check: bool,
    partial: bool,
    pool: bool,
) -> (i32, Option<Merged>) {
    let mut on_invalid = |line: String| eprintln!("{line}");
    let m = match crate::tournament::merge::merge(files, check, pool, &mut on_invalid) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return (2, None);
        }
    };
    let complete = m.missing == 0 && m.invalid == 0;
    if complete || partial {
        // Only the standings on stdout: they compare byte for byte with
        // the whole tournament's.
        // A closed pipe (`| head`) is no reason to panic.
        let _ = std::io::stdout().write_all(m.report.as_bytes());
        let _ = std::io::stdout().flush();
    }
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    if m.tournaments.len() > 1 {
        eprintln!(
            "pooled {} (seeds {})",
            plural(m.tournaments.len(), "tournament"),
            m.tournaments.join(", ")
        );
    }
    eprintln!(
        "{}, {} of the {} scheduled games",
        plural(files.len(), "file"),
        m.games,
        m.scheduled
    );
    if m.missing > 0 {
        eprintln!("missing {}:", plural(m.missing, "game"));
        for line in &m.missing_report {
            eprintln!("  {line}");
        }
    }
    if check {
        eprintln!(
            "checked: {} valid, {} invalid",
            m.games - m.invalid,
            m.invalid
        );
    } else {
        eprintln!(
            "not checked (--no-check): the games were not replayed, \
             so an edited result, step or reason is counted as it stands"
        );
    }
    let mut gaps = Vec::new();
    if m.missing > 0 {
        gaps.push(plural(m.missing, "missing game"));
    }
    if m.invalid > 0 {
        gaps.push(format!(
            "{} (listed above)",
            plural(m.invalid, "invalid game")
        ));
    }
    if !complete {
        let gaps = gaps.join(" and ");
        if partial {
            eprintln!("partial standings: without {gaps}");
        } else {
            eprintln!(
                "error: no standings printed: {gaps}; --partial prints the standings \
                 of the {} {}games found",
                m.games - m.invalid,
                if check { "valid " } else { "" }
            );
        }
    }
    let code = if m.invalid > 0 {
        1
    } else if m.missing > 0 && !partial {
        3
    } else {
        0
    };
    (code, (complete || partial).then_some(m))
}
