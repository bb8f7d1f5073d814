//! `splut train` end to end: a tiny binary data file from `splut
//! datagen`, a network the engine's reader loads, checkpoints that
//! resume to the same bytes, and errors for bad input.

use crate::support::{splut, text};
use splut_engine::eval::nnue::network::Network;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    crate::support::temp("train", name)
}

/// 300 positions of 2-player self-play, binary.
fn data() -> PathBuf {
    let data = temp("data.bin");
    let d = splut(&[
        "datagen",
        "--positions",
        "300",
        "--nodes",
        "50",
        "--seed",
        "3",
        "--format",
        "binary",
        "--no-progress",
        "-o",
        data.to_str().unwrap(),
    ]);
    assert!(d.status.success(), "{}", text(&d));
    data
}

#[test]
fn training_a_datagen_file_writes_a_loadable_network_and_resumes_exactly() {
    let data = data();
    let (net, ckpts, again) = (temp("net.nnue"), temp("ckpt"), temp("again.nnue"));
    let common = ["--batch", "64", "--epochs", "3", "--validation", "0.2"];
    let mut args = vec!["train", data.to_str().unwrap(), "--no-progress"];
    args.extend(common);
    args.extend(["--checkpoints", ckpts.to_str().unwrap()]);
    args.extend(["-o", net.to_str().unwrap()]);
    let t = splut(&args);
    let out = text(&t);
    assert!(t.status.success(), "{out}");
    for want in [
        "read 300 positions",
        "epoch 3/3: train loss",
        "validation loss",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    let bytes = std::fs::read(&net).unwrap();
    let n = Network::from_bytes(&bytes).unwrap();
    assert!(n.scale >= 1);
    let first = ckpts.join("epoch-001.ckpt");
    let r = splut(&[
        "train",
        data.to_str().unwrap(),
        "--resume",
        first.to_str().unwrap(),
        "--threads",
        "1",
        "-o",
        again.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", text(&r));
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    assert_eq!(std::fs::read(ckpts.join("epoch-003.nnue")).unwrap(), bytes);
}

#[test]
fn bad_arguments_and_files_are_refused_with_a_message() {
    let missing = temp("missing.bin");
    let junk = temp("junk.ckpt");
    std::fs::write(&junk, "junk").unwrap();
    let m = missing.to_str().unwrap();
    for (args, want) in [
        (vec!["train", m], "missing.bin"),
        (
            vec!["train", "Cargo.toml", "--epochs", "1"],
            "Cargo.toml line 1",
        ),
        (vec!["train", m, "--lambda", "2"], "--lambda"),
        (vec!["train", m, "--lambda-multi", "1.5"], "--lambda-multi"),
        (vec!["train", m, "--batch", "0"], "--batch"),
        (vec!["train", m, "--epochs", "x"], "--epochs"),
        (
            vec!["train", "Cargo.toml", "--resume", junk.to_str().unwrap()],
            "not a splut training checkpoint",
        ),
    ] {
        let o = splut(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{want}: {}", text(&o));
    }
}
