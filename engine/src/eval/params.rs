//! The evaluation's weights: [`EvalParams`] (every weight declared once,
//! with its default), [`EvalSet`] (the weights by count of seats), and
//! their text form, the parameter files `EvalFile` loads (protocol.md,
//! "Parameter files").

use super::EvalFileError;

/// Declares [`EvalParams`] once: each weight's doc, name, type (`i32` or
/// `[i32; N]`) and default value. The text form, the flat view for a tuner
/// and the defaults are all derived from this one list, so a new weight is
/// one entry here.
///
/// After the weights, `switches` declares the few settings that are no
/// weights (a set of seats, say): fields of [`EvalParams`] with their
/// defaults, left out of the text form and the flat view, so that
/// neither a parameter file nor a tuner sets them.
macro_rules! eval_params {
    (
        weights {
            $($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:expr,)*
        }
        switches {
            $($(#[doc = $sdoc:literal])* $sname:ident: $sty:ty = $sdefault:expr,)*
        }
    ) => {
        /// The evaluation's weights, in centi-units (a dwarf is worth about
        /// 150). As text ([`EvalParams::to_text`], [`EvalParams::from_text`]):
        /// one `name value…` line per weight. A few switches that are no
        /// weights follow them, which the text leaves out (they keep their
        /// defaults when read back).
        #[derive(Clone, Debug, PartialEq)]
        pub struct EvalParams {
            $($(#[doc = $doc])* pub $name: $ty,)*
            $($(#[doc = $sdoc])* pub $sname: $sty,)*
        }

        /// The weights the engine plays with.
        pub const DEFAULT_PARAMS: EvalParams = EvalParams {
            $($name: $default,)*
            $($sname: $sdefault,)*
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
    weights {
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
    switches {
        /// The seats whose sorcerer `levitation_threat` counts as in
        /// danger: a set of seats, bit `1 << seat.index()` for each
        /// ([`EVERY_SEAT`] by default). The strength levels see a
        /// levitation set-up only as a threat to their own sorcerer
        /// (see `skill.rs`): they parry such a kill without
        /// learning to make one. A kill that needs no levitation is
        /// counted whatever the set.
        levitation_victims: u8 = EVERY_SEAT,
    }
}

/// Every seat, as a set of seats (`levitation_victims`).
pub const EVERY_SEAT: u8 = 0b1111;

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
    /// the line ([`ParamsError`]). A text that names no weight (empty,
    /// or only blank lines and comments) gives the compiled-in weights.
    pub fn from_text(text: &str) -> Result<EvalParams, ParamsError> {
        let mut params = DEFAULT_PARAMS;
        params.apply(text.lines().enumerate())?;
        Ok(params)
    }

    /// Sets the weights that numbered `lines` name (see
    /// [`EvalParams::from_text`]); a name given twice among them is an error.
    fn apply<'t>(
        &mut self,
        lines: impl Iterator<Item = (usize, &'t str)>,
    ) -> Result<(), ParamsError> {
        let params = self;
        let mut seen: Vec<&str> = Vec::new();
        for (i, raw) in lines {
            let line = raw.split('#').next().unwrap_or("");
            let mut words = line.split_whitespace();
            let Some(name) = words.next() else {
                continue;
            };
            let line = i + 1;
            let mut terms = params.terms_mut();
            let Some((known, values)) = terms.iter_mut().find(|(n, _)| *n == name) else {
                return Err(ParamsError::UnknownWeight {
                    line,
                    name: name.to_string(),
                });
            };
            let name = *known;
            if seen.contains(&name) {
                return Err(ParamsError::GivenTwice {
                    line,
                    name: name.to_string(),
                });
            }
            seen.push(name);
            let numbers: Vec<&str> = words.collect();
            // An array may be given shorter (files written when it had fewer
            // entries, e.g. a 4-step `troll_near_rock`): the rest is 0, as
            // the entries beyond the old end counted for nothing then.
            if !(1..=values.len()).contains(&numbers.len()) {
                return Err(ParamsError::WrongCount {
                    line,
                    name: name.to_string(),
                    takes: values.len(),
                    found: numbers.len(),
                });
            }
            values.fill(0);
            for (slot, word) in values.iter_mut().zip(numbers) {
                *slot = word
                    .parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() <= MAX_WEIGHT)
                    .ok_or_else(|| ParamsError::BadNumber {
                        line,
                        name: name.to_string(),
                        word: word.to_string(),
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
    /// unknown name or a value beyond ±[`MAX_WEIGHT`] ([`SetFlatError`]).
    pub fn set_flat(&mut self, name: &str, value: i32) -> Result<(), SetFlatError> {
        if value.abs() > MAX_WEIGHT {
            return Err(SetFlatError::OutOfRange {
                name: name.to_string(),
                value,
            });
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
        Err(SetFlatError::UnknownWeight {
            name: name.to_string(),
        })
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
    /// compiled-in value for that count. A bad line is an error naming
    /// it ([`ParamsError`]); a text that names no weight gives the
    /// compiled-in weights (a file that does is refused by
    /// [`EvalSet::from_file`]).
    pub fn from_text(text: &str) -> Result<EvalSet, ParamsError> {
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
                    .ok_or(ParamsError::BadPlayers { line: i + 1 })?;
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
    /// `default` gives the compiled-in weights. Errors name the file: one
    /// that cannot be read ([`EvalFileError::Io`]), is empty
    /// ([`EvalFileError::Empty`]), is larger than [`MAX_PARAMS_FILE`]
    /// ([`EvalFileError::TooLarge`]), is not UTF-8 text
    /// ([`EvalFileError::NotUtf8`]), holds a bad line
    /// ([`EvalFileError::Params`]) or names no weight, holding only blank
    /// lines, comments and `players` lines ([`EvalFileError::NoWeights`]):
    /// a file meant to change nothing is more likely a wrong or damaged
    /// one, and `default` says "the compiled-in weights" plainly.
    pub fn from_file(path: &str) -> Result<EvalSet, EvalFileError> {
        use std::io::Read;
        if path.is_empty() || path.eq_ignore_ascii_case("default") {
            return Ok(DEFAULT_SET);
        }
        let file = || path.to_string();
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_PARAMS_FILE + 1).read_to_end(&mut bytes))
            .map_err(|error| EvalFileError::Io {
                path: file(),
                error,
            })?;
        if bytes.is_empty() {
            return Err(EvalFileError::Empty { path: file() });
        }
        if bytes.len() as u64 > MAX_PARAMS_FILE {
            return Err(EvalFileError::TooLarge { path: file() });
        }
        let text = String::from_utf8(bytes).map_err(|_| EvalFileError::NotUtf8 { path: file() })?;
        let set = EvalSet::from_text(&text).map_err(|error| EvalFileError::Params {
            path: file(),
            error,
        })?;
        if !names_a_weight(&text) {
            return Err(EvalFileError::NoWeights { path: file() });
        }
        Ok(set)
    }
}

/// Whether a text of weights that reads without error names a weight: a
/// line with a word, once comments are cut, that is not `players`.
fn names_a_weight(text: &str) -> bool {
    text.lines().any(|raw| {
        let line = raw.split('#').next().unwrap_or("");
        line.split_whitespace()
            .next()
            .is_some_and(|word| word != "players")
    })
}

/// What is wrong with a text of weights ([`EvalParams::from_text`],
/// [`EvalSet::from_text`]): each names its line, counted from 1. Its
/// [`Display`](std::fmt::Display) is the message the protocol shows, e.g.
/// `line 3: unknown weight 'bishop'`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// A line whose first word is no weight's name (shown cut to 40
    /// characters).
    UnknownWeight {
        /// The line, from 1.
        line: usize,
        /// The word, as written.
        name: String,
    },
    /// A weight named a second time among the lines before any `players`
    /// line, or within one section.
    GivenTwice {
        /// The line of the second time, from 1.
        line: usize,
        /// The weight.
        name: String,
    },
    /// A weight given no number, or more numbers than it has.
    WrongCount {
        /// The line, from 1.
        line: usize,
        /// The weight.
        name: String,
        /// How many numbers the weight has (it takes 1 to this many).
        takes: usize,
        /// How many the line gives.
        found: usize,
    },
    /// A value that is not a whole number from -[`MAX_WEIGHT`] to
    /// [`MAX_WEIGHT`] (shown cut to 40 characters).
    BadNumber {
        /// The line, from 1.
        line: usize,
        /// The weight.
        name: String,
        /// The value, as written.
        word: String,
    },
    /// A `players` line without counts, or with one that is not 2, 3 or 4.
    BadPlayers {
        /// The line, from 1.
        line: usize,
    },
}

impl std::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamsError::UnknownWeight { line, name } => {
                write!(f, "line {line}: unknown weight '{}'", shorten(name))
            }
            ParamsError::GivenTwice { line, name } => {
                write!(f, "line {line}: '{name}' given twice")
            }
            ParamsError::WrongCount {
                line,
                name,
                takes,
                found,
            } => {
                write!(f, "line {line}: '{name}' takes ")?;
                match takes {
                    1 => write!(f, "1 number")?,
                    n => write!(f, "1 to {n} numbers")?,
                }
                write!(f, ", found {found}")
            }
            ParamsError::BadNumber { line, name, word } => write!(
                f,
                "line {line}: '{name}': '{}' is not a whole number from -{MAX_WEIGHT} to {MAX_WEIGHT}",
                shorten(word)
            ),
            ParamsError::BadPlayers { line } => {
                write!(f, "line {line}: 'players' takes counts from 2 to 4")
            }
        }
    }
}

impl std::error::Error for ParamsError {}

/// Why [`EvalParams::set_flat`] refused a number. Its
/// [`Display`](std::fmt::Display) is the message a tuner shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetFlatError {
    /// A value beyond ±[`MAX_WEIGHT`] (checked first, whatever the name).
    OutOfRange {
        /// The name given.
        name: String,
        /// The value given.
        value: i32,
    },
    /// A name that is no [`EvalParams::flat`] name (shown cut to 40
    /// characters): no such weight, an index on a scalar weight, none or
    /// one past the end on an array weight.
    UnknownWeight {
        /// The name given.
        name: String,
    },
}

impl std::fmt::Display for SetFlatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetFlatError::OutOfRange { name, value } => {
                write!(f, "weight '{name}': {value} is beyond ±{MAX_WEIGHT}")
            }
            SetFlatError::UnknownWeight { name } => {
                write!(f, "unknown weight '{}'", shorten(name))
            }
        }
    }
}

impl std::error::Error for SetFlatError {}

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
            let e = EvalSet::from_text(text).unwrap_err().to_string();
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
            let e = EvalParams::from_text(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        assert!(EvalParams::from_text("dwarf -1000000").is_ok());
    }

    /// Each [`ParamsError`] from a real malformed text, and its message.
    #[test]
    fn each_params_error_from_a_bad_text_and_its_message() {
        let long = "x".repeat(50);
        for (text, error, says) in [
            (
                "dwarf 1\nbishop 3".to_string(),
                ParamsError::UnknownWeight {
                    line: 2,
                    name: "bishop".into(),
                },
                "line 2: unknown weight 'bishop'".to_string(),
            ),
            (
                long.clone(),
                ParamsError::UnknownWeight {
                    line: 1,
                    name: long.clone(),
                },
                format!("line 1: unknown weight '{}…'", "x".repeat(40)),
            ),
            (
                "mobility 1\n# again\nmobility 2".into(),
                ParamsError::GivenTwice {
                    line: 3,
                    name: "mobility".into(),
                },
                "line 3: 'mobility' given twice".into(),
            ),
            (
                "dwarf".into(),
                ParamsError::WrongCount {
                    line: 1,
                    name: "dwarf".into(),
                    takes: 1,
                    found: 0,
                },
                "line 1: 'dwarf' takes 1 number, found 0".into(),
            ),
            (
                "\ntroll_near_rock 1 2 3 4 5 6 7".into(),
                ParamsError::WrongCount {
                    line: 2,
                    name: "troll_near_rock".into(),
                    takes: 6,
                    found: 7,
                },
                "line 2: 'troll_near_rock' takes 1 to 6 numbers, found 7".into(),
            ),
            (
                "dwarf ten".into(),
                ParamsError::BadNumber {
                    line: 1,
                    name: "dwarf".into(),
                    word: "ten".into(),
                },
                "line 1: 'dwarf': 'ten' is not a whole number from -1000000 to 1000000".into(),
            ),
            (
                "dwarf 1\nplayers 2 5\n".into(),
                ParamsError::BadPlayers { line: 2 },
                "line 2: 'players' takes counts from 2 to 4".into(),
            ),
        ] {
            let got = EvalSet::from_text(&text).unwrap_err();
            assert_eq!(got, error, "{text:?}");
            assert_eq!(got.to_string(), says, "{text:?}");
            if !text.contains("players") {
                assert_eq!(EvalParams::from_text(&text), Err(error), "{text:?}");
            }
        }
        // Text that names no weight reads as the compiled-in weights (a
        // file of it is refused: `EvalSet::from_file`).
        for text in ["", "  \n\t\n", "# only a comment\n", "players 3\n"] {
            assert_eq!(EvalSet::from_text(text), Ok(DEFAULT_SET), "{text:?}");
        }
    }

    #[test]
    fn each_set_flat_error_and_its_message() {
        let mut p = DEFAULT_PARAMS;
        for (name, value, error, says) in [
            (
                "dwarf",
                MAX_WEIGHT + 1,
                SetFlatError::OutOfRange {
                    name: "dwarf".into(),
                    value: MAX_WEIGHT + 1,
                },
                "weight 'dwarf': 1000001 is beyond ±1000000",
            ),
            (
                "bishop",
                1,
                SetFlatError::UnknownWeight {
                    name: "bishop".into(),
                },
                "unknown weight 'bishop'",
            ),
            (
                "troll_near_rock.6",
                1,
                SetFlatError::UnknownWeight {
                    name: "troll_near_rock.6".into(),
                },
                "unknown weight 'troll_near_rock.6'",
            ),
        ] {
            let got = p.set_flat(name, value).unwrap_err();
            assert_eq!(got, error);
            assert_eq!(got.to_string(), says);
        }
        assert_eq!(p, DEFAULT_PARAMS, "a refused number changed a weight");
    }

    /// A file in a fresh temporary folder holding `bytes`.
    fn temp_file(name: &str, bytes: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!("splut-params-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    }

    #[test]
    fn each_parameter_file_error_and_its_message() {
        let missing = std::env::temp_dir()
            .join("splut-no-such-params.txt")
            .to_str()
            .unwrap()
            .to_string();
        let e = EvalSet::from_file(&missing).unwrap_err();
        assert!(matches!(&e, EvalFileError::Io { path, .. } if *path == missing));
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read '{missing}': ")),
            "{e}"
        );
        assert_eq!(e.path(), missing);
        assert!(std::error::Error::source(&e).is_some());

        let empty = temp_file("empty.txt", b"");
        let e = EvalSet::from_file(&empty).unwrap_err();
        assert!(matches!(e, EvalFileError::Empty { .. }), "{e:?}");
        assert_eq!(e.to_string(), format!("'{empty}' is empty"));

        for (name, text) in [
            ("blank.txt", " \n\n\t\n"),
            ("comments.txt", "# tuned weights\n\n   # none yet\n"),
            ("sections.txt", "# by seats\nplayers 3 4\nplayers 2\n"),
        ] {
            let path = temp_file(name, text.as_bytes());
            let e = EvalSet::from_file(&path).unwrap_err();
            assert!(matches!(e, EvalFileError::NoWeights { .. }), "{e:?}");
            assert_eq!(
                e.to_string(),
                format!("'{path}' names no weight (a parameter file sets at least one)")
            );
        }

        let large = temp_file(
            "large.txt",
            "# padding\n"
                .repeat(MAX_PARAMS_FILE as usize / 10 + 1)
                .as_bytes(),
        );
        let e = EvalSet::from_file(&large).unwrap_err();
        assert!(matches!(e, EvalFileError::TooLarge { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("'{large}' is larger than 1048576 bytes; not a parameter file")
        );

        let binary = temp_file("binary.txt", &[0xff, 0xfe, 0, 1]);
        let e = EvalSet::from_file(&binary).unwrap_err();
        assert!(matches!(e, EvalFileError::NotUtf8 { .. }), "{e:?}");
        assert_eq!(e.to_string(), format!("'{binary}' is not UTF-8 text"));

        let bad = temp_file("bad.txt", b"dwarf 1\nbishop 3\n");
        let e = EvalSet::from_file(&bad).unwrap_err();
        assert!(
            matches!(
                &e,
                EvalFileError::Params {
                    error: ParamsError::UnknownWeight { line: 2, .. },
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("'{bad}' line 2: unknown weight 'bishop'")
        );

        // One weight among comments is a file of weights.
        let one = temp_file("one.txt", b"# tuned\nplayers 3\nmobility 7 # more\n");
        let set = EvalSet::from_file(&one).unwrap();
        assert_eq!(set.for_players(3).mobility, 7);
        assert_eq!(set.for_players(2), &DEFAULT_PARAMS);
        assert_eq!(EvalSet::from_file("default").unwrap(), DEFAULT_SET);
    }
}
