//! The rules' types as the page reads them (feature `serde`): a seat as
//! its letter (`r`), a square as its name (`e4`), a step as its text
//! (`f2f3*n`) — each by the rules' own `Display`, so the page's JSON and
//! the protocol's words spell them alike. The rules crate has no
//! dependencies, so the mapping to serde lives here, used through
//! `#[serde(serialize_with = "…")]` (and a seat read back from its
//! letter, [`seat`], for a host that keeps its games).

use serde::de::Error as _;
use serde::ser::{SerializeMap, SerializeSeq, SerializeTuple};
use serde::{Deserialize, Deserializer, Serializer};
use splut_rules::Seat;
use std::fmt::Display;

/// One value as its text.
pub fn text<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// A seat read from its letter (`"r"`), as [`text`] writes it.
pub fn seat<'de, D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
    let c = char::deserialize(d)?;
    Seat::from_letter(c).ok_or_else(|| D::Error::custom(format!("no seat '{c}'")))
}

/// A list as a list of texts.
pub fn texts<T: Display, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(values.len()))?;
    for v in values {
        seq.serialize_element(&v.to_string())?;
    }
    seq.end()
}

/// A value that may be missing, as its text or `null`.
pub fn text_or_null<T: Display, S: Serializer>(value: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

/// A pair that may be missing (a rock's squares before and after), as a
/// list of two texts or `null`.
pub fn pair_or_null<T: Display, S: Serializer>(
    value: &Option<(T, T)>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some((a, b)) => {
            let mut t = s.serialize_tuple(2)?;
            t.serialize_element(&a.to_string())?;
            t.serialize_element(&b.to_string())?;
            t.end()
        }
        None => s.serialize_none(),
    }
}

/// `(key, probability)` pairs as an object keyed by text, to three
/// decimals (win probabilities: `{"r": 0.6, …}`).
pub fn probabilities<K: Display, S: Serializer>(
    value: &[(K, f64)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(value.len()))?;
    for (k, p) in value {
        m.serialize_entry(&k.to_string(), &((p * 1000.0).round() / 1000.0))?;
    }
    m.end()
}

/// `(key, number)` pairs as an object keyed by text (places: `{"g": 3}`).
pub fn keyed<K: Display, V: serde::Serialize, S: Serializer>(
    value: &[(K, V)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(value.len()))?;
    for (k, v) in value {
        m.serialize_entry(&k.to_string(), v)?;
    }
    m.end()
}

/// A piece kind that may be missing, as its letter (`S`, `D`, `T`) or
/// `null`.
pub fn kind_or_null<S: Serializer>(
    value: &Option<splut_rules::Kind>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(k) => s.serialize_char(k.letter()),
        None => s.serialize_none(),
    }
}

/// `(key, value)` pairs as an object of texts (a board's pieces:
/// `{"e1": "rS", "a5": "R"}`).
pub fn text_map<K: Display, V: Display, S: Serializer>(
    value: &[(K, V)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(value.len()))?;
    for (k, v) in value {
        m.serialize_entry(&k.to_string(), &v.to_string())?;
    }
    m.end()
}
