//! The `splut` binary: see `splut --help`.

fn main() {
    std::process::exit(splut::cli::main());
}
