//! The binary data file: the samples of [`super::format`] in 40 bytes each
//! (a text line takes 76–110), for training sets of tens of millions of
//! positions. Versioned, and read back exactly.
//!
//! The file is a sequence of records of the size its last header gives
//! (40 bytes in version 2; version 1, 32-byte records without the seats'
//! values, is still read). A **header** record starts every run's part
//! (so files concatenate with `cat`):
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | `SPLUTBIN` |
//! | 8–9 | the format's version, little-endian (2; 1 for the older files) |
//! | 10–11 | the record size (40; 32 in version 1) |
//! | 12–15 | 0 |
//! | 16–23 | the run's seed (the `<seed>` of the samples after it), little-endian |
//! | 24–39 | 0 (24–31 in version 1) |
//!
//! A **sample** record:
//!
//! | bytes | what |
//! |---|---|
//! | 0–23 | the position, packed ([`Position::pack`]) |
//! | 24–26 | the score, a signed 24-bit little-endian number: `cp` values as they are (at most 900,000 either way), `win t` as 1,000,000 + t, `loss t` as −(1,000,000 + t) |
//! | 27–28 | the places, 3 bits a seat (red in bits 0–2, then yellow, green, blue): how many seats finished ahead of it, 7 for a seat that did not play; bits 12–15 are 0 |
//! | 29–31 | the game's number in its run, little-endian (1 to 16,777,215) |
//! | 32–35 | version 2: the search's value of each seat (red, yellow, green, blue) in [`VALUE_UNIT`]ths of a place point (0–250), 255 for none: all four 255 when the sample has no values |
//! | 36–39 | version 2: 0 |
//!
//! A sample record never starts with `S` (its first byte is a square,
//! 0–40, or 255), so headers and samples cannot be confused.

use super::format::{NO_VALUE, Places, Sample, SeatValues, VALUE_UNIT, places_cover};
use splut_engine::search::score::{MATE_BOUND, Score};
use splut_rules::{PACKED_SIZE, Position, Seat};

/// Bytes in a record, header or sample, of the version this build writes.
pub const RECORD: usize = 40;

/// Bytes in a record of version 1 (no seats' values).
pub const RECORD_V1: usize = 32;

/// The first bytes of a header.
pub const MAGIC: &[u8; 8] = b"SPLUTBIN";

/// The format's version this build writes (it reads 1 too).
pub const VERSION: u16 = 2;

/// Largest game number a record holds.
pub const MAX_GAME: u64 = (1 << 24) - 1;

/// `win`/`loss` scores start here, beyond every `cp` value.
const PROVEN: i32 = 1_000_000;

/// Largest magnitude of a signed 24-bit number.
const I24_MAX: i32 = (1 << 23) - 1;

/// The first bytes of `input`, as many as [`MAGIC`] has (fewer if it is
/// shorter): equal to [`MAGIC`] for a binary data file.
pub fn read_magic(input: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    let mut magic = Vec::new();
    std::io::Read::read_to_end(&mut input.take(MAGIC.len() as u64), &mut magic)?;
    Ok(magic)
}

/// Whether a record is a header.
pub fn is_header(record: &[u8]) -> bool {
    record.starts_with(MAGIC)
}

/// The header record of a run with `seed`.
pub fn header(seed: u64) -> [u8; RECORD] {
    let mut r = [0u8; RECORD];
    r[..8].copy_from_slice(MAGIC);
    r[8..10].copy_from_slice(&VERSION.to_le_bytes());
    r[10..12].copy_from_slice(&(RECORD as u16).to_le_bytes());
    r[16..24].copy_from_slice(&seed.to_le_bytes());
    r
}

/// The seed and record size of a header record (its first
/// [`RECORD_V1`] bytes: the rest of a version-2 header is 0); an error
/// for another version or layout.
pub fn read_header(r: &[u8]) -> Result<(u64, usize), String> {
    if !r.starts_with(MAGIC) || r.len() < RECORD_V1 {
        return Err("not a splut binary data file (no SPLUTBIN header)".into());
    }
    let version = u16::from_le_bytes([r[8], r[9]]);
    let expected = match version {
        1 => RECORD_V1,
        2 => RECORD,
        _ => {
            return Err(format!(
                "binary data version {version}; this build reads versions 1 and {VERSION}"
            ));
        }
    };
    let size = u16::from_le_bytes([r[10], r[11]]);
    if usize::from(size) != expected || r[12..16] != [0; 4] || r[24..].iter().any(|&b| b != 0) {
        return Err(format!("a header of another layout (record size {size})"));
    }
    Ok((
        u64::from_le_bytes(r[16..24].try_into().unwrap_or_default()),
        expected,
    ))
}

/// The record size of a binary data file's first header: what a file
/// written by one run uses throughout.
pub fn first_record_size(input: impl std::io::Read) -> std::io::Result<Option<usize>> {
    let mut r = [0u8; RECORD_V1];
    let mut input = input;
    let got = read_full(&mut input, &mut r)?;
    Ok((got == RECORD_V1)
        .then(|| read_header(&r).ok().map(|(_, size)| size))
        .flatten())
}

/// The sample as a record (its seed goes in the header before it).
pub fn encode(s: &Sample) -> Result<[u8; RECORD], String> {
    let mut r = [0u8; RECORD];
    r[..PACKED_SIZE].copy_from_slice(&s.position.pack());
    let score = match s.score {
        Score::Cp(v) if v.abs() <= MATE_BOUND => v,
        Score::Win(t) if t <= (I24_MAX - PROVEN) as u32 => PROVEN + t as i32,
        Score::Loss(t) if t <= (I24_MAX - PROVEN) as u32 => -(PROVEN + t as i32),
        other => return Err(format!("score {other} does not fit a binary record")),
    };
    r[24..27].copy_from_slice(&score.to_le_bytes()[..3]);
    r[27..29].copy_from_slice(&places_bits(&s.places).to_le_bytes());
    if !(1..=MAX_GAME).contains(&s.game) {
        return Err(format!(
            "game {} does not fit a binary record (1 to {MAX_GAME}): start a new run with another seed",
            s.game
        ));
    }
    r[29..32].copy_from_slice(&s.game.to_le_bytes()[..3]);
    r[32..36].copy_from_slice(&s.values.unwrap_or([NO_VALUE; 4]));
    Ok(r)
}

/// Reads a sample record of a run with `seed`, of either version (by its
/// length: [`RECORD`] or [`RECORD_V1`]); an error says what is wrong.
pub fn decode(r: &[u8], seed: u64) -> Result<Sample, String> {
    let packed: &[u8; PACKED_SIZE] = r[..PACKED_SIZE].try_into().map_err(|_| "short record")?;
    let position = Position::unpack(packed).map_err(|e| format!("position: {e}"))?;
    // Sign-extend the 24-bit score.
    let v = i32::from_le_bytes([r[24], r[25], r[26], 0]) << 8 >> 8;
    let score = if v.abs() <= MATE_BOUND {
        Score::Cp(v)
    } else if v > PROVEN {
        Score::Win((v - PROVEN) as u32)
    } else if v < -PROVEN {
        Score::Loss((-v - PROVEN) as u32)
    } else {
        return Err(format!("score {v} is neither cp nor a proven result"));
    };
    let places = places_from_bits(u16::from_le_bytes([r[27], r[28]]))?;
    places_cover(&position, &places)?;
    let game = u64::from(u32::from_le_bytes([r[29], r[30], r[31], 0]));
    if game == 0 {
        return Err("game 0".into());
    }
    let values = match r.len() {
        RECORD => values_from_bytes(&position, &r[32..36], &r[36..40])?,
        _ => None,
    };
    Ok(Sample {
        position,
        score,
        places,
        seed,
        game,
        values,
    })
}

/// Reads the seats' values of a version-2 record: none at all, or one
/// (0 to [`VALUE_UNIT`]) for each seat in the game and none for the others.
fn values_from_bytes(
    position: &Position,
    bytes: &[u8],
    reserved: &[u8],
) -> Result<Option<SeatValues>, String> {
    if reserved.iter().any(|&b| b != 0) {
        return Err("bytes 36-39 are not 0".into());
    }
    let v: SeatValues = bytes.try_into().map_err(|_| "short record")?;
    if v == [NO_VALUE; 4] {
        return Ok(None);
    }
    for seat in Seat::ALL {
        let x = v[seat.index()];
        let in_game = position.seats_in_game().any(|s| s == seat);
        if in_game && x > VALUE_UNIT || !in_game && x != NO_VALUE {
            return Err(format!("values: {} has {x}", seat.name()));
        }
    }
    Ok(Some(v))
}

/// 3 bits a seat: seats ahead of it, 7 when it did not play.
fn places_bits(places: &Places) -> u16 {
    let mut bits = 0x0fff;
    let mut ahead = 0u16;
    for group in places {
        for &seat in group {
            let shift = 3 * seat.index();
            bits = bits & !(7 << shift) | ahead << shift;
        }
        ahead += group.len() as u16;
    }
    bits
}

/// Reads [`places_bits`]: 2 to 4 seats, each place counting the seats
/// ahead of it.
fn places_from_bits(bits: u16) -> Result<Places, String> {
    if bits >> 12 != 0 {
        return Err("places: bits 12-15 are not 0".into());
    }
    let mut ranked: Vec<(u16, Seat)> = Seat::ALL
        .into_iter()
        .map(|s| (bits >> (3 * s.index()) & 7, s))
        .filter(|&(r, _)| r != 7)
        .collect();
    ranked.sort();
    if ranked.len() < 2 {
        return Err("places: a game has 2 to 4 seats".into());
    }
    let mut places = Places::new();
    for (i, &(rank, seat)) in ranked.iter().enumerate() {
        if let Some(group) = places.last_mut().filter(|_| rank == ranked[i - 1].0) {
            group.push(seat);
        } else if usize::from(rank) == i {
            places.push(vec![seat]);
        } else {
            return Err(format!(
                "places: {} has {rank} seats ahead of it, {i} are",
                seat.name()
            ));
        }
    }
    Ok(places)
}

/// Reads binary records from `input`, handing each sample to `each`;
/// `name` names it in errors (`<name> record <n>: <why>`, counting from
/// 1, headers included). A file cut inside a record is an error.
pub fn read_binary(
    input: impl std::io::Read,
    name: &str,
    each: &mut dyn FnMut(Sample),
) -> Result<(), String> {
    let mut reader = std::io::BufReader::with_capacity(1 << 20, input);
    let mut run: Option<(u64, usize)> = None;
    let mut n = 0u64;
    let mut r = [0u8; RECORD];
    loop {
        // The first 32 bytes say whether a header comes, which gives the
        // size of the records after it.
        let got =
            read_full(&mut reader, &mut r[..RECORD_V1]).map_err(|e| format!("{name}: {e}"))?;
        if got == 0 {
            return Ok(());
        }
        n += 1;
        let at = |why: &dyn std::fmt::Display| format!("{name} record {n}: {why}");
        let header = r.starts_with(MAGIC);
        let size = match (header, run) {
            (true, _) => {
                let v2 = got == RECORD_V1 && r[8..10] == VERSION.to_le_bytes();
                if v2 { RECORD } else { RECORD_V1 }
            }
            (false, Some((_, size))) => size,
            (false, None) => RECORD_V1,
        };
        let rest = if got == RECORD_V1 && size > RECORD_V1 {
            read_full(&mut reader, &mut r[RECORD_V1..size]).map_err(|e| at(&e))?
        } else {
            0
        };
        if got + rest < size {
            return Err(at(&format!(
                "truncated: {} of its {size} bytes (the file was cut short)",
                got + rest
            )));
        }
        if header {
            run = Some(read_header(&r[..size]).map_err(|e| at(&e))?);
            continue;
        }
        let Some((seed, _)) = run else {
            return Err(at(&"not a splut binary data file (no SPLUTBIN header)"));
        };
        each(decode(&r[..size], seed).map_err(|e| at(&e))?);
    }
}

/// Fills `buf` as far as the input goes; how many bytes it got.
fn read_full(r: &mut impl std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Writes samples as binary records, a header before the first and
/// whenever the seed changes.
pub struct BinaryWriter<W: std::io::Write> {
    out: W,
    seed: Option<u64>,
}

impl<W: std::io::Write> BinaryWriter<W> {
    /// A writer that starts with a header.
    pub fn new(out: W) -> BinaryWriter<W> {
        BinaryWriter { out, seed: None }
    }

    /// Writes one sample (and a header first, if its seed is new here).
    pub fn write(&mut self, s: &Sample) -> Result<(), String> {
        self.write_record(s.seed, &encode(s)?)
    }

    /// Writes an encoded sample of a run with `seed` (a header first, if
    /// the seed is new here).
    pub fn write_record(&mut self, seed: u64, record: &[u8; RECORD]) -> Result<(), String> {
        if self.seed != Some(seed) {
            self.out
                .write_all(&header(seed))
                .map_err(|e| e.to_string())?;
            self.seed = Some(seed);
        }
        self.out.write_all(record).map_err(|e| e.to_string())
    }

    /// The output, flushed.
    pub fn finish(mut self) -> Result<W, String> {
        self.out.flush().map_err(|e| e.to_string())?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splut_rules::splitmix64;

    fn samples() -> Vec<Sample> {
        let mut out = Vec::new();
        let mut rng = 3u64;
        let scores = [
            Score::Cp(-42),
            Score::Cp(900_000),
            Score::Win(1),
            Score::Loss(7_000),
        ];
        for game in 0..30u64 {
            let players = 2 + game as usize % 3;
            let mut p = Position::start(players).unwrap();
            let seats: Vec<Seat> = p.seats_in_game().collect();
            let places = match game % 3 {
                0 => seats.iter().map(|&s| vec![s]).collect(),
                1 => vec![seats.clone()],
                _ => vec![vec![seats[1]], seats[..1].to_vec(), seats[2..].to_vec()]
                    .into_iter()
                    .filter(|g| !g.is_empty())
                    .collect(),
            };
            while !p.is_game_over() && p.turn() < 40 {
                out.push(Sample {
                    position: p,
                    score: scores[out.len() % 4],
                    places: places.clone(),
                    seed: game / 10,
                    game: 1 + game % 10 + (game % 7) * 1_000_000,
                    // Some samples with values, some without.
                    values: (game % 2 == 0).then(|| {
                        let mut v = [NO_VALUE; 4];
                        for s in p.seats_in_game() {
                            v[s.index()] = (splitmix64(&mut rng) % 251) as u8;
                        }
                        v
                    }),
                });
                let steps = p.legal_step_vec();
                p = p.after(steps[(splitmix64(&mut rng) % steps.len() as u64) as usize]);
            }
        }
        out
    }

    /// Samples of random 2–4 player games, every kind of score and of
    /// places, written and read back equal; one header per seed.
    #[test]
    fn samples_round_trip() {
        let all = samples();
        let mut w = BinaryWriter::new(Vec::new());
        for s in &all {
            w.write(s).unwrap();
        }
        let bytes = w.finish().unwrap();
        assert_eq!(bytes.len(), (all.len() + 3) * RECORD, "3 seeds, 3 headers");
        let mut back = Vec::new();
        read_binary(&bytes[..], "f", &mut |s| back.push(s)).unwrap();
        assert_eq!(back, all);
        // Files concatenate.
        let twice = [bytes.clone(), bytes].concat();
        let mut n = 0;
        read_binary(&twice[..], "f", &mut |_| n += 1).unwrap();
        assert_eq!(n, 2 * all.len());
    }

    /// A file of version 1 (32-byte records, no values) reads as it did:
    /// the same samples, without values.
    #[test]
    fn version_1_files_are_read() {
        let all = samples();
        let mut v1 = Vec::new();
        let mut seed = None;
        for s in &all {
            if seed != Some(s.seed) {
                let mut h = header(s.seed);
                h[8] = 1;
                h[10] = RECORD_V1 as u8;
                v1.extend_from_slice(&h[..RECORD_V1]);
                seed = Some(s.seed);
            }
            v1.extend_from_slice(&encode(s).unwrap()[..RECORD_V1]);
        }
        let mut back = Vec::new();
        read_binary(&v1[..], "f", &mut |s| back.push(s)).unwrap();
        let without: Vec<Sample> = all
            .iter()
            .map(|s| Sample {
                values: None,
                ..s.clone()
            })
            .collect();
        assert_eq!(back, without);
        assert_eq!(first_record_size(&v1[..]).unwrap(), Some(RECORD_V1));
        let e = read_binary(&v1[..v1.len() - 3], "f", &mut |_| {}).unwrap_err();
        assert!(e.contains("truncated: 29 of its 32"), "{e}");
    }

    /// A truncated, foreign, other-version or damaged file is an error
    /// naming the record; any damage is an error or a valid sample.
    #[test]
    fn bad_files_are_errors() {
        let all = samples();
        let mut w = BinaryWriter::new(Vec::new());
        for s in &all[..50] {
            w.write(s).unwrap();
        }
        let good = w.finish().unwrap();
        let err = |bytes: &[u8]| read_binary(bytes, "f", &mut |_| {}).unwrap_err();
        let e = err(&good[..good.len() - 5]);
        assert!(e.starts_with("f record 51: truncated: 35 of its 40"), "{e}");
        assert!(err(&good[RECORD..]).contains("no SPLUTBIN header"));
        assert!(err(b"R/gTgDgS/5/7/R7R/7/5/rSrDrT/R r 1 1 - - - | cp 1").contains("record 1"));
        let mut v3 = good.clone();
        v3[8] = 3;
        assert!(err(&v3).contains("version 3; this build reads versions 1 and 2"));
        // The first sample (game 0: it has values) with a value past 250,
        // and with a reserved byte set.
        let mut bad_value = good.clone();
        let seat = all[0].position.side_to_move().index();
        bad_value[RECORD + 32 + seat] = 251;
        assert!(
            err(&bad_value).contains("record 2: values"),
            "{}",
            err(&bad_value)
        );
        let mut reserved = good.clone();
        reserved[RECORD + 37] = 1;
        assert!(err(&reserved).contains("bytes 36-39"));
        let mut bad_score = good.clone();
        bad_score[RECORD + 24..RECORD + 27].copy_from_slice(&950_000i32.to_le_bytes()[..3]);
        assert!(err(&bad_score).contains("record 2: score 950000"));
        let mut bad_places = good.clone();
        // Red and yellow first, green with 4 seats ahead of it of 3.
        bad_places[RECORD + 27] = 0;
        bad_places[RECORD + 28] = 0x0f;
        assert!(err(&bad_places).contains("places"), "{}", err(&bad_places));
        let mut rng = 9u64;
        for _ in 0..5_000 {
            let mut b = good.clone();
            let i = (splitmix64(&mut rng) % b.len() as u64) as usize;
            b[i] ^= 1 << (splitmix64(&mut rng) % 8);
            let _ = read_binary(&b[..], "f", &mut |s| {
                assert_eq!(s.position.validate(), Ok(()));
            });
        }
        let too_big = Sample {
            game: MAX_GAME + 1,
            ..all[0].clone()
        };
        assert!(encode(&too_big).unwrap_err().contains("another seed"));
    }
}
