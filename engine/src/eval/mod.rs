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
pub mod nnue;
pub mod params;
pub mod threats;

pub use cache::{EvalCache, EvalCaches, EvalState};
pub use params::{
    DEFAULT_PARAMS, DEFAULT_SET, EVERY_SEAT, EvalParams, EvalSet, MAX_EVAL, MAX_PARAMS_FILE,
    MAX_WEIGHT, ParamsError, SetFlatError,
};

use splut_rules::{Bitboard, Direction, Kind, Levitation, Position, Seat};
use threats::{Reaches, Target, Throws, levitation_landings, levitation_steps_to_kill_onto};

/// Which evaluation a search uses: the hand-written terms under `params`,
/// or the network `net` (the weights still give what `from_root` adds
/// around the seats' values: the bonus per eliminated opponent).
#[derive(Clone, Copy, Debug)]
pub struct Evaluator<'a> {
    /// The hand-written evaluation's weights.
    pub params: &'a EvalParams,
    /// The network, when it evaluates.
    pub net: Option<&'a nnue::Network>,
}

impl Evaluator<'_> {
    /// Max-n shares of `pos` ([`evaluate_shares`], or the network's
    /// [`nnue::shares`] from a fresh accumulator).
    pub fn shares(&self, pos: &Position) -> [i32; 4] {
        match self.net {
            Some(net) => nnue::shares(pos, &nnue::seat_values(net, pos), net.scale),
            None => evaluate_shares(pos, self.params),
        }
    }
}

/// What an `EvalFile` holds: a network file (it starts with
/// `SPLUTNET`) or a parameter file of weights.
#[derive(Debug)]
pub enum EvalFile {
    /// An empty path or `default`: the compiled-in weights and network.
    Default,
    /// A parameter file's weights.
    Weights(EvalSet),
    /// A network file's network.
    Network(nnue::Network),
}

impl EvalFile {
    /// Reads `path`, a network file or a parameter file by its first
    /// bytes ([`nnue::read_network`], [`EvalSet::from_file`]); an empty
    /// path or `default` is [`EvalFile::Default`].
    ///
    /// Errors ([`EvalFileError`]) name the file and what is wrong: it
    /// cannot be read, is a bad network, or is a bad parameter file. An
    /// empty file ([`EvalFileError::Empty`]) is refused, and so is a
    /// parameter file that names no weight, holding only blank lines,
    /// comments and `players` lines ([`EvalFileError::NoWeights`]): such
    /// a file would change nothing, so it is more likely the wrong file
    /// (or one cut short) than a wish for the compiled-in weights, which
    /// `default` asks for.
    pub fn read(path: &str) -> Result<EvalFile, EvalFileError> {
        use std::io::Read;
        if path.is_empty() || path.eq_ignore_ascii_case("default") {
            return Ok(EvalFile::Default);
        }
        let mut head = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(8).read_to_end(&mut head))
            .map_err(|error| EvalFileError::Io {
                path: path.to_string(),
                error,
            })?;
        if nnue::is_network_file(&head) {
            nnue::read_network(path).map(EvalFile::Network)
        } else {
            EvalSet::from_file(path).map(EvalFile::Weights)
        }
    }
}

/// Why a file of the evaluation was refused ([`EvalFile::read`],
/// [`EvalSet::from_file`], [`nnue::read_network`]). Every variant names
/// the file; its [`Display`](std::fmt::Display) is the message the
/// protocol shows after `option EvalFile: `, e.g. `'w.txt' line 3:
/// unknown weight 'bishop'`.
#[derive(Debug)]
pub enum EvalFileError {
    /// The file cannot be opened or read (missing, a directory, no
    /// permission…).
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is empty (0 bytes).
    Empty {
        /// The file.
        path: String,
    },
    /// A parameter file larger than [`MAX_PARAMS_FILE`].
    TooLarge {
        /// The file.
        path: String,
    },
    /// A parameter file that is not UTF-8 text.
    NotUtf8 {
        /// The file.
        path: String,
    },
    /// A parameter file with a bad line.
    Params {
        /// The file.
        path: String,
        /// The line and what is wrong with it.
        error: ParamsError,
    },
    /// A parameter file that names no weight: only blank lines, comments
    /// and `players` lines.
    NoWeights {
        /// The file.
        path: String,
    },
    /// A network file that is not a sound network of this build.
    Network {
        /// The file.
        path: String,
        /// What is wrong with it.
        error: nnue::NetworkError,
    },
}

impl EvalFileError {
    /// The file refused.
    pub fn path(&self) -> &str {
        match self {
            EvalFileError::Io { path, .. }
            | EvalFileError::Empty { path }
            | EvalFileError::TooLarge { path }
            | EvalFileError::NotUtf8 { path }
            | EvalFileError::Params { path, .. }
            | EvalFileError::NoWeights { path }
            | EvalFileError::Network { path, .. } => path,
        }
    }
}

impl std::fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalFileError::Io { path, error } => write!(f, "cannot read '{path}': {error}"),
            EvalFileError::Empty { path } => write!(f, "'{path}' is empty"),
            EvalFileError::TooLarge { path } => write!(
                f,
                "'{path}' is larger than {MAX_PARAMS_FILE} bytes; not a parameter file"
            ),
            EvalFileError::NotUtf8 { path } => write!(f, "'{path}' is not UTF-8 text"),
            EvalFileError::Params { path, error } => write!(f, "'{path}' {error}"),
            EvalFileError::NoWeights { path } => write!(
                f,
                "'{path}' names no weight (a parameter file sets at least one)"
            ),
            EvalFileError::Network { path, error } => write!(f, "'{path}': {error}"),
        }
    }
}

impl std::error::Error for EvalFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EvalFileError::Io { error, .. } => Some(error),
            EvalFileError::Params { error, .. } => Some(error),
            EvalFileError::Network { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Total of the max-n shares ([`evaluate_shares`]).
pub const SHARES_TOTAL: i32 = 10_000;

/// How many steps beyond a threat's `danger` looks.
pub const DANGER_EXTRA_STEPS: u8 = 3;

/// Farthest troll-to-rock distance `troll_near_rock` counts (steps).
const TROLL_NEAR_ROCK_MAX: u8 = 5;

/// Positional terms of one seat still in the game, whose sorcerer is
/// `target` and whose troll's reach is `reach`.
#[inline]
fn positional(
    pos: &Position,
    seat: Seat,
    target: &Target,
    reaches: &Reaches,
    p: &EvalParams,
) -> i32 {
    let mine = pos.seat_bb(seat);
    let empty = pos.empty();
    let mut score = 0;
    if (mine & pos.kind_bb(Kind::Dwarf)).any() {
        score += p.dwarf;
    }
    let sorcerer = mine & pos.kind_bb(Kind::Sorcerer);
    score -= p.exposed_line * target.exposed_lines() as i32;
    score += p.sorcerer_freedom * (sorcerer.neighbours() & empty).count() as i32;
    // The troll's steps to stand next to a rock (`troll_steps_to_rock`).
    if let Some(d) = reaches.steps_to(seat, pos.rocks().neighbours(), TROLL_NEAR_ROCK_MAX) {
        score += p.troll_near_rock[d as usize];
    }
    // The empty squares next to each piece, counted a direction at a time
    // (a piece's neighbour that way is empty) rather than a piece at a
    // time: the same sum, no loop.
    let free: u32 = Direction::ALL
        .map(|d| (mine.shift(d) & empty).count())
        .iter()
        .sum();
    score + p.mobility * free as i32
}

/// Each seat's score (0 for seats out of the game); higher is better for
/// that seat.
pub fn seat_scores(pos: &Position, p: &EvalParams) -> [i32; 4] {
    let mut score = [0; 4];
    let (order, n) = turn_order(pos);
    let order = &order[..n];
    // Written out rather than `array::from_fn`, whose closure the compiler
    // sometimes leaves out of line (1.2% of `splut bench`'s instructions).
    let targets: [Target; 4] = [
        Target::new(pos, Seat::Red),
        Target::new(pos, Seat::Yellow),
        Target::new(pos, Seat::Green),
        Target::new(pos, Seat::Blue),
    ];
    // Each troll's walks, shared by its terms.
    let reaches = Reaches::new(pos);
    for &s in order {
        score[s.index()] = positional(pos, s, &targets[s.index()], &reaches, p);
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
        let throws = reaches.throws(pos, attacker, steps, true);
        let far = (p.danger != 0)
            .then(|| reaches.farther_throws(pos, attacker, steps, DANGER_EXTRA_STEPS));
        // Most attackers float no rock anywhere useful: one cheap superset
        // per attacker spares the exact search per victim. Only the victims
        // in `levitation_victims` are aimed at (all by default; a strength
        // level's own seat alone): another's landings stay empty.
        let landings = if p.levitation_threat != 0 {
            let aim = near_of(order, &targets, |v| {
                v != attacker && levitation_victim(p, v)
            });
            if aim.any() {
                levitation_landings(pos, attacker, steps, floatable, aim)
            } else {
                Bitboard::EMPTY
            }
        } else {
            Bitboard::EMPTY
        };
        // Most attackers reach no other seat's lines at all: one mask for
        // every victim spares the loop over them (a victim whose lines
        // miss all of it is neither threatened nor in danger).
        let reached = throws.aim() | landings | far.as_ref().map_or(Bitboard::EMPTY, Throws::aim);
        let others = near_of(order, &targets, |v| v != attacker);
        if (reached & others).is_empty() {
            continue;
        }
        for (iv, &victim) in order.iter().enumerate() {
            if iv == ia {
                continue;
            }
            let percent = if throws.hits_target(pos, &targets[victim.index()]) {
                100
            } else if (landings & targets[victim.index()].near).any()
                && levitation_victim(p, victim)
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

/// The seats still in the game in the order they move from now, the side
/// to move first, and how many there are.
#[inline]
fn turn_order(pos: &Position) -> ([Seat; 4], usize) {
    let stm = pos.side_to_move();
    let mut order = [Seat::Red; 4];
    let mut n = 0;
    for i in 0..4 {
        let s = Seat::from_index(stm as u8 + i);
        if pos.in_game(s) {
            order[n] = s;
            n += 1;
        }
    }
    (order, n)
}

/// The squares on a line with the sorcerers of the seats of `order` that
/// `pick` keeps ([`Target::near`]): where a throw or a landing must reach
/// to threaten them.
#[inline]
pub(crate) fn near_of(
    order: &[Seat],
    targets: &[Target; 4],
    pick: impl Fn(Seat) -> bool,
) -> Bitboard {
    order
        .iter()
        .filter(|&&v| pick(v))
        .fold(Bitboard::EMPTY, |a, v| a | targets[v.index()].near)
}

/// Whether `levitation_threat` counts a kill on `victim`'s sorcerer
/// (`levitation_victims`).
fn levitation_victim(p: &EvalParams, victim: Seat) -> bool {
    p.levitation_victims & (1 << victim.index()) != 0
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
    shares_of(pos, p, || seat_scores(pos, p))
}

/// [`evaluate_shares`] with the position's [`seat_scores`] from `score`
/// (e.g. through an [`EvalCache`]), asked only when the game goes on.
pub fn shares_of(pos: &Position, p: &EvalParams, score: impl FnOnce() -> [i32; 4]) -> [i32; 4] {
    let mut shares = [0; 4];
    if let Some(w) = pos.winner() {
        shares[w.index()] = SHARES_TOTAL;
        return shares;
    }
    let score = score();
    // Strength above a floor just under a doomed seat's score, so a seat
    // about to be killed keeps only a sliver.
    let mut weight = [0i64; 4];
    let mut total = 0i64;
    for s in pos.seats_in_game() {
        let w = (i64::from(score[s.index()]) + i64::from(p.kill_now) + 1000).max(50);
        weight[s.index()] = w;
        total += w;
    }
    split_total(pos, |s| {
        (weight[s.index()] * i64::from(SHARES_TOTAL) / total) as i32
    })
}

/// Shares of [`SHARES_TOTAL`] for the seats in the game: `share(seat)`
/// each, the rounding's remainder to the last seat, so that they always
/// sum to the total (0 for seats out).
pub fn split_total(pos: &Position, share: impl Fn(Seat) -> i32) -> [i32; 4] {
    let mut shares = [0; 4];
    let mut given = 0;
    let mut last = None;
    for s in pos.seats_in_game() {
        let x = share(s);
        shares[s.index()] = x;
        given += x;
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

    #[test]
    fn levitation_threats_count_only_the_given_victims() {
        // Red can kill green by a levitation this turn.
        let p = pos(threats_levitate());
        let with = |victims: u8| {
            seat_scores(
                &p,
                &EvalParams {
                    levitation_threat: 100,
                    levitation_victims: victims,
                    ..DEFAULT_PARAMS
                },
            )
        };
        let (r, g) = (Seat::Red.index(), Seat::Green.index());
        let all = with(EVERY_SEAT);
        let off = seat_scores(&p, &DEFAULT_PARAMS);
        assert!(all[g] < off[g] - 4000, "{all:?} {off:?}");
        // Green's danger alone: green is charged, red as with the term off.
        let green = with(1 << g);
        assert_eq!((green[r], green[g]), (off[r], all[g]));
        // Red's alone: green's danger is not counted.
        let red = with(1 << r);
        assert_eq!((red[r], red[g]), (all[r], off[g]));
        assert_eq!(with(0), off);
        // Not part of the text form: a file leaves every seat in.
        let text = EvalParams {
            levitation_victims: 1 << g,
            ..DEFAULT_PARAMS
        }
        .to_text();
        assert!(!text.contains("levitation_victims"), "{text}");
        assert_eq!(EvalParams::from_text(&text).unwrap(), DEFAULT_PARAMS);
    }

    #[test]
    fn eval_file_refuses_an_empty_file_and_one_that_sets_nothing() {
        let dir = std::env::temp_dir().join(format!("splut-eval-file-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            path.to_str().unwrap().to_string()
        };
        let empty = write("empty.txt", b"");
        let e = EvalFile::read(&empty).unwrap_err();
        assert!(matches!(e, EvalFileError::Empty { .. }), "{e:?}");
        assert_eq!(e.to_string(), format!("'{empty}' is empty"));
        let comments = write("comments.txt", b"# nothing to change\n\n");
        let e = EvalFile::read(&comments).unwrap_err();
        assert!(matches!(e, EvalFileError::NoWeights { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("'{comments}' names no weight (a parameter file sets at least one)")
        );
        // A network's header alone is a network cut short.
        let header = write("header.nnue", nnue::network::MAGIC);
        let e = EvalFile::read(&header).unwrap_err();
        assert!(
            matches!(
                e,
                EvalFileError::Network {
                    error: nnue::NetworkError::HeaderTruncated { len: 8 },
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("'{header}': network file truncated: 8 bytes")
        );
        let one = write("one.txt", b"# more mobility\nmobility 70\n");
        match EvalFile::read(&one) {
            Ok(EvalFile::Weights(set)) => assert_eq!(set.for_players(2).mobility, 70),
            other => panic!("{other:?}"),
        }
        for default in ["", "default", "DEFAULT"] {
            assert!(matches!(EvalFile::read(default), Ok(EvalFile::Default)));
        }
    }
}
