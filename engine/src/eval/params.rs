//! The evaluation's weights: [`EvalParams`] (every weight declared once,
//! with its default), [`EvalSet`] (the weights by count of seats), and
//! their text form, the parameter files `EvalFile` loads (protocol.md,
//! "Parameter files").

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
    /// with [`super::DANGER_EXTRA_STEPS`] more steps than a threat allows (a
    /// turn later), the board standing still: a kill the other seats'
    /// moves may bring forward. 0 turns it off and skips its work.
    danger: i32 = 100,
    /// A kill that needs a levitation first (the attacker's sorcerer floats
    /// a rock into line, its troll throws it; [`super::threats::levitation_steps_to_kill`]),
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

/// Largest magnitude of [`super::evaluate`]: evaluations stay well inside the
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

    /// Every count's weights passed through `f`.
    pub fn map(&self, f: impl Fn(&EvalParams) -> EvalParams) -> EvalSet {
        EvalSet {
            by_players: self.by_players.clone().map(|p| f(&p)),
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

    #[test]
    fn a_short_array_reads_with_zeros_beyond_its_end() {
        // A file from when `troll_near_rock` had 4 entries keeps its meaning.
        let p = EvalParams::from_text("troll_near_rock 60 40 20 10").unwrap();
        assert_eq!(p.troll_near_rock, [60, 40, 20, 10, 0, 0]);
        let q = EvalParams::from_text("troll_near_rock 5").unwrap();
        assert_eq!(q.troll_near_rock, [5, 0, 0, 0, 0, 0]);
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
}
