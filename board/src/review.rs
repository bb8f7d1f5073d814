//! How a review judges a turn: each seat's expected score on the game's
//! whole scale (places fixed so far, chances to win among the rest), and
//! the marks of a drop in it.

use crate::marks::{StepMark, step_marks};
use splut_rules::{Game, Seat, Step, StepText, place_points};

/// Each seat's chance to win, as `(seat, probability)`, summing to 1 (as
/// JSON: `{"r": 0.6, …}`, to three decimals), as the protocol's `info …
/// winprob` words give it (`splut_protocol::words::Info`).
pub type WinProb = Vec<(Seat, f64)>;

/// What an engine thinks of a position.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Evaluation {
    /// Its last score (`cp 14`, `win 3`), if it searched.
    pub score: Option<String>,
    /// Each seat's chance to win.
    #[serde(serialize_with = "crate::letters::probabilities")]
    pub winprob: WinProb,
    /// Its best turn from here (the rest of the side to move's turn), as
    /// it wrote it (`info … pv`).
    #[serde(serialize_with = "crate::letters::texts")]
    pub best: Vec<StepText>,
}

/// One turn of a reviewed game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TurnReview {
    /// The turn's place in the game's list of turns (0 first).
    pub index: usize,
    /// Its mover.
    #[serde(serialize_with = "crate::letters::text")]
    pub seat: Seat,
    /// The steps played.
    #[serde(serialize_with = "crate::letters::texts")]
    pub steps: Vec<Step>,
    /// How many steps of the game come before it.
    pub first_step: usize,
    /// The mover's expected score before the turn ([`expected_score`]: 1
    /// a win, 0 last place; for 2 players its chance to win).
    pub before: f64,
    /// The mover's expected score after it.
    pub after: f64,
    /// `before − after` (negative when the turn did better than expected).
    pub drop: f64,
    /// `mistake` or `blunder` (see [`MISTAKE_DROP`], [`BLUNDER_DROP`]);
    /// never for a turn equal to the engine's own choice (`best`).
    pub mark: Option<&'static str>,
    /// The engine's score before the turn, from the mover's view.
    pub score: Option<String>,
    /// The turn the engine would have played.
    #[serde(serialize_with = "crate::letters::texts")]
    pub best: Vec<StepText>,
    /// How to draw it.
    pub best_marks: Vec<StepMark>,
    /// Every seat's chance before the turn.
    #[serde(serialize_with = "crate::letters::probabilities")]
    pub winprob: WinProb,
    /// Every seat's chance after it.
    #[serde(serialize_with = "crate::letters::probabilities")]
    pub winprob_after: WinProb,
}

/// Where a review looks: the steps played before each turn of `game`,
/// and after its last step (one more than the turns).
pub fn turn_bounds(game: &Game) -> Vec<usize> {
    let mut bounds = vec![0];
    for (_, steps) in game.turns() {
        bounds.push(bounds[bounds.len() - 1] + steps.len());
    }
    bounds
}

/// Judges every turn of `game` by its mover's expected score before and
/// after it: `evals` are the engine's views at each of [`turn_bounds`].
pub fn judge(game: &Game, evals: &[Evaluation]) -> Vec<TurnReview> {
    let n = game.start().players_left() as usize;
    let turns = game.turns();
    let bounds = turn_bounds(game);
    if evals.len() < bounds.len() {
        return Vec::new();
    }
    // The places fixed at each turn's start (and after the last), once.
    let places: Vec<_> = bounds.iter().map(|&b| fixed_places(game, b)).collect();
    let score = |k: usize, seat: Seat| expected_score(seat, &evals[k].winprob, &places[k], n);
    turns
        .iter()
        .enumerate()
        .map(|(i, (seat, steps))| {
            let seat = *seat;
            let before = score(i, seat);
            let after = score(i + 1, seat);
            let drop = before - after;
            let steps = steps.clone();
            TurnReview {
                index: i,
                seat,
                mark: turn_mark(&steps, &evals[i].best, drop),
                steps,
                first_step: bounds[i],
                before,
                after,
                drop,
                score: evals[i].score.clone(),
                best: evals[i].best.clone(),
                best_marks: step_marks(&game.positions()[bounds[i]], &evals[i].best),
                winprob: evals[i].winprob.clone(),
                winprob_after: evals[i + 1].winprob.clone(),
            }
        })
        .collect()
}

/// A turn whose mover's expected score ([`expected_score`]) drops by this
/// much or more is a mistake.
pub const MISTAKE_DROP: f64 = 0.10;

/// A turn whose mover's expected score drops by this much or more is a
/// blunder.
pub const BLUNDER_DROP: f64 = 0.20;

/// The places fixed after the game's first `upto` steps, as the rules
/// decide them ([`Game::places_at`], [`splut_rules::Places::decided`]): each seat out
/// by then (the first out last of `n`, the next one place up, …) and, in
/// a finished game, the winner; first out first, the winner last.
pub fn fixed_places(game: &Game, upto: usize) -> Vec<(Seat, usize)> {
    let places = game.places_at(upto);
    let mut fixed: Vec<(Seat, usize)> = places.decided().collect();
    fixed.reverse();
    fixed
}

/// A seat's expected score on the game's whole scale: place k of `n` is
/// worth (n − k)/(n − 1) (the rules' [`place_points`] on a 1 to 0 scale),
/// 1 for a win and 0 for last (for 2 players, the
/// chance to win). A seat whose place is fixed (`places`: out, or the
/// winner) has its place's worth. A seat still in the game wins with its
/// chance in `winprob` (taken among the seats still in, rescaled to sum to
/// 1); otherwise its place is taken as spread evenly over the places
/// 2..k left to the k seats still in, an approximation (the engine gives a
/// chance to win, not a distribution of places). One scale before and
/// after a kill: the 3-seat chances before a throw and the 2-seat ones
/// after it give comparable scores, and the place of the seat killed
/// counts for the others.
pub fn expected_score(
    seat: Seat,
    winprob: &[(Seat, f64)],
    places: &[(Seat, usize)],
    n: usize,
) -> f64 {
    if n < 2 {
        return 1.0;
    }
    // The rules' place points (+1 down to −1) on this scale.
    let worth = |place: f64| (1.0 + place_points(n, place)) / 2.0;
    if let Some(&(_, place)) = places.iter().find(|x| x.0 == seat) {
        return worth(place as f64);
    }
    let fixed = |c: Seat| places.iter().any(|x| x.0 == c);
    let sum: f64 = winprob.iter().filter(|x| !fixed(x.0)).map(|x| x.1).sum();
    let p = winprob
        .iter()
        .find(|x| x.0 == seat)
        .map_or(0.0, |x| if sum > 0.0 { x.1 / sum } else { 0.0 });
    // Seats still in: those without a fixed place.
    let k = (n - places.len()).max(1) as f64;
    let place = p + (1.0 - p) * (2.0 + k) / 2.0;
    worth(place).clamp(0.0, 1.0)
}

/// The mark of a drop in win probability.
pub fn mark(drop: f64) -> Option<&'static str> {
    if drop >= BLUNDER_DROP {
        Some("blunder")
    } else if drop >= MISTAKE_DROP {
        Some("mistake")
    } else {
        None
    }
}

/// The mark of a turn: none for the engine's own choice, else by its drop.
pub fn turn_mark(played: &[Step], best: &[StepText], drop: f64) -> Option<&'static str> {
    if played.len() == best.len() && played.iter().zip(best).all(|(p, b)| p.text() == *b) {
        return None;
    }
    mark(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::Position;

    const R: Seat = Seat::Red;
    const Y: Seat = Seat::Yellow;
    const G: Seat = Seat::Green;
    const B: Seat = Seat::Blue;

    /// A step played from the 2-player start, and the engine's texts.
    fn played_and_texts() -> (Vec<Step>, Vec<StepText>, Vec<StepText>) {
        let p = Position::start(2).unwrap();
        let played = vec![p.parse_step("e2e3").unwrap()];
        let text = |s: &str| vec![StepText::parse(s).unwrap()];
        (played, text("e2e3"), text("d2d3"))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn expected_scores_are_on_one_scale_across_a_kill() {
        // 2 players: the chance to win itself.
        let two = vec![(R, 0.7), (G, 0.3)];
        assert!(close(expected_score(R, &two, &[], 2), 0.7));
        // 3 players, by hand: r wins with 0.75, else 2nd or 3rd evenly:
        // E[place] = 0.75 + 0.25 · 2.5 = 1.375, score (3 − 1.375)/2.
        let three = vec![(R, 0.75), (Y, 0.125), (G, 0.125)];
        assert!(close(expected_score(R, &three, &[], 3), 0.8125));
        // Red kills green (3rd) and then has 0.52 against yellow: place
        // 0.52 + 0.48 · 2 = 1.48, score 0.76; green's is fixed at 0.
        let after = vec![(R, 0.52), (Y, 0.48), (G, 0.0)];
        let out = [(G, 3)];
        assert!(close(expected_score(R, &after, &out, 3), 0.76));
        assert!(close(expected_score(G, &after, &out, 3), 0.0));
        // The drop across the kill is small: no mark (the win chance alone
        // fell from 0.75 to 0.52, a "blunder" on two scales).
        let drop = 0.8125 - 0.76;
        assert_eq!(mark(drop), None);
        // A kill that changes nothing else (red's odds against yellow the
        // same, 2 to 1) is a gain, not a drop: before, place 0.5 + 0.5 · 2.5
        // = 1.75, score 0.625; after, 2/3 + 1/3 · 2 = 4/3, score 5/6.
        let before = vec![(R, 0.5), (Y, 0.25), (G, 0.25)];
        let after = vec![(R, 2.0 / 3.0), (Y, 1.0 / 3.0), (G, 0.0)];
        let (b, a) = (
            expected_score(R, &before, &[], 3),
            expected_score(R, &after, &out, 3),
        );
        assert!(close(b, 0.625) && close(a, 5.0 / 6.0), "{b} {a}");
        let (played, _, other) = played_and_texts();
        assert_eq!(turn_mark(&played, &other, b - a), None);
        // Yellow, the one not killed, keeps its score on the same scale:
        // 0.25 + 0.75 · 2.5 = 2.125 before, 1/3 + 2/3 · 2 = 5/3 after.
        assert!(close(expected_score(Y, &before, &[], 3), 0.4375));
        assert!(close(expected_score(Y, &after, &out, 3), 2.0 / 3.0));
        // Even chances among 3: 1/2 each (places 1, 2, 3 on average 2).
        let even = vec![(R, 1.0 / 3.0), (Y, 1.0 / 3.0), (G, 1.0 / 3.0)];
        assert!(close(expected_score(Y, &even, &[], 3), 0.5));
        // A finished game: the winner 1, the second of 4 2/3.
        let done = [(B, 4), (G, 3), (Y, 2), (R, 1)];
        assert!(close(expected_score(R, &[], &done, 4), 1.0));
        assert!(close(expected_score(Y, &[], &done, 4), 2.0 / 3.0));
        // Chances given to a seat that is out do not count for the others.
        let stale = vec![(R, 0.4), (Y, 0.4), (G, 0.2)];
        assert!(close(
            expected_score(R, &stale, &out, 3),
            (3.0 - (0.5 + 0.5 * 2.0)) / 2.0
        ));
    }

    #[test]
    fn the_engines_own_turn_is_never_marked() {
        let (played, same, other) = played_and_texts();
        assert_eq!(turn_mark(&played, &same, 0.5), None);
        assert_eq!(turn_mark(&played, &other, 0.5), Some("blunder"));
        assert_eq!(turn_mark(&played, &other, 0.15), Some("mistake"));
    }

    #[test]
    fn places_are_fixed_as_seats_go_out() {
        let start = Position::from_spn("R/gTgDgS/5/7/yS7R/yD6/3R1/rDrSyT/R r 1 3 - - -").unwrap();
        let mut game = Game::new(start);
        game.play_all("d2d3 f2f3*n").unwrap();
        assert_eq!(fixed_places(&game, 0), []);
        assert_eq!(fixed_places(&game, 1), []);
        assert_eq!(fixed_places(&game, 2), [(G, 3)]);
        // A finished game: the seat out, then the winner.
        let start = Position::from_spn("R/gTgD1/5/3gS3/R7R/3R3/2rT2/rSrD1/1 r 3 10 - - -").unwrap();
        let mut game = Game::new(start);
        game.play_all("e3e4*n").unwrap();
        assert_eq!(fixed_places(&game, 0), []);
        assert_eq!(fixed_places(&game, 1), [(G, 2), (R, 1)]);
        assert_eq!(fixed_places(&game, 5), [(G, 2), (R, 1)]);
    }

    #[test]
    fn drops_are_marked() {
        assert_eq!(mark(0.05), None);
        assert_eq!(mark(-0.5), None);
        assert_eq!(mark(0.10), Some("mistake"));
        assert_eq!(mark(0.19), Some("mistake"));
        assert_eq!(mark(0.2), Some("blunder"));
    }
}
