//! The learned evaluation: a small network over each seat's view of the
//! board (NNUE), its inputs in [`features`], its weights and file in
//! [`network`], its incremental accumulators along the search's path in
//! [`accumulator`].

pub mod accumulator;
pub mod features;
mod hidden;
mod kernels;
pub use kernels::check_base_kernels;
pub mod network;

pub use accumulator::{AccumulatorStack, seat_values};
pub use network::{Network, NetworkError};

use super::{EvalFileError, SHARES_TOTAL, split_total};
use splut_rules::Position;
use std::sync::{Arc, OnceLock};

/// The network the engine plays with, compiled in.
static DEFAULT_NET_BYTES: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The compiled-in network, read once and shared.
pub fn default_network() -> Arc<Network> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    NET.get_or_init(|| {
        // The file is checked by the tests (`the_default_network_loads`):
        // a broken one cannot ship.
        Arc::new(
            Network::from_bytes(DEFAULT_NET_BYTES)
                .unwrap_or_else(|e| unreachable!("nets/default.nnue: {e}")),
        )
    })
    .clone()
}

/// The network for searches with 3–4 seats left, compiled in: round 2 of
/// `splut loop`'s loop f, the first to beat the hand-written evaluation
/// with 3 and 4 players (docs/results/networks.md, 2026-11-29).
static DEFAULT_MULTI_NET_BYTES: &[u8] = include_bytes!("../../../nets/multi.nnue");

/// The compiled-in network for searches with 3–4 seats left, read once and
/// shared (`None` in a build that has none: `UseNNUE auto` then evaluates
/// 3–4 seats by hand unless `EvalFileMulti` gives a network).
pub fn default_multi_network() -> Option<Arc<Network>> {
    static NET: OnceLock<Arc<Network>> = OnceLock::new();
    let net = NET.get_or_init(|| {
        // Checked by the tests (`the_default_networks_load`), as the
        // 2-player one.
        Arc::new(
            Network::from_bytes(DEFAULT_MULTI_NET_BYTES)
                .unwrap_or_else(|e| unreachable!("nets/multi.nnue: {e}")),
        )
    });
    Some(net.clone())
}

/// Whether `bytes` begin like a network file (rather than a weights file).
pub fn is_network_file(bytes: &[u8]) -> bool {
    bytes.starts_with(network::MAGIC)
}

/// Reads a network file; errors name the file: one that cannot be read
/// ([`EvalFileError::Io`]) or is no sound network
/// ([`EvalFileError::Network`]; an empty file is
/// [`NetworkError::NotANetwork`]).
pub fn read_network(path: &str) -> Result<Network, EvalFileError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            f.take(network::FILE_SIZE as u64 + 1)
                .read_to_end(&mut bytes)
        })
        .map_err(|error| EvalFileError::Io {
            path: path.to_string(),
            error,
        })?;
    Network::from_bytes(&bytes).map_err(|error| EvalFileError::Network {
        path: path.to_string(),
        error,
    })
}

/// Max-n shares from the seats' values: each in-game seat's win chance
/// sigmoid(value / scale), normalised to [`SHARES_TOTAL`] (the winner
/// takes all). Never negative, always summing to the total, as max-n's
/// pruning needs.
pub fn shares(pos: &Position, values: &[i32; 4], scale: i32) -> [i32; 4] {
    let mut shares = [0; 4];
    if let Some(w) = pos.winner() {
        shares[w.index()] = SHARES_TOTAL;
        return shares;
    }
    let mut p = [0f64; 4];
    let mut total = 0.0;
    for s in pos.seats_in_game() {
        let x = f64::from(values[s.index()]) / f64::from(scale.max(1));
        // A floor, so that a total of 0 cannot happen.
        p[s.index()] = 1.0 / (1.0 + (-x.clamp(-30.0, 30.0)).exp()) + 1e-6;
        total += p[s.index()];
    }
    split_total(pos, |s| {
        (p[s.index()] / total * f64::from(SHARES_TOTAL)) as i32
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_networks_load() {
        let net = Network::from_bytes(DEFAULT_NET_BYTES).unwrap();
        assert_eq!(*default_network(), net);
        assert!(Arc::ptr_eq(&default_network(), &default_network()));
        let multi = Network::from_bytes(DEFAULT_MULTI_NET_BYTES).unwrap();
        let shipped = default_multi_network().unwrap();
        assert_eq!(*shipped, multi);
        assert!(Arc::ptr_eq(&shipped, &default_multi_network().unwrap()));
        assert_ne!(multi, net);
    }

    #[test]
    fn shares_sum_to_the_total() {
        let net = Network::pseudo_random(1, 300);
        for players in 2..=4 {
            let pos = Position::start(players).unwrap();
            let s = shares(&pos, &seat_values(&net, &pos), net.scale);
            assert_eq!(s.iter().sum::<i32>(), SHARES_TOTAL);
            assert!(s.iter().all(|&x| x >= 0));
        }
        let pos = Position::start(3).unwrap();
        let s = shares(&pos, &[3000, -3000, 0, 0], 300);
        assert!(s[0] > 5 * s[1], "{s:?}");
    }

    #[test]
    fn read_network_names_the_file() {
        let dir = std::env::temp_dir().join(format!("splut-read-network-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.nnue");
        let missing = missing.to_str().unwrap();
        let e = read_network(missing).unwrap_err();
        assert!(matches!(e, EvalFileError::Io { .. }), "{e:?}");
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read '{missing}': "))
        );
        let mut bytes = Network::pseudo_random(2, 300).to_bytes();
        bytes[2000] ^= 4;
        let damaged = dir.join("damaged.nnue");
        std::fs::write(&damaged, &bytes).unwrap();
        let damaged = damaged.to_str().unwrap();
        let e = read_network(damaged).unwrap_err();
        assert!(
            matches!(
                e,
                EvalFileError::Network {
                    error: NetworkError::Checksum,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("'{damaged}': network file damaged (checksum mismatch)")
        );
        assert_eq!(e.path(), damaged);
    }
}
