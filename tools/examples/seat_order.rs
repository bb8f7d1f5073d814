//! How well evaluations order the seats as they finished, in games of 3–4
//! players: for every position of a data file with 3 or more seats in the
//! game, and every pair of those seats that finished in different places,
//! whether the evaluation gives the better-placed seat the higher score.
//! 0.5 is a coin; 1.0 knows every finish.
//!
//! ```text
//! cargo run --release --example seat_order -- <data file> [<network>…]
//! ```
//!
//! Prints the pairs counted, then the share ordered right by the
//! hand-written evaluation (the seats' scores, [`seat_scores`]) and by each
//! network (the seats' values, [`seat_values`]).

use splut::datagen::read_files;
use splut_engine::eval::nnue::{read_network, seat_values};
use splut_engine::eval::{DEFAULT_SET, seat_scores};
use splut_rules::Seat;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: seat_order <data file> [<network>...]");
        std::process::exit(2);
    };
    let fail = |e: String| -> ! {
        eprintln!("error: {e}");
        std::process::exit(2)
    };
    let data = read_files(&[file]).unwrap_or_else(|e| fail(e));
    let nets: Vec<_> = args[1..]
        .iter()
        .map(|p| read_network(p).unwrap_or_else(|e| fail(e.to_string())))
        .collect();
    // right[0]: the hand-written evaluation; right[1 + k]: network k.
    let mut right = vec![0u64; nets.len() + 1];
    let mut pairs = 0u64;
    for s in &data {
        let pos = &s.position;
        if pos.players_left() < 3 {
            continue;
        }
        let place = |seat: Seat| s.places.iter().position(|g| g.contains(&seat));
        let mut scores = vec![seat_scores(
            pos,
            DEFAULT_SET.for_players(pos.players_left()),
        )];
        scores.extend(nets.iter().map(|n| seat_values(n, pos)));
        let seats: Vec<Seat> = pos.seats_in_game().collect();
        for (i, &a) in seats.iter().enumerate() {
            for &b in &seats[i + 1..] {
                let (Some(pa), Some(pb)) = (place(a), place(b)) else {
                    continue;
                };
                if pa == pb {
                    continue;
                }
                pairs += 1;
                for (r, v) in right.iter_mut().zip(&scores) {
                    if (v[a.index()] > v[b.index()]) == (pa < pb) {
                        *r += 1;
                    }
                }
            }
        }
    }
    let share = |n: u64| n as f64 / pairs.max(1) as f64;
    println!("pairs {pairs}");
    println!("hand-written {:.4}", share(right[0]));
    for (name, &r) in args[1..].iter().zip(&right[1..]) {
        println!("{name} {:.4}", share(r));
    }
}
