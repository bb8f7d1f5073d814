//! `splut data` and the binary data format, as a user runs them: datagen
//! text converted to binary and back, merged runs, dedup and shuffle, and
//! files it must refuse.

use crate::support::{splut, temp};
use splut::datagen::read_files;
use std::path::Path;
use std::process::Output;

fn path(name: &str) -> String {
    temp("data", name).display().to_string()
}

fn ok(o: Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    err
}

/// Two small datagen runs (2 and 4 players, other seeds), as text, in
/// files named after `tag` (tests run at once).
fn two_runs(tag: &str) -> (String, String) {
    let (a, b) = (path(&format!("{tag}-a.txt")), path(&format!("{tag}-b.txt")));
    for (out, args) in [(&a, "--players 2 --seed 5"), (&b, "--players 4 --seed 6")] {
        let mut all = vec!["datagen", "--nodes", "150", "--games", "4", "--no-progress"];
        all.extend(args.split_whitespace());
        all.extend(["-o", out]);
        ok(splut(&all));
    }
    (a, b)
}

fn lines(p: &str) -> Vec<String> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

#[test]
fn text_to_binary_and_back_is_exact_and_40_bytes_a_position() {
    let (a, b) = two_runs("conv");
    let (bin, back) = (path("conv-ab.bin"), path("conv-ab-back.txt"));
    let msg = ok(splut(&["data", &a, &b, "-o", &bin]));
    let n = lines(&a).len() + lines(&b).len();
    assert!(msg.contains(&format!("read {n} positions")), "{msg}");
    // Two runs: their games numbered afresh as one run, said so.
    assert!(msg.contains("numbered afresh"), "{msg}");
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 40 * (n as u64 + 1));
    // One run converts exactly, seed and games included.
    let (one, one_back) = (path("conv-a.bin"), path("conv-a-back.txt"));
    ok(splut(&["data", &a, "-o", &one]));
    ok(splut(&["data", &one, "-o", &one_back, "--format", "text"]));
    assert_eq!(lines(&one_back), lines(&a));
    // Readers see the same samples in either format.
    assert_eq!(read_files(&[&one]).unwrap(), read_files(&[&a]).unwrap());
    // Binary files concatenate.
    let cat = path("conv-cat.bin");
    let mut bytes = std::fs::read(&one).unwrap();
    bytes.extend(std::fs::read(&one).unwrap());
    std::fs::write(&cat, bytes).unwrap();
    assert_eq!(read_files(&[&cat]).unwrap().len(), 2 * lines(&a).len());
    ok(splut(&["data", &bin, "-o", &back, "--format", "text"]));
    assert_eq!(lines(&back).len(), n);
}

#[test]
fn dedup_keeps_the_first_and_shuffle_is_reproducible() {
    let (a, _) = two_runs("dedup");
    let (d, s1, s2, s3) = (
        path("dedup-d.bin"),
        path("dedup-s1.txt"),
        path("dedup-s2.txt"),
        path("dedup-s3.txt"),
    );
    let msg = ok(splut(&["data", &a, &a, "-o", &d, "--dedup"]));
    let once = read_files(&[&a]).unwrap();
    let mut distinct = std::collections::HashSet::new();
    let unique = once
        .iter()
        .filter(|s| distinct.insert(s.position.hash()))
        .count();
    assert_eq!(read_files(&[&d]).unwrap().len(), unique, "{msg}");
    for (out, seed) in [(&s1, "1"), (&s2, "1"), (&s3, "2")] {
        ok(splut(&[
            "data",
            &a,
            "-o",
            out,
            "--format",
            "text",
            "--shuffle",
            seed,
        ]));
    }
    assert_eq!(lines(&s1), lines(&s2));
    assert_ne!(lines(&s1), lines(&a));
    assert_ne!(lines(&s1), lines(&s3));
    let (mut x, mut y) = (lines(&s1), lines(&a));
    x.sort();
    y.sort();
    assert_eq!(x, y, "a shuffle keeps every position");
}

#[test]
fn bad_inputs_are_refused_with_the_record_and_exit_2() {
    let (a, _) = two_runs("bad");
    let bin = path("bad-good.bin");
    ok(splut(&["data", &a, "-o", &bin]));
    let bytes = std::fs::read(&bin).unwrap();
    let refuse = |bytes: &[u8], want: &str| {
        let f = path("bad-bad.bin");
        std::fs::write(&f, bytes).unwrap();
        let o = splut(&["data", &f, "-o", &path("bad-out.bin")]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(want), "want '{want}' in: {err}");
    };
    refuse(&bytes[..bytes.len() - 3], "truncated: 37 of its 40 bytes");
    let mut v9 = bytes.clone();
    v9[8] = 9;
    refuse(
        &v9,
        "record 1: binary data version 9; this build reads versions 1 and 2",
    );
    let mut bad = bytes.clone();
    bad[40 + 13] = bad[40 + 12];
    refuse(
        &bad,
        "record 2: position: the rocks are not in ascending order",
    );
    refuse(&[0u8; 64], "not a data file");
    // An output that is an input, and a missing input.
    let o = splut(&["data", &a, "-o", &a]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is also an input"));
    assert!(Path::new(&a).exists());
    let o = splut(&["data", &path("bad-missing.txt"), "-o", &path("bad-x.bin")]);
    assert_eq!(o.status.code(), Some(2));
}

/// `splut datagen --format binary` writes the very samples the text run
/// of the same seed writes; a second run appends under its own header, a
/// record cut by a killed run is cut off first, and a text file is not
/// appended to.
#[test]
fn datagen_writes_binary_equal_to_text() {
    let (txt, bin) = (path("gen.txt"), path("gen.bin"));
    let datagen = |out: &str, format: &str, seed: &str| {
        splut(&[
            "datagen",
            "--nodes",
            "150",
            "--games",
            "3",
            "--players",
            "3",
            "--seed",
            seed,
            "--no-progress",
            "--format",
            format,
            "-o",
            out,
        ])
    };
    ok(datagen(&txt, "text", "8"));
    ok(datagen(&bin, "binary", "8"));
    let text = read_files(&[&txt]).unwrap();
    assert!(!text.is_empty());
    assert_eq!(read_files(&[&bin]).unwrap(), text);
    assert_eq!(
        std::fs::metadata(&bin).unwrap().len(),
        40 * (text.len() as u64 + 1)
    );
    // A killed run's cut record, then a second run with another seed.
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes.extend_from_slice(&[7; 13]);
    std::fs::write(&bin, bytes).unwrap();
    ok(datagen(&bin, "binary", "9"));
    let both = read_files(&[&bin]).unwrap();
    assert_eq!(&both[..text.len()], &text[..]);
    assert!(both[text.len()..].iter().all(|s| s.seed == 9));
    let o = datagen(&txt, "binary", "9");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a binary data file"));
}
