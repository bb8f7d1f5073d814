//! The floors of docs/architecture.md, checked: every `crate::<module>`
//! path in a module's files (its `use` lines and paths written in full,
//! doc links included) must name the module itself or a module it may
//! use. A new module has to be given its floor here.
//!
//! Between crates the compiler keeps the floors (the rules crate has no
//! dependencies, the engine crate depends on the rules alone); this keeps
//! them between the modules inside the engine crate (`engine/src/`) and
//! the tools (`tools/src/`). Another crate counts as a module: `rules`
//! (`splut_rules`), `splut_protocol` (the protocol's lines, typed once),
//! `play` (`splut_play`), `board` (`splut_board`), `server` (the table
//! server, `splut_server`: the top's alone), and an engine module
//! `splut_engine::<module>` as `<module>`.

use std::path::Path;

/// Each module (a file or folder under `src/`, or a crate named as above) and the modules it may
/// use. The rules core uses nothing; the engine column is eval → search →
/// protocol; the arena column is play → tournament / datagen (tune on
/// datagen's files), both over the rules core; the command line (`cli`,
/// with `lib.rs` and `main.rs`) uses anything, the table server
/// (`splut_server`, `splut gui`'s) among them, and nothing uses it.
const FLOORS: &[(&str, &[&str])] = &[
    ("rules", &[]),
    // The protocol crate: its lines (commands, answers, the reported
    // score, win chances) on the rules alone.
    ("splut_protocol", &["rules"]),
    // The engine's option table declares its `option` lines in the
    // protocol's words.
    ("options", &["splut_protocol"]),
    ("system", &[]),
    ("clock", &[]),
    ("parallel_perft", &["rules"]),
    ("eval", &["rules"]),
    (
        "search",
        &[
            "rules",
            "splut_protocol",
            "eval",
            "options",
            "system",
            "clock",
        ],
    ),
    (
        "engine",
        &[
            "rules",
            "splut_protocol",
            "eval",
            "search",
            "options",
            "system",
            "winprob",
            "clock",
        ],
    ),
    (
        "protocol",
        &[
            "rules",
            "splut_protocol",
            "eval",
            "search",
            "engine",
            "options",
            "winprob",
            "clock",
        ],
    ),
    (
        "bench",
        &["rules", "eval", "search", "engine", "options", "clock"],
    ),
    (
        "tournament",
        &["rules", "splut_protocol", "play", "options", "system"],
    ),
    (
        "datagen",
        &["rules", "play", "eval", "search", "engine", "system"],
    ),
    ("tune", &["rules", "eval", "search", "datagen"]),
    ("train", &["rules", "eval", "search", "datagen", "tune"]),
];

/// The top: may use every module. `loop` is of the top: it composes the
/// arena's commands (datagen, train, tournament) as the command line
/// does, and only the command line uses it.
const TOP: &[&str] = &["cli", "lib", "main", "loop"];

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("read src").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules a line names as `crate::<module>`, `splut::<module>` (as
/// `main.rs` writes it) or `splut_engine::<module>`, and the crates
/// `splut_rules`, `splut_protocol`, `splut_play` and `splut_board` as
/// `rules`, `splut_protocol`, `play` and `board`.
fn named_modules(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (krate, module) in [
        ("splut_rules", "rules"),
        ("splut_protocol", "splut_protocol"),
        ("splut_play", "play"),
        ("splut_board", "board"),
        ("splut_server", "server"),
    ] {
        found.extend(after_each(line, krate).map(|_| module.to_string()));
    }
    for root in ["crate::", "splut::", "splut_engine::"] {
        for rest in after_each(line, root) {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
    }
    found
}

/// What follows each place `word` starts a name in `line` (not inside a
/// longer one, as `not_crate::`).
fn after_each<'a>(line: &'a str, word: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    line.match_indices(word).filter_map(move |(i, _)| {
        let before = line[..i].chars().next_back();
        let inside = before.is_some_and(|c| c.is_alphanumeric() || c == '_');
        (!inside).then(|| &line[i + word.len()..])
    })
}

/// Every use of a module its floor does not allow, as
/// `<shown>/…:line: <module> uses <used> (it may use …)`.
fn violations(src: &Path, shown: &str) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a path");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if TOP.contains(&module.as_str()) || module == "floors" {
            continue;
        }
        let Some((_, allowed)) = FLOORS.iter().find(|(m, _)| *m == module) else {
            out.push(format!(
                "{shown}/{}: module {module} has no floor in src/floors.rs",
                rel.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("read a source file");
        for (i, line) in text.lines().enumerate() {
            for used in named_modules(line) {
                if used != module && !allowed.contains(&used.as_str()) {
                    out.push(format!(
                        "{shown}/{}:{}: {module} uses {used} (it may use {})",
                        rel.display(),
                        i + 1,
                        if allowed.is_empty() {
                            "nothing else".to_string()
                        } else {
                            allowed.join(", ")
                        }
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn no_module_uses_a_floor_above_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut bad = violations(&root.join("tools/src"), "tools/src");
    bad.extend(violations(&root.join("engine/src"), "engine/src"));
    assert!(bad.is_empty(), "floors broken:\n{}", bad.join("\n"));
}

#[test]
fn the_rules_that_matter_most_are_in_the_table() {
    let may = |m: &str| FLOORS.iter().find(|f| f.0 == m).map(|f| f.1).unwrap();
    // The rules core uses nothing; the protocol's lines the rules alone.
    assert!(may("rules").is_empty());
    assert_eq!(may("splut_protocol"), ["rules"]);
    // Only the top uses the tournament, and nothing uses the command line.
    for (m, allowed) in FLOORS {
        assert!(!allowed.contains(&"tournament"), "{m} may use tournament");
        assert!(!allowed.contains(&"cli"), "{m} may use cli");
        assert!(!allowed.contains(&"server"), "{m} may use server");
    }
    // The engine column and the protocol's lines do not use the arena.
    for m in ["eval", "search", "protocol", "splut_protocol", "options"] {
        for arena in ["play", "tournament", "server", "datagen", "tune"] {
            assert!(!may(m).contains(&arena), "{m} may use {arena}");
        }
    }
}

#[test]
fn module_names_are_read_from_paths() {
    assert_eq!(
        named_modules("use splut_play::record::{GameRecord, Labels};"),
        ["play"]
    );
    assert_eq!(
        named_modules("    if x > crate::cli::MAX && splut::tournament::run()"),
        ["cli", "tournament"]
    );
    assert!(named_modules("use super::judge; // not_crate::x").is_empty());
    assert_eq!(
        named_modules("use splut_protocol::command::Go;"),
        ["splut_protocol"]
    );
    assert_eq!(
        named_modules("    splut_server::run(splut_server::Config {"),
        ["server", "server"]
    );
}
