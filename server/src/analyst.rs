//! Hints and reviews natively: the board's analysis machine
//! ([`splut_board::session::analysis`]), which does all their bookkeeping,
//! run against an engine process of its own (the analyst). Here is only
//! the loop that carries the machine's lines to it (its handshake first)
//! and its lines back (the machine reads them, [`Analysis::engine_line`]),
//! as the static board's page carries them to its analyst worker.

use splut_board::session::analysis::Analysis;
use splut_play::client::Client;
use std::time::Instant;

/// Runs `analysis` against `engine` (freshly spawned: the analysis does
/// its handshake) until it is done: the machine's lines sent, the
/// engine's lines read back into it. An engine that ends, or does not
/// answer within [`Analysis::limit`] of its lines, fails it.
pub fn run(engine: &mut Client, analysis: &mut Analysis) {
    let mut deadline = Instant::now();
    while !analysis.done() {
        let commands = analysis.commands();
        if !commands.is_empty() {
            deadline = Instant::now() + analysis.limit();
        }
        for command in commands {
            if let Err(e) = engine.command(&command) {
                return analysis.engine_gone(&e.to_string());
            }
        }
        match engine.recv(deadline.saturating_duration_since(Instant::now())) {
            Ok(Some(line)) => {
                analysis.engine_line(&line);
            }
            Ok(None) => analysis.engine_gone(&format!(
                "the engine did not answer within {} ms",
                analysis.limit().as_millis()
            )),
            Err(e) => analysis.engine_gone(&e.to_string()),
        }
    }
}
