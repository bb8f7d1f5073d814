//! A table with friends in a real browser (issue 53): three browsers,
//! the host (red), a friend invited to yellow and a spectator, at a
//! 3-player game with the engine at green, played by clicks to its end.
//! The friend reloads mid-game and plays on; the server is killed with
//! `kill -9` and started again on the same file and port, and every step
//! is still there; a step for another's seat is refused.

use crate::gui_browser::{Browser, browser_programs, free_port, in_viewport, page_token, shown};
use crate::support::gui::*;
use crate::support::temp;
use serde_json::{Value, json};
use std::time::Duration;

/// Green (the engine) and red have only their sorcerers walled in (d8,
/// e8); red's troll (c7) can crush green (onto d7, north), yellow's troll
/// (f7) red (onto e7, north). Each person walks a turn first, green
/// passes, then red crushes green and yellow red: yellow wins.
const TABLE_SPN: &str = "R/gSrSR/rTRRyT1/7/9/7/yS4/3/1 r 3 5 - - -";

/// Plays `steps` by clicks (from, then to; the chooser's button where a
/// click is not enough), waiting for each to show.
fn click_steps(b: &Browser, steps: &[&str]) {
    for step in steps {
        let before = b.js("return game.step_count;");
        b.click_square(&step[0..2]);
        b.click_square(&step[2..4]);
        let chooser =
            b.js("return !document.getElementById('chooser').classList.contains('hidden');");
        if chooser == true {
            b.choose(step);
        }
        b.wait(
            &format!("game.step_count > {before}"),
            Duration::from_secs(10),
            &format!("the step {step}"),
        );
    }
}

/// The host's New game form for a 3-player table from `spn`: red at its
/// screen, yellow a friend's seat, green the engine (random, `green_ms`).
fn host_form(host: &Browser, url: &str, spn: &str, green_ms: &str) {
    host.open(url, "the host's page");
    host.type_into("#start-spn", spn);
    host.wait(
        "document.getElementById('kind-y') && !document.getElementById('kind-b')",
        Duration::from_secs(5),
        "the seats",
    );
    host.click("#kind-y option[value=\"invite\"]");
    host.click("#kind-g option[value=\"engine\"]");
    host.click("#algo-g option[value=\"random\"]");
    host.type_into("#ms-g", green_ms);
}

/// The seat's link as the host's page lists it.
fn link(host: &Browser, key: &str) -> String {
    let v = host.wait(
        &format!("(document.querySelector('#table-link-list li[data-seat=\"{key}\"] input') || {{}}).value"),
        Duration::from_secs(10),
        "the table's links",
    );
    v.as_str().unwrap().to_string()
}

/// The friend opens their seat's `link` and gives `name` (the second
/// seat's, as in both tests), waiting until the game has it. The
/// invitation comes first: in view, its name field focused, and no
/// leaving a seat not yet taken (issue 63).
fn join(friend: &Browser, link: &str, name: &str) {
    friend.open(link, "the friend's page");
    friend.wait(
        "!document.getElementById('join').classList.contains('hidden')",
        Duration::from_secs(10),
        "the name form",
    );
    friend.wait(
        "document.activeElement && document.activeElement.id === 'join-name'",
        Duration::from_secs(5),
        "the name field focused",
    );
    assert!(
        in_viewport(friend, "#join"),
        "the invitation is off the screen"
    );
    assert!(
        !shown(friend, "#seat-away"),
        "Leave offered before the seat is taken"
    );
    friend.type_into("#join-name", name);
    friend.click("#join-take");
    friend.wait(
        &format!("game.seats[1].name === {}", json!(name)),
        Duration::from_secs(10),
        "the name taken",
    );
}

/// A step posted by this page with its own token: the answer's status.
fn post_step_as_page(b: &Browser, id: u64, step: &str) -> Value {
    let tok = page_token(b, id).unwrap_or_default();
    b.js(&format!(
        "return fetch('/api/games/{id}/step', {{method: 'POST', \
           headers: {{'Content-Type': 'application/json', Authorization: 'Bearer {tok}'}}, \
           body: JSON.stringify({{step: '{step}'}})}}).then(r => r.status);"
    ))
}

#[test]
fn friends_at_a_table_play_to_the_end_through_a_reload_and_a_kill_9() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let db = temp("gui-tables", "browser.db");
    let _ = std::fs::remove_file(&db);
    let _ = std::fs::remove_file(format!("{}-wal", db.display()));
    let port = free_port();
    let args = ["--db", db.to_str().unwrap()];
    let mut gui = Gui::start_on(port, &args);
    let url = gui.url();
    let host = Browser::start(&chromium, &chromedriver);
    let friend = Browser::start(&chromium, &chromedriver);
    let watcher = Browser::start(&chromium, &chromedriver);

    // The host: red at its screen, yellow a friend's, green the engine.
    host_form(&host, &url, TABLE_SPN, "50");
    host.start_game();
    host.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id: u64 = host.js("return game.id;").as_u64().unwrap();
    let (yellow, watch) = (link(&host, "y"), link(&host, "spectator"));
    assert!(yellow.starts_with(&format!("{url}#join={id}.")), "{yellow}");
    assert_ne!(yellow, watch);

    // The friend opens yellow's link and gives a name (markup is text).
    join(&friend, &yellow, "Yan <i>");
    host.wait(
        "[...document.querySelectorAll('#seat-list li')].some(l => l.textContent.includes('Yan <i>'))",
        Duration::from_secs(10),
        "the friend's name on the host's page",
    );
    assert_eq!(
        host.js("return document.querySelectorAll('#seat-list b').length;"),
        0
    );
    // The host's own seat is "you" as a guest's is; each link has its
    // Copy button.
    let red_seat = "document.querySelector('#seat-list li[data-seat=\"r\"]').textContent";
    assert!(
        host.js(&format!("return {red_seat};"))
            .as_str()
            .unwrap()
            .contains("(you)")
    );
    host.click("#table-link-list li[data-seat=\"y\"] button.copy");
    host.wait(
        "document.querySelector('#table-link-list li[data-seat=\"y\"] button.copy').textContent === 'Copied'",
        Duration::from_secs(5),
        "the link copied",
    );

    // The friend sees the board from yellow's side (a5, its west tip, at
    // the bottom); the host from red's (e1 at the bottom).
    let lowest = "(() => { const y = (s) => document.querySelector(`[data-square=\"${s}\"]`).getBBox().y; \
                  return ['a5', 'e1', 'e9', 'i5'].reduce((a, b) => (y(b) > y(a) ? b : a)); })()";
    assert_eq!(friend.js(&format!("return {lowest};")), "a5");
    assert_eq!(host.js(&format!("return {lowest};")), "e1");

    // The spectator sees the game, with nothing to click and no links.
    watcher.open(&watch, "the spectator's page");
    watcher.wait(
        "typeof game !== 'undefined' && game && game.you && game.you.role === 'spectator'",
        Duration::from_secs(10),
        "the spectator's game",
    );
    assert_eq!(
        watcher.js(
            "return document.querySelectorAll('.hit.from, .hit.target, circle.movable').length;"
        ),
        0
    );
    assert_eq!(
        watcher.js("return document.getElementById('table-links').classList.contains('hidden');"),
        true
    );
    assert_eq!(post_step_as_page(&watcher, id, "c7c6"), 403);
    // Only the controls each may use: the host's pace and take-back
    // neither the guest's nor the spectator's; no review nor hint to watch.
    for (b, who) in [(&friend, "the guest"), (&watcher, "the spectator")] {
        for css in ["#pace-row", "#takeback", "#next-step"] {
            assert!(!shown(b, css), "{css} offered to {who}");
        }
    }
    assert!(shown(&friend, "#review") && shown(&friend, "#hint"));
    assert!(!shown(&watcher, "#review") && !shown(&watcher, "#hint"));
    assert!(shown(&host, "#pace-row") && shown(&host, "#takeback"));
    assert_eq!(
        post_step_as_page(&friend, id, "c7c6"),
        403,
        "red's turn is not yellow's"
    );

    // Red (the host) walks its troll; yellow (the friend) too; green passes.
    click_steps(&host, &["c7c6", "c6c7", "c7c6"]);
    friend.wait(
        "game.side === 'y'",
        Duration::from_secs(10),
        "yellow's turn",
    );
    assert_eq!(
        post_step_as_page(&host, id, "f7g7"),
        403,
        "yellow's turn is not the host's"
    );
    host.wait(
        "game.side === 'y'",
        Duration::from_secs(10),
        "yellow's turn on the host's page",
    );
    // The README's picture: the host's page, the friend to move.
    host.screenshot_of("body", "gui-table.png");
    friend.screenshot("gui-table-friend.png");
    click_steps(&friend, &["f7g7", "g7f7", "f7g7"]);
    host.wait(
        "game.side === 'r' && game.step_count === 7",
        Duration::from_secs(20),
        "green's pass",
    );

    // The friend reloads: the same seat, its name, the game as it is.
    friend.go(&url);
    friend.wait(
        "typeof game !== 'undefined' && game && game.you && game.you.seat === 'y' && game.step_count === 7",
        Duration::from_secs(10),
        "the game after the reload",
    );

    // kill -9, and the server again on the same file and port. Meanwhile
    // the pages say they are reconnecting, calmly (not "Lost the game").
    gui.child.kill().unwrap();
    gui.child.wait().unwrap();
    host.wait(
        "document.getElementById('error').classList.contains('calm') && \
         document.getElementById('error-text').textContent === 'Reconnecting to the server…'",
        Duration::from_secs(10),
        "the reconnecting notice",
    );
    let _gui = Gui::start_on(port, &args);
    // Each page finds the server again: its poll, lost, asks again each
    // second, and the "lost" notice goes once it is answered.
    std::thread::sleep(Duration::from_millis(1500));
    for b in [&host, &friend, &watcher] {
        b.wait(
            "document.getElementById('error').classList.contains('hidden') && game.step_count === 7",
            Duration::from_secs(15),
            "the page back with the server",
        );
    }

    // Red crushes green; yellow crushes red and wins.
    click_steps(&host, &["c6c7", "c7d7*n"]);
    friend.wait(
        "game.side === 'y'",
        Duration::from_secs(15),
        "yellow's last turn",
    );
    click_steps(&friend, &["g7f7", "f7e7*n"]);
    for b in [&host, &friend, &watcher] {
        b.wait(
            "game.gameover && game.winner === 'y'",
            Duration::from_secs(15),
            "the end on every page",
        );
    }
    let st = friend.js("return game;");
    let steps: Vec<String> = st["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| {
            t["steps"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(
        steps.join(" "),
        "c7c6 c6c7 c7c6 f7g7 g7f7 f7g7 pass c6c7 c7d7*n g7f7 f7e7*n",
        "{st}"
    );
    assert_eq!(st["places"], json!({"y": 1, "r": 2, "g": 3}));
    // No hint once the game is over, and a disabled button looks it.
    let hint = host.js(
        "const h = document.getElementById('hint'); const c = getComputedStyle(h); \
         return [h.disabled, Number(c.opacity) < 1, c.cursor];",
    );
    assert_eq!(hint, json!([true, true, "not-allowed"]));
    // The host starts the next game: the guest and the spectator are told
    // the table closed, and the result stays on their screens.
    host.start_game();
    host.wait(
        &format!("game.id !== {id}"),
        Duration::from_secs(10),
        "the host's next game",
    );
    for b in [&friend, &watcher] {
        b.wait(
            "document.getElementById('error-text').textContent === \
             'The host closed this table; the result stands.' && \
             document.getElementById('error').classList.contains('calm')",
            Duration::from_secs(10),
            "the table closed, said",
        );
        assert!(shown(b, "#banner"), "the result is gone");
    }
}

/// The first plain step of the side to move that a click from and a
/// click to play alone (no chooser), from the page's legal steps.
fn a_plain_step(b: &Browser) -> String {
    b.js(
        "const l = game.legal.filter(s => /^[a-i][1-9][a-i][1-9]$/.test(s)); \
         return l.find(s => game.legal.filter(t => t.startsWith(s)).length === 1);",
    )
    .as_str()
    .expect("a plain step")
    .to_string()
}

#[test]
fn the_engine_plays_for_a_friend_who_went_away_and_the_friend_plays_on() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let gui = Gui::start(&[]);
    let url = gui.url();
    let host = Browser::start(&chromium, &chromedriver);
    let friend = Browser::start(&chromium, &chromedriver);
    host.open(&url, "the host's page");
    host.click("#kind-g option[value=\"invite\"]");
    host.wait(
        "!document.getElementById('takeover-row').classList.contains('hidden')",
        Duration::from_secs(5),
        "the takeover setting",
    );
    host.type_into("#takeover", "2");
    host.click("#algo-g option[value=\"random\"]");
    host.type_into("#ms-g", "50");
    host.start_game();
    host.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id: u64 = host.js("return game.id;").as_u64().unwrap();
    // The engine's steps wait for Next step: the host's page is seen
    // while the engine stands in for the friend.
    host.click("#pace option[value=\"step\"]");
    let green = link(&host, "g");
    // The friend, on a phone with the board already open, opens their
    // link in that tab: it takes them to the table at once.
    friend.phone();
    friend.open(&url, "the friend's own page");
    join(&friend, &green, "Gil");

    // The friend goes away (the tab closed); red plays its first step.
    friend.go("about:blank");
    click_steps(&host, &["e2e3"]);
    // The engine plays for the friend: the header names it, not them.
    host.wait(
        "game.seats[1].stand_in && game.waiting",
        Duration::from_secs(40),
        "the engine's step for the friend, waiting",
    );
    let status = host.js("return document.getElementById('status-text').textContent;");
    assert!(
        status.as_str().unwrap().contains("(engine for Gil, away)"),
        "{status}"
    );
    while host.js("return game.side;") == "g" {
        host.next_step();
    }
    // Two seconds after the friend's last request ended (a closed page's
    // long-poll ends within a second), the engine plays green's turn.
    host.wait(
        "game.side === 'r' && game.step_count === 3 && game.seats[1].stand_in",
        Duration::from_secs(40),
        "the engine's turn for the friend",
    );
    host.wait(
        "[...document.querySelectorAll('#seat-list li')].some(l => l.textContent.includes('engine for Gil, away'))",
        Duration::from_secs(5),
        "the seat list saying so",
    );
    // During red's turn the friend comes back (the page again): the seat
    // is theirs at once; red ends its turn and the friend plays theirs.
    let red = a_plain_step(&host);
    click_steps(&host, &[red.as_str()]);
    friend.open(&url, "the friend's page again");
    friend.wait(
        "game.you && game.you.seat === 'g' && !game.seats[1].stand_in",
        Duration::from_secs(20),
        "the friend's seat back",
    );
    while host.js("return game.side;") == "r" {
        let red = a_plain_step(&host);
        click_steps(&host, &[red.as_str()]);
    }
    friend.wait(
        "game.side === 'g'",
        Duration::from_secs(10),
        "the friend's turn",
    );
    let st = friend.js("return game;");
    assert_eq!(st["seats"][1]["stood_in"], json!([2]), "{st}");
    for _ in 0..3 {
        if friend.js("return game.side;") != "g" {
            break;
        }
        let step = a_plain_step(&friend);
        click_steps(&friend, &[step.as_str()]);
    }
    let st = host.wait(
        "game.side === 'r' && game.step_count === 9 && game",
        Duration::from_secs(10),
        "the friend's own turn",
    );
    assert_eq!(
        st["seats"][1]["stood_in"],
        json!([2]),
        "the friend's turn is theirs: {st}"
    );
    // The friend, their link in the address again, starts a game of
    // their own: the page says they leave the table (which plays on) and
    // clears the table's link from the address; their link opened again
    // takes them back to it.
    friend.go(&green);
    assert_eq!(friend.js("return game.id;"), id);
    friend.click("#start");
    let asked = friend.js("return document.getElementById('replace-text').textContent;");
    assert!(
        asked.as_str().unwrap().starts_with("Leave this table"),
        "{asked}"
    );
    friend.click("#confirm-replace");
    friend.wait_other_game(&id.to_string(), "the friend's own game");
    assert_eq!(friend.js("return location.hash;"), "");
    friend.go(&green);
    friend.wait(
        &format!("game.id === {id} && game.you.seat === 'g'"),
        Duration::from_secs(10),
        "the friend back at the table",
    );
}

/// Yellow (d8) and green (e8) have only their sorcerers, walled in: each
/// passes; red's troll (c7) crushes yellow (onto d7, north), then green
/// (onto e7, north), as in web.rs.
const THREE_BOXED_SPN: &str = "R/ySgSR/rTRR2/7/9/7/5/1rS1/1 r 3 5 - - -";

#[test]
fn a_stranger_sits_at_a_table_from_the_lobby_and_the_history_lists_the_game() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let gui = Gui::start(&[]);
    let url = gui.url();
    let host = Browser::start(&chromium, &chromedriver);
    let friend = Browser::start(&chromium, &chromedriver);

    // Someone has the lobby open, empty yet: it follows the tables.
    friend.open(&format!("{url}#lobby"), "the lobby");
    // The host lists a table: red at its screen, yellow a friend's seat,
    // green the engine.
    host_form(&host, &url, THREE_BOXED_SPN, "20");
    host.type_into("#takeover", "1");
    host.click("#lobby-listed");
    host.start_game();
    let id = host.wait(
        "document.getElementById('board').dataset.gameId",
        Duration::from_secs(10),
        "the game",
    );
    let id: u64 = id.as_str().unwrap().parse().unwrap();

    // The table comes into the open lobby (it reads the tables every
    // 5 s); the stranger gives a name and sits at yellow.
    let sit = format!("#lobby-list li[data-game=\"{id}\"] button.sit[data-seat=\"y\"]");
    friend.wait(
        &format!("document.querySelector('{sit}')"),
        Duration::from_secs(20),
        "the table in the lobby",
    );
    friend.type_into("#lobby-name", "Yan");
    friend.screenshot("gui-lobby.png");
    friend.click(&sit);
    friend.wait(
        &format!("typeof game !== 'undefined' && game && game.id === {id} && game.you.seat === 'y' && game.seats[1].name === 'Yan'"),
        Duration::from_secs(10),
        "the seat taken",
    );
    assert_eq!(
        friend.js("return document.getElementById('lobby-view').classList.contains('hidden');"),
        true
    );
    assert!(page_token(&friend, id).is_some(), "the seat's token kept");
    host.wait(
        "game.seats[1].name === 'Yan'",
        Duration::from_secs(10),
        "the name on the host's page",
    );

    // The stranger goes away (the tab closed). Red walks; the engine
    // passes for yellow (away 1 s at their turn), green passes; red
    // crushes yellow, then green.
    friend.go("about:blank");
    click_steps(&host, &["e2d2", "d2e2", "e2d2"]);
    host.wait(
        "game.side === 'r' && game.seats[1].stood_in.length === 1",
        Duration::from_secs(15),
        "red again, the engine having passed for yellow",
    );
    click_steps(&host, &["c7d7*n"]);
    host.wait("game.side === 'r'", Duration::from_secs(15), "red again");
    click_steps(&host, &["d7e7*n"]);
    host.wait("game.gameover", Duration::from_secs(10), "the end");
    let steps = host.js("return game.step_count;");

    // The stranger opens the History: it lists the game, with their name
    // (unrated: the engine played a turn for them) and the places; its
    // record downloads.
    friend.open(&format!("{url}#history"), "the history");
    let item = format!("#history-list li[data-game=\"{id}\"]");
    let text = friend.wait(
        &format!("(document.querySelector('{item}') || {{}}).textContent"),
        Duration::from_secs(10),
        "the game in the history",
    );
    let text = text.as_str().unwrap();
    friend.screenshot("gui-history.png");
    assert!(
        text.contains("Yellow: Yan, unrated: the engine played 1 turn (3rd)"),
        "{text}"
    );
    assert!(text.contains("Red: person (1st)"), "{text}");
    assert!(text.contains("engine"), "{text}");
    let record = friend.js(&format!(
        "return await fetch(document.querySelector('{item} a.download').href).then(r => r.text());"
    ));
    let record = record.as_str().unwrap();
    assert!(record.contains("[Result r > g > y]"), "{record}");
    assert_eq!(splut_play::record::parse_records(record).unwrap().len(), 1);
    // It opens on the board as a record loaded.
    friend.click(&format!("{item} button.open"));
    friend.wait(
        &format!("game.id !== {id} && game.gameover && game.step_count === {steps}"),
        Duration::from_secs(10),
        "the game opened",
    );
}
