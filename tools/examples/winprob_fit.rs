//! Fits the score → win probability mapping of `splut_engine::winprob` on
//! `splut datagen` files: for each count of seats left in a position, a
//! logistic regression of "the side to move went on to win" on the
//! search's score (`cp` only; proven results are left out), by Newton's
//! method on the log-loss. Prints the fitted `scale` and `offset` and how
//! well they predict (log-loss, and the observed win rate in bins of the
//! predicted one).
//!
//! ```text
//! cargo run --release --example winprob_fit -- data2.txt data3.txt data4.txt
//! ```

use splut::datagen::read_files;
use splut_engine::search::score::Score;
use std::path::PathBuf;

/// (score, outcome for the side to move: 1 won, 0 lost, shared first a
/// share) by count of seats left, 2 to 4.
type Points = [Vec<(f64, f64)>; 3];

fn main() {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: winprob_fit <datagen files>…");
        std::process::exit(2);
    }
    let samples = match read_files(&paths) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut points: Points = Default::default();
    for s in &samples {
        let Score::Cp(cp) = s.score else { continue };
        let me = s.side_to_move();
        let first = &s.places[0];
        let won = if first.contains(&me) {
            1.0 / first.len() as f64
        } else {
            0.0
        };
        let seats = s.position.players_left() as usize;
        points[seats.clamp(2, 4) - 2].push((f64::from(cp), won));
    }
    for (i, pts) in points.iter().enumerate() {
        if pts.len() < 100 {
            println!("{} seats: {} samples, too few to fit", i + 2, pts.len());
            continue;
        }
        let (a, b) = logistic(pts);
        report(i + 2, pts, a, b);
    }
}

/// The mean log-loss of p = 1 / (1 + exp(−(a·x + b))).
fn log_loss(pts: &[(f64, f64)], a: f64, b: f64) -> f64 {
    pts.iter()
        .map(|&(x, y)| {
            let q = (1.0 / (1.0 + (-(a * x + b)).exp())).clamp(1e-12, 1.0 - 1e-12);
            -(y * q.ln() + (1.0 - y) * (1.0 - q).ln())
        })
        .sum::<f64>()
        / pts.len() as f64
}

/// Logistic regression p = 1 / (1 + exp(−(a·x + b))) by Newton's method,
/// each step halved until the log-loss falls (scores of 3–4 seats reach
/// ±10000, where plain Newton overshoots).
fn logistic(pts: &[(f64, f64)]) -> (f64, f64) {
    let (mut a, mut b) = (1.0 / 400.0, 0.0);
    let mut loss = log_loss(pts, a, b);
    for _ in 0..100 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x, y) in pts {
            let p = 1.0 / (1.0 + (-(a * x + b)).exp());
            let w = p * (1.0 - p);
            ga += (p - y) * x;
            gb += p - y;
            haa += w * x * x;
            hab += w * x;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        let da = (hbb * ga - hab * gb) / det;
        let db = (haa * gb - hab * ga) / det;
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..40 {
            let l = log_loss(pts, a - t * da, b - t * db);
            if l < loss {
                (a, b, loss, improved) = (a - t * da, b - t * db, l, true);
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    (a, b)
}

/// The fit and its calibration.
fn report(seats: usize, pts: &[(f64, f64)], a: f64, b: f64) {
    let p = |x: f64| 1.0 / (1.0 + (-(a * x + b)).exp());
    let n = pts.len() as f64;
    let loss = log_loss(pts, a, b);
    let base: f64 = pts.iter().map(|&(_, y)| y).sum::<f64>() / n;
    let base_loss = -(base * base.ln() + (1.0 - base) * (1.0 - base).ln());
    println!(
        "{seats} seats: {} samples, scale {:.1}, offset {:.1}; log-loss {loss:.4} (a constant {base:.3}: {base_loss:.4})",
        pts.len(),
        1.0 / a,
        -b / a
    );
    let mut bins = [(0.0, 0.0, 0usize); 10];
    for &(x, y) in pts {
        let k = ((p(x) * 10.0) as usize).min(9);
        bins[k].0 += p(x);
        bins[k].1 += y;
        bins[k].2 += 1;
    }
    for (k, (sp, sy, c)) in bins.iter().enumerate() {
        if *c > 0 {
            println!(
                "  predicted {:.1}-{:.1}: {c:>6} samples, mean predicted {:.3}, won {:.3}",
                k as f64 / 10.0,
                (k + 1) as f64 / 10.0,
                sp / *c as f64,
                sy / *c as f64
            );
        }
    }
}
