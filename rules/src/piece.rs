//! Seats (players) and pieces.

use std::fmt;

/// A seat at the table, in clockwise playing order: red, yellow, green, blue.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Seat {
    /// South; moves first in every standard game.
    Red = 0,
    /// West.
    Yellow = 1,
    /// North.
    Green = 2,
    /// East.
    Blue = 3,
}

impl Seat {
    /// All seats in clockwise order.
    pub const ALL: [Seat; 4] = [Seat::Red, Seat::Yellow, Seat::Green, Seat::Blue];

    /// The seat with this index modulo 4.
    #[inline]
    pub const fn from_index(i: u8) -> Seat {
        match i & 3 {
            0 => Seat::Red,
            1 => Seat::Yellow,
            2 => Seat::Green,
            _ => Seat::Blue,
        }
    }

    /// Index 0..4.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter: `r`, `y`, `g` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Seat::Red => 'r',
            Seat::Yellow => 'y',
            Seat::Green => 'g',
            Seat::Blue => 'b',
        }
    }

    /// Parses a seat letter.
    pub fn from_letter(c: char) -> Option<Seat> {
        match c {
            'r' => Some(Seat::Red),
            'y' => Some(Seat::Yellow),
            'g' => Some(Seat::Green),
            'b' => Some(Seat::Blue),
            _ => None,
        }
    }

    /// Colour name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Seat::Red => "red",
            Seat::Yellow => "yellow",
            Seat::Green => "green",
            Seat::Blue => "blue",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The three kinds of team piece.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Kind {
    /// Levitates rocks; the team dies with it.
    Sorcerer = 0,
    /// Pushes runs of pieces.
    Dwarf = 1,
    /// Pulls and throws rocks.
    Troll = 2,
}

impl Kind {
    /// All kinds.
    pub const ALL: [Kind; 3] = [Kind::Sorcerer, Kind::Dwarf, Kind::Troll];

    /// Index 0..3.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SPN letter: `S`, `D` or `T`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Sorcerer => 'S',
            Kind::Dwarf => 'D',
            Kind::Troll => 'T',
        }
    }

    /// Parses an SPN kind letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c {
            'S' => Some(Kind::Sorcerer),
            'D' => Some(Kind::Dwarf),
            'T' => Some(Kind::Troll),
            _ => None,
        }
    }

    /// Name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Sorcerer => "sorcerer",
            Kind::Dwarf => "dwarf",
            Kind::Troll => "troll",
        }
    }
}

/// Whatever can stand on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// One of the four rocks (they belong to nobody).
    Rock,
    /// A team piece.
    Team(Seat, Kind),
}

impl fmt::Display for Piece {
    /// The SPN spelling: `R`, or seat letter then kind letter (`gT`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Piece::Rock => write!(f, "R"),
            Piece::Team(s, k) => write!(f, "{}{}", s.letter(), k.letter()),
        }
    }
}
