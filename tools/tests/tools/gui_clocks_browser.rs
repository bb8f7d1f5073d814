//! The people's clocks in a real browser, on both hosts, on a phone's
//! screen: the New game form's Clock, the clock beside the person's seat
//! and the mover's in the header counting down on the page, red under
//! 10 s, a reload keeping the time left, and the engine playing the turn
//! when it runs out (the page offering no step of it).

use crate::gui_browser::{Host, Site, in_viewport};
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
    b.phone();
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
    // Issue 63: the mover and their time are on the phone's first screen,
    // in the header above the board (the seat list is far below).
    let head = "document.getElementById('status-clock')";
    b.wait(
        &format!("{head} && {head}.dataset.seat === 'r' && /^00:1[12]$/.test({head}.textContent)"),
        Duration::from_secs(5),
        "red's clock in the header",
    );
    assert!(
        in_viewport(&b, "#status-clock"),
        "the mover's clock is off the screen"
    );
    assert!(in_viewport(&b, "#board"));
    // The engine's steps wait for Next step, so that the page can be seen
    // between red's clock running out and the engine's step.
    b.click("#pace option[value=\"step\"]");
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
    // Issue 63: a reload keeps the time left (the static board starts the
    // game again from its steps, and its clock from the time it had).
    b.go(&site.url());
    b.wait(
        "window.splut && window.splut.ready && document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game after the reload",
    );
    let after = b.wait(
        &format!("{red} && {red}.textContent"),
        Duration::from_secs(5),
        "red's clock after the reload",
    );
    assert!(
        after.as_str().unwrap() <= "00:10",
        "the clock began again: {after}"
    );
    b.wait(
        &format!("{red}.classList.contains('low') && {red}.textContent <= '00:09'"),
        Duration::from_secs(5),
        "red's clock under 10 s",
    );
    b.screenshot_of("#seat-list", "gui-clocks.png");
    // Out: the engine plays red's turn; its step waits, and meanwhile
    // the header, the rings and the seat list say the engine plays red.
    b.wait(
        "game.seats[0].clock.out && game.waiting",
        Duration::from_secs(30),
        "the engine's step for red, waiting",
    );
    let seen = b.js(
        "return [document.getElementById('status-text').textContent, \
           document.querySelectorAll('circle.movable, .hit.from').length, \
           document.querySelector('#seat-list li[data-seat=\"r\"]').textContent, \
           document.getElementById('hint').disabled];",
    );
    let words = "engine for person, whose time ran out";
    assert!(seen[0].as_str().unwrap().contains(words), "{seen}");
    assert_eq!(seen[1], 0, "no step offered to red: {seen}");
    assert!(seen[2].as_str().unwrap().contains(words), "{seen}");
    assert_eq!(seen[3], true, "no hint: {seen}");
    b.next_step();
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
