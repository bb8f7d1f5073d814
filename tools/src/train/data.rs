//! The training set in memory: one 32-byte [`Entry`] a position (10M
//! positions take 360 MB), read from data files of either format, split
//! into training and validation by game.

use crate::datagen::binary::{MAGIC, RECORD, first_record_size, read_binary, read_magic};
use crate::datagen::{Sample, VALUE_UNIT, read_files_with};
use splut_engine::eval::nnue::features::{self, MAX_ACTIVE};
use splut_engine::search::score::Score;
use splut_rules::{NUM_SQUARES, Seat, Square, splitmix64};
use std::path::Path;

/// An [`Entry`] square slot that holds nothing.
pub const NONE: u8 = 255;

/// The score of a proven win in [`Entry::score`]; a proven loss is its
/// negation. Beyond every `cp` value.
pub const PROVEN: i32 = 1 << 30;

/// Place points are stored in twelfths: every share of 2–4 seats is a
/// whole number of them.
pub const RESULT_UNIT: f32 = 12.0;

/// One position, as the trainer needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Entry {
    /// Squares (0–40, or [`NONE`]): slots 0–11 the pieces, board
    /// `3 × seat + kind` of [`features::Boards`]; slots 12–15 the rocks.
    pub squares: [u8; 16],
    /// Each seat's output bucket ([`features::bucket`]); [`NONE`] for a
    /// seat not in the game (it has no view).
    pub bucket: [u8; 4],
    /// Each seat's place points in twelfths; [`NONE`] for a seat not in
    /// the game.
    pub result: [u8; 4],
    /// The search score from the side to move's view: `cp`, or
    /// ±[`PROVEN`].
    pub score: i32,
    /// The side to move's seat index.
    pub stm: u8,
    /// Seats in the game.
    pub players: u8,
    /// Padding (0).
    pub pad: [u8; 2],
    /// The throw threats ([`features::threats`]).
    pub threats: u32,
    /// Each seat's value from the search in [`VALUE_UNIT`]ths of a place
    /// point; [`NONE`] where the data has none.
    pub values: [u8; 4],
}

impl Entry {
    /// The entry of a sample; `None` if a seat in the game has no place
    /// or fewer than two seats are in the game.
    pub fn new(s: &Sample) -> Option<Entry> {
        let pos = &s.position;
        let mut e = Entry {
            squares: [NONE; 16],
            bucket: [NONE; 4],
            result: [NONE; 4],
            score: match s.score {
                Score::Cp(v) => v,
                Score::Win(_) => PROVEN,
                Score::Loss(_) => -PROVEN,
            },
            stm: pos.side_to_move().index() as u8,
            players: pos.players_left() as u8,
            pad: [0; 2],
            threats: features::threats(pos),
            values: s.values.unwrap_or([NONE; 4]),
        };
        if e.players < 2 {
            return None;
        }
        let boards = features::boards(pos);
        for (i, b) in boards[..12].iter().enumerate() {
            // At most one piece of a seat and kind.
            if let Some(sq) = (*b).into_iter().next() {
                e.squares[i] = sq.index() as u8;
            }
        }
        for (i, sq) in boards[12].into_iter().take(4).enumerate() {
            e.squares[12 + i] = sq.index() as u8;
        }
        for seat in pos.seats_in_game() {
            let r = s.result_for(seat)?;
            e.result[seat.index()] = (r * f64::from(RESULT_UNIT)).round() as u8;
            e.bucket[seat.index()] = features::bucket(pos, seat) as u8;
        }
        Some(e)
    }

    /// Seat `seat`'s value from the search (0–1), if the data has one.
    #[inline]
    pub fn value(&self, seat: usize) -> Option<f32> {
        (self.values[seat] != NONE).then(|| f32::from(self.values[seat]) / f32::from(VALUE_UNIT))
    }

    /// Seat `seat`'s place points (0–1), if it is in the game.
    #[inline]
    pub fn result(&self, seat: usize) -> Option<f32> {
        (self.result[seat] != NONE).then(|| f32::from(self.result[seat]) / RESULT_UNIT)
    }
}

/// `INPUT[view][board][square]`: the input of a piece or rock of board
/// `board` ([`features::Boards`]) on `square` seen from `view`, built from
/// [`features::board_input`] so the two cannot differ.
pub struct InputTable(Vec<u16>);

impl InputTable {
    /// The table.
    pub fn new() -> InputTable {
        let mut t = vec![0u16; 4 * 13 * NUM_SQUARES];
        for view in Seat::ALL {
            for board in 0..13 {
                for sq in Square::all() {
                    t[(view.index() * 13 + board) * NUM_SQUARES + sq.index()] =
                        features::board_input(view, board, sq) as u16;
                }
            }
        }
        InputTable(t)
    }

    /// The active inputs of `e` seen from seat `view`; how many.
    #[inline]
    pub fn active(&self, e: &Entry, view: usize, out: &mut [u16; MAX_ACTIVE]) -> usize {
        let mut n = 0;
        for (slot, &sq) in e.squares.iter().enumerate() {
            if sq != NONE {
                let board = slot.min(12);
                out[n] = self.0[(view * 13 + board) * NUM_SQUARES + usize::from(sq)];
                n += 1;
            }
        }
        for i in features::threat_inputs(Seat::ALL[view], e.threats) {
            out[n] = i as u16;
            n += 1;
        }
        n
    }
}

impl Default for InputTable {
    fn default() -> InputTable {
        InputTable::new()
    }
}

/// The data: training and validation entries.
#[derive(Debug, Default)]
pub struct Data {
    /// Entries trained on.
    pub train: Vec<Entry>,
    /// Entries of the validation games.
    pub validation: Vec<Entry>,
    /// Samples read.
    pub read: usize,
    /// Samples skipped (fewer than two seats in the game).
    pub skipped: usize,
    /// Files whose cut-short last record or line was left out.
    pub cut: usize,
}

/// Whether game `seed:game` goes to validation, for a `fraction` of the
/// games: a hash of the game, so every position of a game goes the same
/// way, and the split does not depend on the file order or the trainer's
/// seed.
pub fn is_validation(seed: u64, game: u64, fraction: f64) -> bool {
    let mut st = seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let h = splitmix64(&mut st);
    ((h >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// Reads data files (text or binary) into entries, splitting a
/// `validation` fraction of the games off. A binary file's cut-short last
/// record (a run still writing it, or killed) is left out and counted in
/// [`Data::cut`], as the text reader skips a cut-short last line.
pub fn load<P: AsRef<Path>>(paths: &[P], validation: f64) -> Result<Data, String> {
    let mut d = Data::default();
    for path in paths {
        let path = path.as_ref();
        let mut each = |s: Sample| {
            d.read += 1;
            match Entry::new(&s) {
                Some(e) if is_validation(s.seed, s.game, validation) => d.validation.push(e),
                Some(e) => d.train.push(e),
                None => d.skipped += 1,
            }
        };
        match whole_records(path)? {
            Some((len, whole)) => {
                let name = path.display().to_string();
                let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
                read_binary(std::io::Read::take(file, whole), &name, &mut each)?;
                d.cut += usize::from(len != whole);
            }
            None => {
                d.cut += read_files_with(&[path], &mut each)?.truncated.len();
            }
        }
    }
    if d.train.is_empty() {
        return Err(format!(
            "no training positions in the data ({} read, {} in validation games)",
            d.read,
            d.validation.len()
        ));
    }
    Ok(d)
}

/// For a binary data file, its length and the bytes of its whole records;
/// `None` for another file.
fn whole_records(path: &Path) -> Result<Option<(u64, u64)>, String> {
    let name = path.display();
    let mut file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let magic = read_magic(&mut file).map_err(|e| format!("{name}: {e}"))?;
    if magic != MAGIC {
        return Ok(None);
    }
    let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(0))
        .map_err(|e| format!("{name}: {e}"))?;
    // A run's file holds records of one size, its header's.
    let size = first_record_size(&mut file)
        .map_err(|e| format!("{name}: {e}"))?
        .unwrap_or(RECORD) as u64;
    Ok(Some((len, len - len % size)))
}

/// A fingerprint of entries (FNV-1a over their bytes, 8 at a time), so a
/// checkpoint is resumed only on the data it was trained on.
pub fn fingerprint(entries: &[Entry]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for e in entries {
        let words = [
            u64::from_le_bytes(e.squares[..8].try_into().unwrap_or_default()),
            u64::from_le_bytes(e.squares[8..].try_into().unwrap_or_default()),
            u64::from(u32::from_le_bytes(e.bucket)) << 32 | u64::from(u32::from_le_bytes(e.result)),
            u64::from(e.score as u32) << 16 | u64::from(e.stm) << 8 | u64::from(e.players),
            u64::from(u32::from_le_bytes(e.values)),
        ];
        for w in words {
            h ^= w;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The side to move's result and its search score in `cp`, for fitting
/// the sigmoid's scale: the entries with a `cp` score.
pub fn score_outcomes(entries: &[Entry]) -> Vec<(f32, f32)> {
    entries
        .iter()
        .filter(|e| e.score.abs() < PROVEN)
        .filter_map(|e| Some((e.score as f32, e.result(usize::from(e.stm))?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::{Game, Kind, Position};

    /// A position's pieces by slot, for tests: the square of `seat`'s `kind`.
    pub fn piece_slot(seat: Seat, kind: Kind) -> usize {
        3 * seat.index() + kind.index()
    }

    /// The position of `e` has these active inputs for `view` (a check of the
    /// table against [`features::active`]).
    pub fn same_inputs(table: &InputTable, e: &Entry, pos: &Position, view: Seat) -> bool {
        let mut a = Vec::new();
        features::active(pos, view, &mut a);
        a.sort_unstable();
        let mut buf = [0u16; MAX_ACTIVE];
        let n = table.active(e, view.index(), &mut buf);
        let mut b: Vec<usize> = buf[..n].iter().map(|&i| usize::from(i)).collect();
        b.sort_unstable();
        a == b
    }

    fn sample(position: Position, places: Vec<Vec<Seat>>) -> Sample {
        Sample {
            position,
            score: Score::Cp(37),
            places,
            seed: 1,
            game: 1,
            values: None,
        }
    }

    #[test]
    fn entries_give_the_features_inputs_for_random_positions() {
        let table = InputTable::new();
        let mut st = 7u64;
        for players in 2..=4 {
            let mut game = Game::new(Position::start(players).unwrap());
            for _ in 0..200 {
                let pos = *game.position();
                let places = vec![pos.seats_in_game().collect()];
                if let Some(e) = Entry::new(&sample(pos, places)) {
                    for view in pos.seats_in_game() {
                        assert!(same_inputs(&table, &e, &pos, view));
                        let b = features::bucket(&pos, view);
                        assert_eq!(usize::from(e.bucket[view.index()]), b);
                    }
                }
                let legal = pos.legal_step_vec();
                if legal.is_empty() {
                    break;
                }
                let step = legal[(splitmix64(&mut st) % legal.len() as u64) as usize];
                game.play(step).unwrap();
            }
        }
        assert_eq!(std::mem::size_of::<Entry>(), 40);
        assert_eq!(piece_slot(Seat::Green, Kind::Troll), 8);
    }

    #[test]
    fn results_are_kept_in_twelfths() {
        let pos = Position::start(4).unwrap();
        let places = vec![
            vec![Seat::Blue],
            vec![Seat::Red, Seat::Green],
            vec![Seat::Yellow],
        ];
        let e = Entry::new(&sample(pos, places)).unwrap();
        assert_eq!(e.result(Seat::Blue.index()), Some(1.0));
        assert_eq!(e.result(Seat::Red.index()), Some(0.5));
        assert_eq!(e.result(Seat::Yellow.index()), Some(0.0));
        assert_eq!(e.score, 37);
        assert_eq!(e.players, 4);
    }

    #[test]
    fn the_split_is_by_game_and_near_its_fraction() {
        let n = 20_000;
        let v = (1..=n).filter(|&g| is_validation(3, g, 0.1)).count();
        assert!((1_700..2_300).contains(&v), "{v}");
        assert!((1..=n).all(|g| !is_validation(3, g, 0.0)));
        assert!((1..=n).all(|g| is_validation(3, g, 1.0)));
    }
}
