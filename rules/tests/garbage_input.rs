//! Bad input never crashes: mutated SPN strings and random step texts give
//! an error or a consistent position, never a panic.

use splut_rules::{Position, StepText};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: [&str; 6] = [
    "R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - -",
    "R/gTgDgS/5/yS5bT/RyD5bDR/yT5bS/5/rSrDrT/R r 1 1 - - -",
    "1/1gD1/1gS3/1RgT4/1rSR6/2R3R/4rT/3/rD r 1 19 d4 h4 d4",
    "1/1R1/gT1gD2/7/3rT3gSR/7/RrD1rS1/3/R r 1 27 x c3 e8",
    "R/1gDgS/gT4/yS5bT/1RyT4bDR/1yDrS4/4bS/rDrTR/1 y 2 10 - f2 -",
    "R/3/2R2/7/R7R/rS2rT3/rD4/3/1 r 3 11 - e7 -",
];

/// Characters that SPN and steps use, plus a few that they do not.
const ALPHABET: &[char] = &[
    'R', 'r', 'y', 'g', 'b', 'S', 'D', 'T', '/', ' ', '-', 'x', ',', '0', '1', '2', '3', '4', '5',
    '6', '7', '8', '9', 'a', 'e', 'i', 'j', '^', '*', '@', 'n', 's', 'w', 'é', '\t', '\n',
];

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let c = ALPHABET[rng.below(ALPHABET.len())];
        let at = rng.below(chars.len() + 1);
        match rng.below(3) {
            0 => chars.insert(at, c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = c,
            _ => chars.push(c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_spn_is_an_error_or_a_consistent_position() {
    let mut rng = Rng(0x5EED);
    let (mut ok, mut refused) = (0, 0);
    for i in 0..100_000 {
        let text = mutate(&mut rng, SEEDS[i % SEEDS.len()]);
        match Position::from_spn(&text) {
            Ok(p) => {
                ok += 1;
                p.validate().unwrap_or_else(|e| panic!("{text:?}: {e}"));
                assert_eq!(Position::from_spn(&p.to_spn()).unwrap(), p);
                // Any accepted position can be played on.
                let _ = splut_rules::perft(&p, 2);
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(ok > 500 && refused > 1000, "ok {ok}, refused {refused}");
}

#[test]
fn random_step_texts_are_refused_or_legal() {
    let mut rng = Rng(0xD1CE);
    let pos = Position::from_spn(SEEDS[2]).unwrap();
    let legal: Vec<String> = pos.legal_step_vec().iter().map(|s| s.to_string()).collect();
    for i in 0..100_000 {
        let base = if i % 2 == 0 {
            legal[i % legal.len()].as_str()
        } else {
            "e2e3"
        };
        let text = mutate(&mut rng, base);
        let _ = StepText::parse(&text);
        match pos.parse_step(&text) {
            Ok(s) => assert_eq!(s.to_string(), text),
            Err(e) => assert!(!legal.contains(&text), "{text}: {e}"),
        }
    }
}
