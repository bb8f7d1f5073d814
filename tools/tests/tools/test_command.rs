//! The README's test command (`scripts/test`) runs every test: the Rust
//! suite and then the Python package's, and fails when either fails.
//! Checked on a copy of the script in a scratch tree where `cargo` and
//! `scripts/test-python` are stand-ins that record their calls and exit
//! with a chosen status.

use crate::support::temp;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCRIPT: &str = concat!(concat!(env!("CARGO_MANIFEST_DIR"), "/.."), "/scripts/test");

fn write_exe(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A scratch tree: `scripts/test` copied, a stand-in `scripts/test-python`
/// and `bin/cargo`, each appending its name and arguments to `calls` and
/// exiting with the status in `<name>.status` (0 when absent).
fn tree(name: &str) -> PathBuf {
    let root = temp("test-command", name);
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::create_dir_all(root.join("bin")).unwrap();
    std::fs::copy(SCRIPT, root.join("scripts/test")).unwrap();
    let stand_in = |who: &str| {
        format!(
            "#!/usr/bin/env bash\necho \"{who} $*\" >> '{calls}'\n\
             s='{root}/{who}.status'; [ -f \"$s\" ] && exit \"$(cat \"$s\")\"; exit 0\n",
            calls = root.join("calls").display(),
            root = root.display()
        )
    };
    write_exe(&root.join("scripts/test-python"), &stand_in("test-python"));
    write_exe(&root.join("bin/cargo"), &stand_in("cargo"));
    root
}

/// Runs the copied script with `args`; its exit status and the calls made.
fn run(root: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, Vec<String>) {
    let path = format!(
        "{}:{}",
        root.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(root.join("scripts/test"))
        .args(args)
        .env("PATH", path)
        .env("SPLUT_SKIP_BROWSER", "1")
        .env("SPLUT_SKIP_WEB", "1")
        .env_remove("SPLUT_SKIP_PYTHON")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let calls = std::fs::read_to_string(root.join("calls")).unwrap_or_default();
    (
        out.status.code().unwrap_or(-1),
        calls.lines().map(str::to_owned).collect(),
    )
}

#[test]
fn runs_cargo_then_python() {
    let root = tree("both");
    let (code, calls) = run(&root, &[], &[]);
    assert_eq!(code, 0);
    assert_eq!(calls, ["cargo test --no-fail-fast", "test-python "]);
}

#[test]
fn python_runs_after_a_rust_failure_and_either_failure_fails() {
    let root = tree("rust-fails");
    std::fs::write(root.join("cargo.status"), "101").unwrap();
    let (code, calls) = run(&root, &[], &[]);
    assert_ne!(code, 0);
    assert_eq!(calls.len(), 2, "{calls:?}");

    let root = tree("python-fails");
    std::fs::write(root.join("test-python.status"), "1").unwrap();
    let (code, calls) = run(&root, &[], &[]);
    assert_ne!(code, 0, "a Python failure must fail the test command");
    assert_eq!(calls.len(), 2, "{calls:?}");
}

#[test]
fn arguments_filter_cargo_only_and_python_can_be_skipped() {
    let root = tree("filter");
    let (code, calls) = run(&root, &["--test", "engine"], &[]);
    assert_eq!(code, 0);
    assert_eq!(calls, ["cargo test --no-fail-fast --test engine"]);

    let root = tree("skip");
    let (code, calls) = run(&root, &[], &[("SPLUT_SKIP_PYTHON", "1")]);
    assert_eq!(code, 0);
    assert_eq!(calls, ["cargo test --no-fail-fast"]);
}
