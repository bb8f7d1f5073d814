//! Static evaluation for 2–4 players.
//!
//! Every search asks the same question: how well is each seat doing? The
//! answer is one score per seat ([`seat_scores`]), built from the terms of
//! [`EvalParams`]. Two-player and paranoid searches then look from one seat
//! ([`evaluate`]: its score against the average of its opponents'), max-n
//! turns the scores into shares of a fixed total ([`evaluate_shares`]).
//!
//! Splut! is won by throwing rocks at sorcerers, so the terms that matter
//! most are about throws: who can kill whom before the victim can react.

pub mod cache;
pub mod threats;

pub use cache::EvalCache;

use crate::game::{Bitboard, Kind, Levitation, Position, Seat};
use threats::{
    Target, Throws, levitation_landings, levitation_steps_to_kill_onto, troll_steps_to_rock,
};

/// Declares [`EvalParams`] once: each weight's doc, name, type (`i32` or
/// `[i32; N]`) and default value. The text form, the flat view for a tuner
/// and the defaults are all derived from this one list, so a new weight is
/// one entry here.
macro_rules! eval_params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:expr,)*) => {
        /// The evaluation's weights, in centi-units (a dwarf is worth about
        /// 150). As text ([`EvalParams::to_text`], [`EvalParams::from_text`]):
        /// one `name value…` line per weight.
        #[derive(Clone, Debug, PartialEq)]
        pub struct EvalParams {
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        /// The weights the engine plays with.
        pub const DEFAULT_PARAMS: EvalParams = EvalParams {
            $($name: $default,)*
        };

        impl EvalParams {
            /// Every weight by name, in declaration order, as a slice (one
            /// number for a scalar weight).
            fn terms(&self) -> Vec<(&'static str, &[i32])> {
                vec![$((stringify!($name), Weight::values(&self.$name)),)*]
            }

            /// [`EvalParams::terms`], writable.
            fn terms_mut(&mut self) -> Vec<(&'static str, &mut [i32])> {
                vec![$((stringify!($name), Weight::values_mut(&mut self.$name)),)*]
            }
        }
    };
}

/// A weight's numbers: one for `i32`, several for an array.
trait Weight {
    fn values(&self) -> &[i32];
    fn values_mut(&mut self) -> &mut [i32];
}

impl Weight for i32 {
    fn values(&self) -> &[i32] {
        std::slice::from_ref(self)
    }
    fn values_mut(&mut self) -> &mut [i32] {
        std::slice::from_mut(self)
    }
}

impl<const N: usize> Weight for [i32; N] {
    fn values(&self) -> &[i32] {
        self
    }
    fn values_mut(&mut self) -> &mut [i32] {
        self
    }
}

eval_params! {
    /// Having one's dwarf: it pushes rocks and pieces, blocks lines and
    /// shields the sorcerer (thrown rocks fly over it, levitated ones do not).
    dwarf: i32 = 236,
    /// Charged to a seat whose sorcerer the side to move can hit within the
    /// steps it has left this turn: it is as good as dead. A throw ends the
    /// turn, so only one such seat is charged (the one scoring best, the
    /// likeliest target); any other the side to move could reach gets its
    /// turn to react and is charged `threat`.
    kill_now: i32 = 8783,
    /// Charged to a seat whose sorcerer another seat, moving before it, can
    /// hit within a full turn (3 steps): the victim cannot react in time.
    threat_unanswered: i32 = 2278,
    /// Charged to a seat whose sorcerer another seat can hit within a full
    /// turn, when the victim moves first and may still parry.
    threat: i32 = 150,
    /// Added to `threat` for the side to move per step it has already
    /// spent this turn (fewer steps left to parry).
    threat_per_spent_step: i32 = -29,
    /// Charged to a seat whose sorcerer another seat's troll could hit
    /// with [`DANGER_EXTRA_STEPS`] more steps than a threat allows (a
    /// turn later), the board standing still: a kill the other seats'
    /// moves may bring forward. 0 turns it off and skips its work.
    danger: i32 = 100,
    /// A kill that needs a levitation first (the attacker's sorcerer floats
    /// a rock into line, its troll throws it; [`threats::levitation_steps_to_kill`]),
    /// in percent of the charge of a plain throw threat (`kill_now`,
    /// `threat_unanswered`, `threat`); 0 turns the term off and skips its
    /// work. Off by default: it costs about 30% of the search's nodes/s,
    /// and stays off until a tournament shows it pays (docs/results/strength.md;
    /// `EvalFile` with `levitation_threat 100` turns it on).
    levitation_threat: i32 = 0,
    /// Sorcerer safety: charged per rock lined up with one's sorcerer over
    /// empty squares and dwarves (a throw waiting for a troll).
    exposed_line: i32 = 86,
    /// Sorcerer safety: per empty square next to one's sorcerer (room to
    /// step out of a line).
    sorcerer_freedom: i32 = -2,
    /// Rock control: by the steps one's troll needs to stand next to a rock
    /// (index 0 to 5; farther, or no troll, is worth nothing).
    troll_near_rock: [i32; 6] = [716, 738, 759, 703, 469, 240],
    /// Mobility: per empty square next to one of one's pieces.
    mobility: i32 = 50,
    /// Paranoid view: per opponent eliminated since the search's root (in
    /// 3-4 player games each elimination brings the win closer).
    eliminated_opponent: i32 = 5000,
}

/// Largest magnitude of a weight in a parameter file: far below the
/// search's proven-result scores even summed over every term.
pub const MAX_WEIGHT: i32 = 1_000_000;

/// Largest parameter file read, bytes: far more than any set of weights
/// needs, so reading a wrong file (or a device) stops early.
pub const MAX_PARAMS_FILE: u64 = 1 << 20;

/// Largest magnitude of [`evaluate`]: evaluations stay well inside the
/// search's proven-result scores whatever the weights.
pub const MAX_EVAL: i32 = 500_000;

impl Default for EvalParams {
    fn default() -> Self {
        DEFAULT_PARAMS
    }
}

impl EvalParams {
    /// The weights as text: one `name value…` line per weight, in
    /// declaration order, which [`EvalParams::from_text`] reads back.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (name, values) in self.terms() {
            text.push_str(name);
            for v in values {
                text.push(' ');
                text.push_str(&v.to_string());
            }
            text.push('\n');
        }
        text
    }

    /// Reads weights written as by [`EvalParams::to_text`]: one `name
    /// value…` line per weight (an array weight takes all its numbers on
    /// its line), `#` starts a comment, blank lines are ignored. A weight
    /// the text does not name keeps its default, so a file may change a
    /// few weights and older files load after a new weight is added. An
    /// unknown or repeated name, too few or too many numbers, or a number
    /// that is not a whole number within ±[`MAX_WEIGHT`] is an error naming
    /// the line.
    pub fn from_text(text: &str) -> Result<EvalParams, String> {
        let mut params = DEFAULT_PARAMS;
        params.apply(text.lines().enumerate())?;
        Ok(params)
    }

    /// Sets the weights that numbered `lines` name (see
    /// [`EvalParams::from_text`]); a name given twice among them is an error.
    fn apply<'t>(&mut self, lines: impl Iterator<Item = (usize, &'t str)>) -> Result<(), String> {
        let params = self;
        let mut seen: Vec<&str> = Vec::new();
        for (i, raw) in lines {
            let line = raw.split('#').next().unwrap_or("");
            let mut words = line.split_whitespace();
            let Some(name) = words.next() else {
                continue;
            };
            let at = |what: String| format!("line {}: {what}", i + 1);
            let mut terms = params.terms_mut();
            let Some((known, values)) = terms.iter_mut().find(|(n, _)| *n == name) else {
                return Err(at(format!("unknown weight '{}'", shorten(name))));
            };
            if seen.contains(known) {
                return Err(at(format!("'{name}' given twice")));
            }
            seen.push(known);
            let numbers: Vec<&str> = words.collect();
            // An array may be given shorter (files written when it had fewer
            // entries, e.g. a 4-step `troll_near_rock`): the rest is 0, as
            // the entries beyond the old end counted for nothing then.
            if !(1..=values.len()).contains(&numbers.len()) {
                let takes = match values.len() {
                    1 => "1 number".to_string(),
                    n => format!("1 to {n} numbers"),
                };
                return Err(at(format!(
                    "'{name}' takes {takes}, found {}",
                    numbers.len()
                )));
            }
            values.fill(0);
            for (slot, word) in values.iter_mut().zip(numbers) {
                *slot = word
                    .parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= MAX_WEIGHT)
                    .ok_or_else(|| {
                        at(format!(
                            "'{name}': '{}' is not a whole number from -{MAX_WEIGHT} to {MAX_WEIGHT}",
                            shorten(word)
                        ))
                    })?;
            }
        }
        Ok(())
    }

    /// Every number as `(name, value)`, in declaration order; an array's
    /// elements are `name.0`, `name.1`, … (for a tuner).
    pub fn flat(&self) -> Vec<(String, i32)> {
        let mut out = Vec::new();
        for (name, values) in self.terms() {
            if let [v] = values {
                out.push((name.to_string(), *v));
            } else {
                for (i, v) in values.iter().enumerate() {
                    out.push((format!("{name}.{i}"), *v));
                }
            }
        }
        out
    }

    /// Sets one number by its [`EvalParams::flat`] name; an error for an
    /// unknown name or a value beyond ±[`MAX_WEIGHT`].
    pub fn set_flat(&mut self, name: &str, value: i32) -> Result<(), String> {
        if value.abs() > MAX_WEIGHT {
            return Err(format!("weight '{name}': {value} is beyond ±{MAX_WEIGHT}"));
        }
        let (base, index) = match name.split_once('.') {
            Some((b, i)) => (b, Some(i.parse::<usize>().ok())),
            None => (name, None),
        };
        for (n, values) in self.terms_mut() {
            if n != base {
                continue;
            }
            let slot = match (index, values.len()) {
                (None, 1) => values.get_mut(0),
                (Some(Some(i)), len) if len > 1 => values.get_mut(i),
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = value;
                return Ok(());
            }
        }
        Err(format!("unknown weight '{}'", shorten(name)))
    }
}

/// The weights for each count of seats in the game (2, 3 and 4): the
/// same terms weigh differently with more opponents (docs/results/tuning.md).
/// A search uses the weights of the count at its root.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalSet {
    by_players: [EvalParams; 3],
}

/// The weights the engine plays with, by count of seats in the game.
pub const DEFAULT_SET: EvalSet = EvalSet {
    by_players: [DEFAULT_PARAMS, DEFAULT_PARAMS, DEFAULT_PARAMS],
};

impl Default for EvalSet {
    fn default() -> Self {
        DEFAULT_SET
    }
}

impl EvalSet {
    /// The same weights for every count.
    pub fn uniform(p: &EvalParams) -> EvalSet {
        EvalSet {
            by_players: [p.clone(), p.clone(), p.clone()],
        }
    }

    /// The weights with `players` seats in the game (below 2 counts as 2,
    /// above 4 as 4).
    pub fn for_players(&self, players: u32) -> &EvalParams {
        &self.by_players[players.clamp(2, 4) as usize - 2]
    }

    /// Reads a parameter file: `name value…` lines as
    /// [`EvalParams::from_text`] reads them. Lines before any `players`
    /// line set the weights for every count; a line `players <n>…` (counts
    /// 2, 3, 4) starts a section whose lines set them for those counts
    /// only, over the common lines. A weight no line names keeps its
    /// compiled-in value for that count.
    pub fn from_text(text: &str) -> Result<EvalSet, String> {
        let mut common = Vec::new();
        // Each section: its counts and its numbered lines.
        type Lines<'t> = Vec<(usize, &'t str)>;
        let mut sections: Vec<(Vec<u32>, Lines)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("");
            let mut words = line.split_whitespace();
            if words.next() == Some("players") {
                let counts: Vec<u32> = words
                    .map(|w| w.parse::<u32>().ok().filter(|n| (2..=4).contains(n)))
                    .collect::<Option<_>>()
                    .filter(|c: &Vec<u32>| !c.is_empty())
                    .ok_or_else(|| format!("line {}: 'players' takes counts from 2 to 4", i + 1))?;
                sections.push((counts, Vec::new()));
            } else if let Some((_, lines)) = sections.last_mut() {
                lines.push((i, raw));
            } else {
                common.push((i, raw));
            }
        }
        let mut set = DEFAULT_SET;
        for (k, params) in set.by_players.iter_mut().enumerate() {
            params.apply(common.iter().copied())?;
            for (counts, lines) in &sections {
                if counts.contains(&(k as u32 + 2)) {
                    params.apply(lines.iter().copied())?;
                }
            }
        }
        Ok(set)
    }

    /// The weights as text [`EvalSet::from_text`] reads back: the weights
    /// alone when every count has the same, else one `players <n>` section
    /// per count.
    pub fn to_text(&self) -> String {
        let [two, rest @ ..] = &self.by_players;
        if rest.iter().all(|p| p == two) {
            return two.to_text();
        }
        let mut text = String::new();
        for (k, p) in self.by_players.iter().enumerate() {
            text.push_str(&format!("players {}\n", k + 2));
            text.push_str(&p.to_text());
        }
        text
    }

    /// Reads a parameter file ([`EvalSet::from_text`]). An empty path or
    /// `default` gives the compiled-in weights. Errors (a file that cannot
    /// be read, is not UTF-8 text, is larger than [`MAX_PARAMS_FILE`] or
    /// holds a bad line) name the file.
    pub fn from_file(path: &str) -> Result<EvalSet, String> {
        use std::io::Read;
        if path.is_empty() || path.eq_ignore_ascii_case("default") {
            return Ok(DEFAULT_SET);
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_PARAMS_FILE + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read '{path}': {e}"))?;
        if bytes.len() as u64 > MAX_PARAMS_FILE {
            return Err(format!(
                "'{path}' is larger than {MAX_PARAMS_FILE} bytes; not a parameter file"
            ));
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("'{path}' is not UTF-8 text"))?;
        EvalSet::from_text(&text).map_err(|e| format!("'{path}' {e}"))
    }
}

/// A word from a file, cut short for an error message.
fn shorten(word: &str) -> String {
    if word.chars().count() > 40 {
        format!("{}…", word.chars().take(40).collect::<String>())
    } else {
        word.to_string()
    }
}

/// Total of the max-n shares ([`evaluate_shares`]).
pub const SHARES_TOTAL: i32 = 10_000;

/// How many steps beyond a threat's `danger` looks.
pub const DANGER_EXTRA_STEPS: u8 = 3;

/// Farthest troll-to-rock distance `troll_near_rock` counts (steps).
const TROLL_NEAR_ROCK_MAX: u8 = 5;

/// Positional terms of one seat still in the game, whose sorcerer is
/// `target`.
fn positional(pos: &Position, seat: Seat, target: &Target, p: &EvalParams) -> i32 {
    let mine = pos.seat_bb(seat);
    let empty = pos.empty();
    let mut score = 0;
    if (mine & pos.kind_bb(Kind::Dwarf)).any() {
        score += p.dwarf;
    }
    let sorcerer = mine & pos.kind_bb(Kind::Sorcerer);
    score -= p.exposed_line * target.exposed_lines() as i32;
    score += p.sorcerer_freedom * (sorcerer.neighbours() & empty).count() as i32;
    if let Some(d) = troll_steps_to_rock(pos, seat, TROLL_NEAR_ROCK_MAX) {
        score += p.troll_near_rock[d as usize];
    }
    let mut free = 0;
    for sq in mine {
        free += (sq.adjacent() & empty).count();
    }
    score + p.mobility * free as i32
}

/// Each seat's score (0 for seats out of the game); higher is better for
/// that seat.
pub fn seat_scores(pos: &Position, p: &EvalParams) -> [i32; 4] {
    let mut score = [0; 4];
    let stm = pos.side_to_move();
    // Seats in the order they move from now: the side to move first.
    let mut order = [Seat::Red; 4];
    let mut n = 0;
    for i in 0..4 {
        let s = Seat::from_index(stm as u8 + i);
        if pos.in_game(s) {
            order[n] = s;
            n += 1;
        }
    }
    let order = &order[..n];
    let targets: [Target; 4] = std::array::from_fn(|i| Target::new(pos, Seat::from_index(i as u8)));
    for &s in order {
        score[s.index()] = positional(pos, s, &targets[s.index()], p);
    }
    let positional_score = score;
    // The charge of a threat: a weight, scaled when the kill needs a
    // levitation first; bounded so that no file of weights can overflow.
    let charge = |w: i32, percent: i32| {
        (i64::from(w) * i64::from(percent) / 100)
            .clamp(-i64::from(MAX_WEIGHT), i64::from(MAX_WEIGHT)) as i32
    };
    let mut doomed: Option<(Seat, i32)> = None;
    for (ia, &attacker) in order.iter().enumerate() {
        let steps = if ia == 0 { pos.steps_left() } else { 3 };
        let floatable = floatable_rocks(pos, ia);
        let throws = Throws::new(pos, attacker, steps, true);
        let far = (p.danger != 0).then(|| throws.farther(DANGER_EXTRA_STEPS));
        // Most attackers float no rock anywhere useful: one cheap superset
        // per attacker spares the exact search per victim.
        let landings = if p.levitation_threat != 0 {
            let aim = order
                .iter()
                .filter(|&&v| v != attacker)
                .fold(Bitboard::EMPTY, |a, v| a | targets[v.index()].near);
            levitation_landings(pos, attacker, steps, floatable, aim)
        } else {
            Bitboard::EMPTY
        };
        for (iv, &victim) in order.iter().enumerate() {
            if iv == ia {
                continue;
            }
            let percent = if throws.hits_target(pos, &targets[victim.index()]) {
                100
            } else if (landings & targets[victim.index()].near).any()
                && levitation_steps_to_kill_onto(pos, attacker, victim, steps, floatable, landings)
                    .is_some()
            {
                p.levitation_threat
            } else {
                if far
                    .as_ref()
                    .is_some_and(|f| f.hits_target(pos, &targets[victim.index()]))
                {
                    score[victim.index()] -= p.danger;
                }
                continue;
            };
            if ia == 0 {
                // The side to move kills one victim at most this turn.
                let better =
                    |v: Seat| positional_score[v.index()] > positional_score[victim.index()];
                if doomed.is_none_or(|(d, _)| !better(d)) {
                    if let Some((d, dp)) = doomed {
                        score[d.index()] += charge(p.kill_now, dp) - charge(p.threat, dp);
                    }
                    doomed = Some((victim, percent));
                    score[victim.index()] -= charge(p.kill_now, percent);
                } else {
                    score[victim.index()] -= charge(p.threat, percent);
                }
                continue;
            }
            score[victim.index()] -= charge(
                if ia < iv {
                    p.threat_unanswered
                } else if iv == 0 {
                    p.threat + p.threat_per_spent_step * (3 - pos.steps_left() as i32)
                } else {
                    p.threat
                },
                percent,
            );
        }
    }
    score
}

/// The rocks the seat moving `ia`-th from now (0: the side to move) may
/// levitate in its turn: for the side to move, as the levitation state and
/// the cooling rocks allow; for the next seat, those not moved in the
/// current turn; for later seats, any (the board is assumed to stay still
/// until then).
fn floatable_rocks(pos: &Position, ia: usize) -> Bitboard {
    match ia {
        0 => match pos.levitation() {
            Levitation::NotStarted => pos.rocks() & !pos.cooling(),
            Levitation::Rock(sq) => sq.bb(),
            Levitation::Over => Bitboard::EMPTY,
        },
        1 => pos.rocks() & !pos.moved(),
        _ => pos.rocks(),
    }
}

/// The position from `root`'s side: its score against the average of its
/// opponents' (2 players: against the opponent's), plus a bonus per opponent
/// eliminated since the search began with `players_at_root` seats in the
/// game. Used by the two-player and paranoid searches.
pub fn evaluate(pos: &Position, root: Seat, players_at_root: u32, p: &EvalParams) -> i32 {
    from_root(pos, &seat_scores(pos, p), root, players_at_root, p)
}

/// [`evaluate`] given the position's [`seat_scores`] (e.g. from an
/// [`EvalCache`]).
pub fn from_root(
    pos: &Position,
    score: &[i32; 4],
    root: Seat,
    players_at_root: u32,
    p: &EvalParams,
) -> i32 {
    let mut sum = 0;
    let mut opponents = 0;
    for s in pos.seats_in_game() {
        if s != root {
            sum += score[s.index()];
            opponents += 1;
        }
    }
    let out = players_at_root.saturating_sub(pos.players_left()) as i32;
    let against = if opponents > 0 { sum / opponents } else { 0 };
    (score[root.index()] - against + p.eliminated_opponent * out).clamp(-MAX_EVAL, MAX_EVAL)
}

/// Max-n scores: each seat's share of [`SHARES_TOTAL`] (0 for seats out of
/// the game; the winner takes all). Shares never go negative and always sum
/// to the total, which max-n's shallow pruning relies on.
pub fn evaluate_shares(pos: &Position, p: &EvalParams) -> [i32; 4] {
    let mut shares = [0; 4];
    if let Some(w) = pos.winner() {
        shares[w.index()] = SHARES_TOTAL;
        return shares;
    }
    let score = seat_scores(pos, p);
    // Strength above a floor just under a doomed seat's score, so a seat
    // about to be killed keeps only a sliver.
    let mut weight = [0i64; 4];
    let mut total = 0i64;
    for s in pos.seats_in_game() {
        let w = (i64::from(score[s.index()]) + i64::from(p.kill_now) + 1000).max(50);
        weight[s.index()] = w;
        total += w;
    }
    let mut given = 0;
    let mut last = None;
    for s in pos.seats_in_game() {
        let share = (weight[s.index()] * i64::from(SHARES_TOTAL) / total) as i32;
        shares[s.index()] = share;
        given += share;
        last = Some(s);
    }
    if let Some(s) = last {
        shares[s.index()] += SHARES_TOTAL - given;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_set_weights_by_count_of_seats() {
        let text = "dwarf 100\nplayers 3 4\nmobility 9\nplayers 4\ndwarf 400\n";
        let set = EvalSet::from_text(text).unwrap();
        let (two, three, four) = (set.for_players(2), set.for_players(3), set.for_players(4));
        assert_eq!((two.dwarf, two.mobility), (100, DEFAULT_PARAMS.mobility));
        assert_eq!((three.dwarf, three.mobility), (100, 9));
        assert_eq!((four.dwarf, four.mobility), (400, 9));
        // Below 2 and above 4 seats count as the nearest count.
        assert_eq!(set.for_players(1), two);
        assert_eq!(set.for_players(9), four);
        assert_eq!(EvalSet::from_text(&set.to_text()).unwrap(), set);
        assert!(set.to_text().starts_with("players 2\n"));
        // No section: every count alike.
        let flat = EvalSet::from_text("mobility 7\n").unwrap();
        let seven = EvalParams::from_text("mobility 7").unwrap();
        assert_eq!(flat, EvalSet::uniform(&seven));
        assert_eq!(flat.to_text(), seven.to_text());
    }

    #[test]
    fn bad_sections_are_errors_naming_the_line() {
        for (text, says) in [
            ("players\n", "line 1: 'players' takes counts from 2 to 4"),
            ("dwarf 1\nplayers 5\n", "line 2: 'players'"),
            ("players two\n", "line 1: 'players'"),
            (
                "players 2\ndwarf 1\ndwarf 2\n",
                "line 3: 'dwarf' given twice",
            ),
            ("players 3\nbishop 1\n", "line 2: unknown weight"),
        ] {
            let e = EvalSet::from_text(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    fn pos(spn: &str) -> Position {
        Position::from_spn(spn).unwrap()
    }

    #[test]
    fn start_positions_are_balanced() {
        let p = Position::start(2).unwrap();
        let s = seat_scores(&p, &DEFAULT_PARAMS);
        assert_eq!(s[Seat::Red.index()], s[Seat::Green.index()]);
        let p4 = Position::start(4).unwrap();
        let s4 = seat_scores(&p4, &DEFAULT_PARAMS);
        assert!(s4.iter().all(|&x| x == s4[0]));
        let shares = evaluate_shares(&p4, &DEFAULT_PARAMS);
        assert_eq!(shares.iter().sum::<i32>(), SHARES_TOTAL);
    }

    #[test]
    fn a_kill_this_turn_dominates() {
        // Red to move can throw e4 onto the green sorcerer.
        let p = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        assert!(evaluate(&p, Seat::Red, 2, &DEFAULT_PARAMS) > 4000);
        assert!(evaluate(&p, Seat::Green, 2, &DEFAULT_PARAMS) < -4000);
        // The same board with green to move: green must parry, red's threat
        // still weighs but far less.
        let q = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 g 3 10 - - -");
        let e = evaluate(&q, Seat::Green, 2, &DEFAULT_PARAMS);
        assert!((-1000..0).contains(&e), "{e}");
    }

    /// Green's score with `danger` at 100, less its score with it off.
    fn danger_charge_to_green(spn: &str) -> i32 {
        let p = pos(spn);
        let on = EvalParams {
            danger: 100,
            ..DEFAULT_PARAMS
        };
        let off = EvalParams {
            danger: 0,
            ..DEFAULT_PARAMS
        };
        seat_scores(&p, &on)[Seat::Green.index()] - seat_scores(&p, &off)[Seat::Green.index()]
    }

    #[test]
    fn danger_counts_a_throw_a_turn_away() {
        // The rock e4 is lined up with the green sorcerer e7 (over the
        // green dwarf e5). Red's troll on i5 needs four steps to stand
        // next to it (h5 h4 g4 f4) and a fifth to throw: no threat this
        // turn, a danger.
        assert_eq!(
            danger_charge_to_green("R/gT2/2gS2/7/R3gD3rT/rS2R3/rD4/3/R r 3 10 - - -"),
            -100
        );
        // On h4 it throws within the turn: a threat, not a danger too.
        assert_eq!(
            danger_charge_to_green("R/gT2/2gS2/7/R3gD4/rS2R2rT/rD4/3/R r 3 10 - - -"),
            0
        );
        // Walled in by its own dwarf on h5, it reaches nothing.
        assert_eq!(
            danger_charge_to_green("R/gT2/2gS2/7/R3gD2rDrT/rS2R3/5/3/R r 3 10 - - -"),
            0
        );
    }

    #[test]
    fn losing_the_dwarf_costs() {
        let with = pos("R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        let without = pos("R/gT1gS/5/7/R7R/7/5/rSrDrT/R r 3 10 - - -");
        // What green's dwarf is worth to red: the `dwarf` weight, and its
        // effect on the other terms (green's mobility, its troll's paths),
        // which the tuned weights make larger than the weight alone.
        let worth = |params: &EvalParams| {
            let e = |p: &Position| evaluate(p, Seat::Red, 2, params);
            e(&without) - e(&with)
        };
        let mut more = DEFAULT_PARAMS;
        more.dwarf += 100;
        assert_eq!(worth(&more), worth(&DEFAULT_PARAMS) + 100);
        let hand_set =
            EvalParams::from_text("dwarf 150\nmobility 3\ntroll_near_rock 60 40 20 10").unwrap();
        assert!(worth(&hand_set) > 50, "{}", worth(&hand_set));
    }

    #[test]
    fn a_short_array_reads_with_zeros_beyond_its_end() {
        // A file from when `troll_near_rock` had 4 entries keeps its meaning.
        let p = EvalParams::from_text("troll_near_rock 60 40 20 10").unwrap();
        assert_eq!(p.troll_near_rock, [60, 40, 20, 10, 0, 0]);
        let q = EvalParams::from_text("troll_near_rock 5").unwrap();
        assert_eq!(q.troll_near_rock, [5, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn shares_sum_to_the_total_and_favour_the_killer() {
        let p = pos("R/gTgDgS/5/yS6/RyD6R/yT6/5/rSrDrT/R r 3 10 - - -");
        let s = evaluate_shares(&p, &DEFAULT_PARAMS);
        assert_eq!(s.iter().sum::<i32>(), SHARES_TOTAL);
        assert_eq!(s[Seat::Blue.index()], 0);
        // Red kills yellow now: red's share beats yellow's by far.
        let k = pos("R/gTgDgS/5/3yS3/RyD6R/yT2R3/rD1rT2/rS2/1 r 3 10 - - -");
        let s = evaluate_shares(&k, &DEFAULT_PARAMS);
        assert!(s[Seat::Red.index()] > 3 * s[Seat::Yellow.index()], "{s:?}");
    }
    #[test]
    fn params_round_trip_as_text_and_flat() {
        let text = DEFAULT_PARAMS.to_text();
        assert!(
            text.contains("troll_near_rock 716 738 759 703 469 240\n"),
            "{text}"
        );
        assert_eq!(EvalParams::from_text(&text), Ok(DEFAULT_PARAMS));
        let mut p = DEFAULT_PARAMS;
        for (i, (name, _)) in DEFAULT_PARAMS.flat().into_iter().enumerate() {
            p.set_flat(&name, i as i32 - 5).unwrap();
        }
        assert_eq!(p.troll_near_rock, [4, 5, 6, 7, 8, 9]);
        assert_eq!(EvalParams::from_text(&p.to_text()), Ok(p.clone()));
        let flat = p.flat();
        assert_eq!(flat[0], ("dwarf".to_string(), -5));
        assert!(flat.contains(&("troll_near_rock.5".to_string(), 9)));
        assert!(p.set_flat("troll_near_rock.6", 1).is_err());
        assert!(p.set_flat("troll_near_rock", 1).is_err());
        assert!(p.set_flat("dwarf.0", 1).is_err());
        assert!(p.set_flat("dwarf", MAX_WEIGHT + 1).is_err());
        // Comments, blank lines and missing weights (defaults).
        let q = EvalParams::from_text("# tuned\n\n  dwarf 170 # more\nmobility -4\n").unwrap();
        assert_eq!(
            (q.dwarf, q.mobility, q.kill_now),
            (170, -4, DEFAULT_PARAMS.kill_now)
        );
    }

    #[test]
    fn bad_parameter_text_names_the_line() {
        for (text, says) in [
            ("dwarf 1\nbishop 3", "line 2: unknown weight 'bishop'"),
            ("dwarf", "line 1: 'dwarf' takes 1 number, found 0"),
            ("dwarf 1 2", "takes 1 number, found 2"),
            (
                "troll_near_rock 1 2 3 4 5 6 7",
                "line 1: 'troll_near_rock' takes 1 to 6 numbers, found 7",
            ),
            (
                "troll_near_rock",
                "'troll_near_rock' takes 1 to 6 numbers, found 0",
            ),
            (
                "\n\ndwarf 1.5",
                "line 3: 'dwarf': '1.5' is not a whole number",
            ),
            ("dwarf 1000001", "from -1000000 to 1000000"),
            ("dwarf 99999999999", "not a whole number"),
            ("dwarf 1\ndwarf 2", "line 2: 'dwarf' given twice"),
            ("troll_near_rock.0 5", "unknown weight"),
        ] {
            let e = EvalParams::from_text(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        assert!(EvalParams::from_text("dwarf -1000000").is_ok());
    }

    #[test]
    fn extreme_weights_neither_overflow_nor_leave_the_eval_range() {
        let mut p = DEFAULT_PARAMS;
        for (name, _) in DEFAULT_PARAMS.flat() {
            p.set_flat(&name, MAX_WEIGHT).unwrap();
        }
        let q = pos("R/gT2/2gS2/7/R3gD3R/rS2R3/rD1rT2/3/1 r 3 10 - - -");
        for seat in [Seat::Red, Seat::Green] {
            let e = evaluate(&q, seat, 4, &p);
            assert!(e.abs() <= MAX_EVAL, "{e}");
        }
        p.levitation_threat = -MAX_WEIGHT;
        let e = evaluate(&pos(threats_levitate()), Seat::Red, 2, &p);
        assert!(e.abs() <= MAX_EVAL, "{e}");
    }

    /// Red floats d5 to e5 and throws it at e7 in two steps; two steps
    /// are left (with three, the troll could also pull d5 onto e5).
    fn threats_levitate() -> &'static str {
        "1/3/gTgDgS2/7/R2R1rT2R/1rS5/4R/1rD1/1 r 2 10 - - -"
    }

    #[test]
    fn a_levitation_kill_this_turn_dominates() {
        let e = |spn: &str, p: &EvalParams| evaluate(&pos(spn), Seat::Red, 2, p);
        let kill = threats_levitate();
        // The term at full weight (it is off by default until measured).
        const DEFAULT_PARAMS: EvalParams = EvalParams {
            levitation_threat: 100,
            ..super::DEFAULT_PARAMS
        };
        assert!(
            e(kill, &DEFAULT_PARAMS) > 4000,
            "{}",
            e(kill, &DEFAULT_PARAMS)
        );
        // Off, the same board is about even.
        let off = EvalParams {
            levitation_threat: 0,
            ..DEFAULT_PARAMS
        };
        assert!(e(kill, &off).abs() < 1000, "{}", e(kill, &off));
        let half = EvalParams {
            levitation_threat: 50,
            ..DEFAULT_PARAMS
        };
        let h = e(kill, &half);
        assert!(
            (e(kill, &off) + 2000..e(kill, &DEFAULT_PARAMS) - 2000).contains(&h),
            "{h}"
        );
        // The rock d5 is cooling.
        let cooling = "1/3/gTgDgS2/7/R2R1rT2R/1rS5/4R/1rD1/1 r 2 10 - d5 -";
        assert!(e(cooling, &DEFAULT_PARAMS).abs() < 1000);
        // The sorcerer has just floated d5 (from c5); it may float it on.
        let going = "1/3/gTgDgS2/7/R2R1rT2R/1rS5/4R/1rD1/1 r 2 10 d5 - d5";
        assert!(e(going, &DEFAULT_PARAMS) > 4000);
    }
}
