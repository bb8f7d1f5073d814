//! `splut tune` end to end: data from `splut datagen`, weights that lower
//! the loss, written as a file `EvalFile` loads.

use crate::support::splut;
use std::path::PathBuf;
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    crate::support::temp("tune", name)
}

/// The first number after `key` in `text`.
fn number_after(text: &str, key: &str) -> f64 {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("no '{key}' in {text}"))
        + key.len();
    text[at..]
        .trim_start()
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after '{key}' in {text}"))
}

#[test]
fn tuning_generated_data_lowers_the_loss_and_writes_loadable_weights() {
    let data = temp("data.txt");
    let out = temp("tuned.txt");
    let d = splut(&[
        "datagen",
        "--games",
        "60",
        "--nodes",
        "200",
        "--seed",
        "5",
        "--no-progress",
        "-o",
        data.to_str().unwrap(),
    ]);
    assert!(d.status.success(), "{}", String::from_utf8_lossy(&d.stderr));
    let t = splut(&[
        "tune",
        data.to_str().unwrap(),
        "--max-passes",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&t.stdout).to_string();
    assert!(
        t.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&t.stderr)
    );
    let before = number_after(&text, "loss before");
    let after = number_after(&text, ", after");
    assert!(after < before, "{text}");
    // Tuning on from the tuned weights (`--start`) starts where the first
    // run ended (the scale is fitted again, so within a little).
    let again_out = temp("tuned-again.txt");
    let again = splut(&[
        "tune",
        data.to_str().unwrap(),
        "--start",
        out.to_str().unwrap(),
        "--max-passes",
        "1",
        "-o",
        again_out.to_str().unwrap(),
    ]);
    let again_text = String::from_utf8_lossy(&again.stdout).to_string();
    assert!(again.status.success(), "{again_text}");
    let restart = number_after(&again_text, "loss before");
    assert!(
        restart < before && restart <= after * 1.01,
        "{again_text}\n{text}"
    );
    assert!(text.contains("loss with it put back"), "{text}");
    // Every weight is reported; the file is a parameter file.
    let weights = std::fs::read_to_string(&out).unwrap();
    assert!(
        splut_engine::eval::EvalParams::from_text(&weights).is_ok(),
        "{weights}"
    );
    let mut e = Command::new(env!("CARGO_BIN_EXE_splut"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let stdin = e.stdin.as_mut().unwrap();
    writeln!(
        stdin,
        "setoption name EvalFile value {}\nisready\nquit",
        out.display()
    )
    .unwrap();
    let o = e.wait_with_output().unwrap();
    let answer = String::from_utf8_lossy(&o.stdout);
    assert!(
        answer.contains("readyok") && !answer.contains("error"),
        "{answer}"
    );
}

#[test]
fn bad_tune_arguments_are_errors() {
    let missing = temp("missing.txt");
    for args in [
        vec!["tune", missing.to_str().unwrap()],
        vec!["tune"],
        vec!["tune", "x", "--max-passes", "0"],
        vec!["tune", "x", "--players", "5"],
    ] {
        let o = splut(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).is_empty());
    }
    let bad = temp("bad.txt");
    std::fs::write(&bad, "not a sample\n").unwrap();
    let o = splut(&["tune", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.txt"));
    // Start weights are read as `EvalFile` reads them: an empty file or
    // one that names no weight is refused, not taken as the defaults.
    for (name, text, says) in [
        ("empty-start.txt", "", "empty"),
        ("comments-start.txt", "# nothing\nplayers 2\n", "no weight"),
    ] {
        let start = temp(name);
        std::fs::write(&start, text).unwrap();
        let o = splut(&[
            "tune",
            bad.to_str().unwrap(),
            "--start",
            start.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(name) && err.contains(says), "{err}");
    }
}
