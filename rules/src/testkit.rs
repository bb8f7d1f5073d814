//! Helpers for the rule tests: positions from SPN, steps from text.

use super::Position;

/// Parses an SPN the test knows is valid.
pub fn pos(spn: &str) -> Position {
    Position::from_spn(spn).unwrap_or_else(|e| panic!("bad test SPN {spn}: {e}"))
}

/// Plays space-separated steps, each checked for legality.
pub fn play(p: &Position, steps: &str) -> Position {
    let mut p = *p;
    for t in steps.split_whitespace() {
        let s = p
            .parse_step(t)
            .unwrap_or_else(|e| panic!("{t} in {p}: {e}"));
        p.play(s);
        assert_eq!(p.hash(), p.compute_hash(), "hash after {t}");
    }
    p
}

/// The legal steps as sorted text.
pub fn legal(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_step_vec().iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The legal steps of the piece on `from`, sorted.
pub fn legal_from(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal(p)
        .into_iter()
        .filter(|s| s.starts_with(from))
        .collect();
    v.sort();
    v
}

/// Whether the step is legal.
pub fn is_legal(p: &Position, step: &str) -> bool {
    p.parse_step(step).is_ok()
}

/// Sorted strings from a space-separated list.
pub fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}
