//! The people's clocks in a real browser, on both hosts: the New game
//! form's Clock, the clock beside the person's seat counting down on the
//! page, red under 10 s, and the engine playing the turn when it runs out.

use crate::gui_browser::{Host, Site};
use std::time::Duration;

#[test]
fn a_clock_counts_down_and_runs_out_in_a_real_browser_native() {
    a_clock_counts_down_and_runs_out(Host::Native);
}

#[test]
fn a_clock_counts_down_and_runs_out_in_a_real_browser_static() {
    a_clock_counts_down_and_runs_out(Host::Static);
}

fn a_clock_counts_down_and_runs_out(host: Host) {
    let Some((site, b)) = Site::start(host, &[]) else {
        return;
    };
    b.open(&site.url(), "the page");
    // No person, no clock to choose.
    let hidden = "return document.getElementById('clock-row').classList.contains('hidden');";
    b.click("#engines-only");
    assert_eq!(b.js(hidden), true, "engines only: no clock");
    b.click("#engines-only");
    assert_eq!(b.js(hidden), false, "red is a person");
    b.click("#clock-on");
    b.type_into("#clock-min", "0.2");
    b.type_into("#clock-inc", "0");
    b.type_into("#ms-r", "200");
    b.type_into("#ms-g", "100");
    b.start_game();
    b.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let red = "document.querySelector('#seat-list .clock[data-seat=\"r\"]')";
    let text = b.wait(
        &format!("{red} && {red}.textContent"),
        Duration::from_secs(5),
        "red's clock",
    );
    assert!(text == "00:12" || text == "00:11", "{text}");
    assert_eq!(
        b.js("return document.querySelector('#seat-list .clock[data-seat=\"g\"]');"),
        serde_json::Value::Null,
        "the engine's seat has no clock"
    );
    // It counts down on the page between the host's answers, then goes
    // red under 10 s.
    b.wait(
        &format!("{red}.classList.contains('running') && {red}.textContent === '00:10'"),
        Duration::from_secs(5),
        "red's clock counting down",
    );
    b.wait(
        &format!("{red}.classList.contains('low') && {red}.textContent === '00:09'"),
        Duration::from_secs(5),
        "red's clock under 10 s",
    );
    b.screenshot_of("#seat-list", "gui-clocks.png");
    // Out: the engine plays red's turn, recorded as its.
    b.wait(
        "game.seats[0].stood_in.length > 0 && game.step_count > 0",
        Duration::from_secs(30),
        "the engine's turn for red",
    );
    assert_eq!(b.js("return game.seats[0].stood_in[0];"), 1);
    b.wait(
        &format!("{red}.textContent === '00:00'"),
        Duration::from_secs(5),
        "red's clock at zero",
    );
}
