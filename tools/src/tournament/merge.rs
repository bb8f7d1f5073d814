//! `splut standings`: the standings of any number of records files —
//! the shards of one tournament, or its runs — as the whole tournament
//! prints them at its end; with `pool`, of several tournaments of the
//! same participants (runs with other seeds or rounds) counted as one.
//!
//! Every file must start with a header of one schedule (see [`header`]);
//! the schedule is rebuilt from it, and each game must be one of it, sit
//! the participants the schedule seats, belong to its file's shard and
//! come once. Games are read one at a time. With `check` each game is
//! also replayed and judged, and an invalid one is left out of the
//! standings. The scheduled games no file has are described by shard
//! where the headers tell which shard owns them.
//!
//! Pooled tournaments must have the same players and the same
//! participant lines (names, engines, options, time controls): only
//! what decides the games' openings and count may differ. Each keeps
//! its own schedule and its own check for missing games; a game pair
//! (2 players) never spans two of them.
//!
//! [`header`]: super::header

use super::header::{self, Header};
use super::schedule::{GameSpec, Shard};
use super::standings::Standings;
use splut_play::record::{GameRecord, RecordReader, validate_at};
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// What a merge found.
#[derive(Debug)]
pub struct Merged {
    /// The standings of the games found that are valid (all of them
    /// without `check`), as the tournament prints them at its end.
    pub report: String,
    /// Those standings themselves, and the participants' names.
    pub standings: Standings,
    /// Games read.
    pub games: usize,
    /// Games the schedule has.
    pub scheduled: usize,
    /// Games found invalid by `check`, left out of `report`.
    pub invalid: usize,
    /// Scheduled games no file has.
    pub missing: usize,
    /// The seed of each tournament read (more than one only when
    /// pooled; `?` for a header without one), in the order their first
    /// files came.
    pub tournaments: Vec<String>,
    /// Every missing game, one line per shard when all files are shards
    /// of one count (`shard 1/3 (no file given): all its 4 games: 3-4,
    /// 9-10`), else one line of game numbers.
    pub missing_report: Vec<String>,
    /// Each tournament's games for a paired comparison
    /// ([`super::paired`]), in the order of `tournaments`.
    pub points: Vec<RunPoints>,
}

/// One tournament's games as a paired comparison reads them: its
/// header (which games it plays, [`Header::same_games`]), and its first
/// participant's points in each.
#[derive(Clone, Debug)]
pub struct RunPoints {
    /// Its first file's header.
    pub header: Header,
    /// Per scheduled game, the first participant's place points, when
    /// it sat in the game and the game was read (and found valid).
    pub first: Vec<Option<f64>>,
}

/// One tournament's part of a merge: its schedule and the games read.
struct Run {
    /// Its first file's header: every other file of the run must be of
    /// its schedule.
    header: Header,
    schedule: Vec<GameSpec>,
    /// Where each game was read: file index and line.
    seen: Vec<Option<(usize, usize)>>,
    /// Its files, the first first: shard and file index.
    files: Vec<(Shard, usize)>,
    /// Per scheduled game, the first participant's place points.
    first: Vec<Option<f64>>,
}

impl Run {
    /// What a paired comparison reads of it.
    fn points(&self) -> RunPoints {
        RunPoints {
            header: self.header.clone(),
            first: self.first.clone(),
        }
    }

    /// Its seed as the header gives it (`?` if none).
    fn seed(&self) -> String {
        self.header
            .seed()
            .map_or_else(|| "?".to_string(), |s| s.to_string())
    }
}

/// The state of a merge as files are read.
struct Merge<'a> {
    files: &'a [PathBuf],
    /// Whether files of other tournaments of the same participants are
    /// pooled (else they are refused).
    pool: bool,
    /// The tournaments, in the order their first files came.
    runs: Vec<Run>,
    standings: Option<Standings>,
    games: usize,
    invalid: usize,
}

/// Merges `files`; with `check` every game is also replayed and judged,
/// each invalid one reported to `on_invalid` and left out of the
/// standings (the merge goes on). A file of another schedule (with
/// `pool`, of other participants), a game twice, a game not in the
/// schedule or its shard, or one that cannot be read is an error.
pub fn merge(
    files: &[PathBuf],
    check: bool,
    pool: bool,
    on_invalid: &mut dyn FnMut(String),
) -> Result<Merged, String> {
    let mut m = Merge {
        files,
        pool,
        runs: Vec::new(),
        standings: None,
        games: 0,
        invalid: 0,
    };
    let mut opened: Vec<PathBuf> = Vec::new();
    for (fi, path) in files.iter().enumerate() {
        // The same file twice would be every game twice.
        if let Ok(real) = std::fs::canonicalize(path) {
            if opened.contains(&real) {
                return Err(format!("{} is given twice", path.display()));
            }
            opened.push(real);
        }
        let (head, lines, input) = open(path)?;
        let run = m.take_header(fi, &head)?;
        m.read_games(
            fi,
            run,
            &head,
            RecordReader::after_lines(input, lines),
            check,
            on_invalid,
        )?;
    }
    let (Some(first), Some(st)) = (m.runs.first(), &m.standings) else {
        return Err("no records files".into());
    };
    // A sequential test belongs to one tournament: pooled, none is shown.
    let sprt = if m.runs.len() == 1 {
        first.header.sprt.as_ref()
    } else {
        None
    };
    let mut missing_report = Vec::new();
    for run in &m.runs {
        let on_files: Vec<(Shard, &Path)> = run
            .files
            .iter()
            .map(|&(s, fi)| (s, files[fi].as_path()))
            .collect();
        let lines = describe_missing(&run.schedule, &run.seen, &on_files);
        if m.runs.len() > 1 {
            let seed = run.seed();
            missing_report.extend(lines.into_iter().map(|l| format!("seed {seed}: {l}")));
        } else {
            missing_report.extend(lines);
        }
    }
    Ok(Merged {
        report: st.report(sprt),
        standings: st.clone(),
        games: m.games,
        scheduled: m.runs.iter().map(|r| r.schedule.len()).sum(),
        invalid: m.invalid,
        missing: m
            .runs
            .iter()
            .map(|r| r.seen.iter().filter(|s| s.is_none()).count())
            .sum(),
        tournaments: m.runs.iter().map(Run::seed).collect(),
        missing_report,
        points: m.runs.iter().map(Run::points).collect(),
    })
}

/// Opens a records file and reads its header: the header, the lines it
/// took and the reader at the first game.
fn open(path: &Path) -> Result<(Header, usize, BufReader<std::fs::File>), String> {
    let shown = path.display();
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    let mut input = BufReader::new(f);
    match header::read(&mut input).map_err(|e| format!("{shown}: {e}"))? {
        Some(header::Block {
            lines,
            header: Ok(h),
        }) => Ok((h, lines, input)),
        Some(header::Block { header: Err(e), .. }) => Err(format!("{shown}: header: {e}")),
        None => Err(format!(
            "{shown}: no tournament header (written by an older splut?): \
             its schedule is unknown"
        )),
    }
}

impl Merge<'_> {
    /// The run (tournament) of file `fi`, whose header is `head`, the
    /// file added to it: the first header sets the schedule and every
    /// other must be of it, or with `pool` of the same participants (a
    /// new run). Its index.
    fn take_header(&mut self, fi: usize, head: &Header) -> Result<usize, String> {
        let shown = self.files[fi].display();
        if let Some(i) = self
            .runs
            .iter()
            .position(|r| r.header.same_schedule(head).is_ok())
        {
            self.runs[i].files.push((head.shard, fi));
            return Ok(i);
        }
        if let Some(r) = self.runs.first() {
            let of = self.files[r.files[0].1].display();
            let d = if self.pool {
                r.header.same_participants(head)
            } else {
                r.header.same_schedule(head)
            };
            if let Err(d) = d {
                let whose = if self.pool {
                    "the participants of"
                } else {
                    "of the tournament of"
                };
                return Err(format!("{shown} is not {whose} {of}: {d}"));
            }
        }
        let schedule = head.schedule().map_err(|e| format!("{shown}: {e}"))?;
        if self.standings.is_none() {
            self.standings = Some(Standings::new(head.names.clone(), head.players));
        }
        self.runs.push(Run {
            header: head.clone(),
            seen: vec![None; schedule.len()],
            first: vec![None; schedule.len()],
            schedule,
            files: vec![(head.shard, fi)],
        });
        Ok(self.runs.len() - 1)
    }

    /// Reads the games of file `fi` of run `run`, whose header is
    /// `head`, into the standings.
    fn read_games<R: std::io::BufRead>(
        &mut self,
        fi: usize,
        run: usize,
        head: &Header,
        mut reader: RecordReader<R>,
        check: bool,
        on_invalid: &mut dyn FnMut(String),
    ) -> Result<(), String> {
        let shown = self.files[fi].display();
        // Not a `for` loop: each game's lines are asked of the reader.
        while let Some(game) = reader.next() {
            let (line, g) = game.map_err(|b| {
                format!("{shown}: {b}: the game cannot be read, so the standings would miss it")
            })?;
            let pair = self.place(fi, run, head, line, &g)?;
            self.games += 1;
            // An invalid game is left out: standings never count an
            // edited or impossible result.
            if check && let Err(e) = validate_at(&g, reader.lines()) {
                self.invalid += 1;
                on_invalid(format!(
                    "{shown}: game {} (line {line}): INVALID: {e}",
                    g.number
                ));
                continue;
            }
            if let Some(st) = self.standings.as_mut() {
                st.add(&g, pair);
            }
            let first = &mut self.runs[run].first;
            if let (Some(slot), Some(name)) = (first.get_mut(g.number - 1), head.names.first()) {
                *slot = super::standings::points_of(&g, name);
            }
        }
        Ok(())
    }

    /// Finds game `g` (read at `line` of file `fi`) in the schedule: it
    /// must be scheduled, in the file's shard, seat the schedule's
    /// participants, place each seat once and come once. Its game-pair
    /// key, unique among the runs.
    fn place(
        &mut self,
        fi: usize,
        run: usize,
        head: &Header,
        line: usize,
        g: &GameRecord,
    ) -> Result<Option<u64>, String> {
        let shown = self.files[fi].display();
        let n = g.number;
        let r = &mut self.runs[run];
        let spec = n
            .checked_sub(1)
            .and_then(|i| r.schedule.get(i))
            .ok_or_else(|| {
                format!(
                    "{shown}: game {n} (line {line}) is not in the schedule, \
                     which has games 1 to {}",
                    r.schedule.len()
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
        let want: Vec<&str> = spec
            .seating
            .iter()
            .map(|&p| head.names[p].as_str())
            .collect();
        let got: Vec<&str> = g.seats.iter().map(|(_, name)| name.as_str()).collect();
        if want != got || g.players != head.players {
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
        if let Some((f0, l0)) = r.seen[n - 1] {
            return Err(format!(
                "game {n} is twice: in {} (line {l0}) and in {shown} (line {line})",
                self.files[f0].display()
            ));
        }
        r.seen[n - 1] = Some((fi, line));
        // Pair keys are game numbers: another run's are kept apart.
        Ok(spec.pair.map(|p| p | (run as u64) << 40))
    }
}

/// Most ranges listed for one shard before the games it lost from some
/// game on are said in words: a shard stopped early loses every later
/// game, which would otherwise be a range per unit.
const RANGES_LISTED: usize = 8;

/// Every scheduled game no file has. When every file is a shard of the
/// same count, one line per shard with missing games, naming its files
/// (or none given); else one line of game numbers.
fn describe_missing(
    schedule: &[GameSpec],
    seen: &[Option<(usize, usize)>],
    files: &[(Shard, &Path)],
) -> Vec<String> {
    let missing: Vec<usize> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| i + 1)
        .collect();
    if missing.is_empty() {
        return Vec::new();
    }
    let count = files.first().map_or(1, |f| f.0.count);
    if count == 1 || files.iter().any(|f| f.0.count != count) {
        let word = if missing.len() == 1 { "game" } else { "games" };
        return vec![format!("{word} {}", ranges(&missing).join(", "))];
    }
    let mut out = Vec::new();
    for k in 0..count {
        let of_shard: Vec<&GameSpec> = schedule.iter().filter(|g| g.unit % count == k).collect();
        let all: Vec<usize> = of_shard.iter().map(|g| g.number).collect();
        let lost: Vec<usize> = of_shard
            .iter()
            .filter(|g| seen[g.number - 1].is_none())
            .map(|g| g.number)
            .collect();
        if lost.is_empty() {
            continue;
        }
        let names: Vec<String> = files
            .iter()
            .filter(|f| f.0.index == k)
            .map(|f| f.1.display().to_string())
            .collect();
        let whose = if names.is_empty() {
            "no file given".to_string()
        } else {
            names.join(", ")
        };
        out.push(format!(
            "shard {k}/{count} ({whose}): {}",
            shard_games(&lost, &all)
        ));
    }
    out
}

/// The games a shard lost (`lost`, of its games `all`, both in order):
/// `all its 4 games: 3-4, 9-10`, `1 of its 4 games: 12`; a long list ends
/// with `and every one from game 81 on` where the shard lost all its
/// games from there.
fn shard_games(lost: &[usize], all: &[usize]) -> String {
    let head = if lost.len() == all.len() {
        match all.len() {
            1 => "its one game".to_string(),
            n => format!("all its {n} games"),
        }
    } else {
        format!(
            "{} of its {} game{}",
            lost.len(),
            all.len(),
            if all.len() == 1 { "" } else { "s" }
        )
    };
    let listed = ranges(lost);
    if listed.len() <= RANGES_LISTED {
        return format!("{head}: {}", listed.join(", "));
    }
    // The shard's games from some game on, all lost.
    let tail = all
        .iter()
        .rev()
        .zip(lost.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    if tail == lost.len() && lost.len() == all.len() {
        return head;
    }
    if tail == 0 {
        return format!("{head}: {}", listed.join(", "));
    }
    let from = lost[lost.len() - tail];
    let before = ranges(&lost[..lost.len() - tail]);
    if before.is_empty() {
        format!("{head}: every one from game {from} on")
    } else {
        format!(
            "{head}: {}, and every one from game {from} on",
            before.join(", ")
        )
    }
}

/// Sorted numbers as ranges of consecutive ones: `3-6`, `9`.
fn ranges(numbers: &[usize]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            numbers[i].to_string()
        } else {
            format!("{}-{}", numbers[i], numbers[j])
        });
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_ranges() {
        assert_eq!(ranges(&[]), Vec::<String>::new());
        assert_eq!(ranges(&[3, 4, 5, 6, 9]), ["3-6", "9"]);
        assert_eq!(ranges(&[1, 3, 4, 7]), ["1", "3-4", "7"]);
    }

    #[test]
    fn a_shards_lost_games_are_listed_whole() {
        assert_eq!(
            shard_games(&[3, 4, 9, 10], &[3, 4, 9, 10]),
            "all its 4 games: 3-4, 9-10"
        );
        assert_eq!(shard_games(&[12], &[5, 6, 11, 12]), "1 of its 4 games: 12");
        assert_eq!(shard_games(&[7], &[7]), "its one game: 7");
        // A shard of 2-game units that stopped after its 3rd unit, with a
        // hole before: every lost game is named.
        let all: Vec<usize> = (0..40).flat_map(|u| [6 * u + 1, 6 * u + 2]).collect();
        let mut lost = vec![all[1]];
        lost.extend_from_slice(&all[6..]);
        assert_eq!(
            shard_games(&lost, &all),
            "75 of its 80 games: 2, and every one from game 19 on"
        );
        assert_eq!(
            shard_games(&all[6..], &all),
            "74 of its 80 games: every one from game 19 on"
        );
        assert_eq!(shard_games(&all, &all), "all its 80 games");
        // Holes all over: listed, however many.
        let holes: Vec<usize> = all.iter().step_by(4).copied().collect();
        let said = shard_games(&holes, &all);
        assert_eq!(said.matches(", ").count(), holes.len() - 1, "{said}");
    }
}
