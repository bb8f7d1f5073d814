// splut gui: the page. It draws what the server says and never reads an
// SPN nor decides legality itself: every position comes with its board as
// the rules read it (splut-board's BoardView: `board` in the state,
// `boards` in the positions, the preview's `board`), and what each step
// did or would do comes as events (splut-board's events: turns[].events,
// legal_events), which this file draws and narrate.js puts in words.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 56, OX = 0, OY = 0;
const SEAT_COLOUR = { r: "#c62828", y: "#d4a017", g: "#2e7d32", b: "#1565c0" };

// Timing for the measurements the browser test reads.
window.splut = { ready: null, log: [], stepPosted: null };

let config = null;
let game = null;        // the last state from the server
let pollToken = 0;
let selected = null;
let drawnSpn = null;
let lastThought = null;  // the engine's last search, shown after it
let rockEls = new Map(); // square -> rock <g>
let viewing = null;      // the step count of the position browsed, null: live
let positions = null;    // {id, count, boards}: every position of the game
let hint = null;         // the last hint: {step_count, steps, marks}
let reviewed = null;     // the last review: {id, count, turns}
let threatsShown = null; // the SPN of the position whose threats are drawn
let pieceEls = new Map(); // "rS" -> piece <g>
let story = null;        // the game's events by turn (narrate.js: narrateGame)
let hintBusy = false;     // a hint is asked for
let bannerClosed = null; // the game whose end banner the person hid

const $ = (id) => document.getElementById(id);

// ----- the board's shape and the position drawn -----

const FILES = "abcdefghi";

function onBoard(f, r) { return f >= 0 && f < 9 && r >= 0 && r < 9 && Math.abs(f - 4) + Math.abs(r - 4) <= 4; }

// The board turned so that the seat of the one looking sits at the
// bottom: red's as drawn, yellow's (west) a quarter turn, green's a half,
// blue's (east) three quarters. Only squares move; pieces stay upright.
const QUARTER_TURNS = { r: 0, y: 1, g: 2, b: 3 };
let boardTurns = 0;

function centre(sq) {
  const f = FILES.indexOf(sq[0]), r = Number(sq[1]) - 1;
  let x = f - 4, y = 4 - r;  // from the centre, y down the screen
  for (let k = 0; k < boardTurns; k++) [x, y] = [y, -x];
  return [OX + (x + 4) * CELL + CELL / 2, OY + (y + 4) * CELL + CELL / 2];
}

// A guest sees the board from their seat; the host and spectators from red's.
function turnsFor(st) {
  return st.you && st.you.role === "seat" ? QUARTER_TURNS[st.you.seat] || 0 : 0;
}

function allSquares() {
  const out = [];
  for (let r = 8; r >= 0; r--) for (let f = 0; f < 9; f++) if (onBoard(f, r)) out.push(FILES[f] + (r + 1));
  return out;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

let layers = {};
function buildBoard() {
  const svg = $("board");
  svg.textContent = "";
  layers.squares = el("g", {}, svg);
  layers.last = el("g", { id: "last-marks" }, svg);
  layers.marks = el("g", {}, svg);
  layers.rocks = el("g", {}, svg);
  layers.pieces = el("g", {}, svg);
  layers.movable = el("g", { id: "movable" }, svg);
  layers.lastTop = el("g", { id: "last-top" }, svg);
  layers.threats = el("g", { id: "threat-marks" }, svg);
  layers.arrows = el("g", { id: "arrows" }, svg);
  layers.preview = el("g", { id: "throw-preview" }, svg);
  layers.hits = el("g", {}, svg);
  for (const sq of allSquares()) {
    const [x, y] = centre(sq);
    const f = FILES.indexOf(sq[0]), r = Number(sq[1]);
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                 class: "sq" + ((f + r) % 2 ? " dark" : "") }, layers.squares);
    // Every square's name in its corner: the notation of the log and the
    // move list, readable on the board.
    const t = el("text", { x: x - CELL / 2 + 3, y: y + CELL / 2 - 3, class: "coord" }, layers.squares);
    t.textContent = sq;
    const hit = el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                             class: "hit", "data-square": sq, "data-content": "" }, layers.hits);
    hit.addEventListener("click", () => clickSquare(sq));
    hit.addEventListener("pointerdown", (ev) => dragStart(ev, sq));
    hit.addEventListener("pointerup", (ev) => dragEnd(ev));
  }
  rockEls = new Map();
  pieceEls = new Map();
  drawnSpn = null;
  threatsShown = null;
  delete svg.dataset.spn;
  delete svg.dataset.preview;
}

function place(g, sq) {
  const [x, y] = centre(sq);
  g.style.transform = `translate(${x}px, ${y}px)`;
  g.dataset.at = sq;
}

function makePiece(code) {
  const seat = code[0], kind = code[1], col = SEAT_COLOUR[seat];
  const g = el("g", { class: "piece", "data-piece": code });
  let shape;
  if (kind === "S") shape = el("polygon", { points: "0,-23 20,17 -20,17" }, g);          // sorcerer: pointed hat
  else if (kind === "T") shape = el("rect", { x: -19, y: -19, width: 38, height: 38, rx: 3 }, g); // troll: block
  else shape = el("circle", { r: 15 }, g);                                                 // dwarf: small round
  shape.setAttribute("fill", col);
  shape.setAttribute("stroke", "#222");
  shape.setAttribute("stroke-width", "2");
  const t = el("text", { x: -5, y: kind === "S" ? 12 : 5 }, g);
  t.textContent = kind;
  const title = el("title", {}, g);
  title.textContent = `${SEAT_NAME[seat]} ${KIND_NAME[kind]}`;
  return g;
}

function makeRock() {
  const g = el("g", { class: "piece rock-g" });
  el("polygon", { class: "rock", points: "-14,-20 10,-21 22,-4 17,16 -4,22 -21,10 -22,-9" }, g);
  return g;
}

// Draws a position as the host read it (its board: pieces, rocks cooling,
// moved and levitated), moving the pieces that moved (CSS transitions).
function drawPosition(p) {
  if (!p) return;
  const svg = $("board");
  // Team pieces are unique: key them by seat and kind.
  const seen = new Set();
  for (const [sq, c] of Object.entries(p.pieces)) {
    if (c === "R") continue;
    seen.add(c);
    let g = pieceEls.get(c);
    if (!g) { g = makePiece(c); pieceEls.set(c, g); place(g, sq); layers.pieces.appendChild(g); }
    else if (g.dataset.at !== sq) place(g, sq);
  }
  for (const [c, g] of pieceEls) if (!seen.has(c)) { g.remove(); pieceEls.delete(c); }
  // Rocks are alike: those still on their square stay, the others are
  // matched to the new rock squares nearest them, so a moved rock slides.
  const newRocks = Object.keys(p.pieces).filter((s) => p.pieces[s] === "R");
  const keep = new Map();
  const gone = [];
  for (const [sq, g] of rockEls) (newRocks.includes(sq) ? keep.set(sq, g) : gone.push(g));
  for (const sq of newRocks) {
    if (keep.has(sq)) continue;
    let best = -1, bestD = 1e9;
    const [x, y] = centre(sq);
    gone.forEach((g, i) => {
      if (!g) return;
      const [gx, gy] = centre(g.dataset.at);
      const d = Math.abs(gx - x) + Math.abs(gy - y);
      if (d < bestD) { bestD = d; best = i; }
    });
    let g;
    if (best >= 0) { g = gone[best]; gone[best] = null; } else { g = makeRock(); layers.rocks.appendChild(g); }
    place(g, sq);
    keep.set(sq, g);
  }
  for (const g of gone) if (g) g.remove();
  rockEls = keep;
  // Marks: cooling rocks, rocks moved this turn, the levitated rock.
  layers.marks.textContent = "";
  const ring = (sq, cls, r, label) => {
    const [x, y] = centre(sq);
    const c = el("circle", { cx: x, cy: y, r, class: cls }, layers.marks);
    const t = el("title", {}, c); t.textContent = label;
  };
  for (const sq of p.cooling) ring(sq, "rock-cooling", 26, "cooling: moved last turn, cannot be levitated");
  for (const sq of p.moved) ring(sq, "rock-moved", 23, "moved this turn");
  if (p.levitated) ring(p.levitated, "rock-levitated", 27, "levitated this turn");
  // Each square says what is on it, for tests and for the curious.
  for (const hit of layers.hits.children) {
    const sq = hit.dataset.square;
    hit.dataset.content = p.pieces[sq] || "";
    hit.dataset.cooling = p.cooling.includes(sq) ? "1" : "";
    hit.dataset.moved = p.moved.includes(sq) ? "1" : "";
    hit.dataset.levitated = p.levitated === sq ? "1" : "";
  }
  svg.dataset.spn = p.spn;
  drawnSpn = p.spn;
}

function seatOf(letter) { return game && game.seats.find((s) => s.seat === letter); }

// ----- tables: whose seats this page plays (splut gui) -----

// Each game's token, by id: the host's from its making, a guest's or a
// spectator's from the link they opened. Kept in the browser, so a reload
// or a phone that dropped the tab comes back to the same seat.
const TOKENS = "splut.tokens";

function tokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS) || "{}") || {}; } catch (e) { return {}; }
}

function tokenFor(id) { return tokens()[String(id)] || memoryTokens[String(id)] || null; }

// Where the browser keeps nothing (private mode), for this page's life.
const memoryTokens = {};

function keepToken(id, token) {
  memoryTokens[String(id)] = token;
  const all = tokens();
  all[String(id)] = token;
  // The newest 20 games' tokens at most.
  const ids = Object.keys(all).map(Number).sort((a, b) => b - a).slice(0, 20);
  const kept = Object.fromEntries(ids.map((i) => [String(i), all[String(i)]]));
  try { localStorage.setItem(TOKENS, JSON.stringify(kept)); } catch (e) { /* private mode */ }
}

// A person's seat this page plays: the host plays the people at its
// screen, a guest their own seat, a spectator none. (The static board
// has no tables: every person is at its screen.)
function mine(s, st) {
  if (!s || s.engine) return false;
  const you = (st || game || {}).you;
  if (!you || you.role === "host") return !s.invited;
  return you.role === "seat" && you.seat === s.seat;
}

// The table as this page sees it: the host, the links of the invited
// seats and the spectators'; a guest not yet named, the form to take the
// seat. Names are text, never markup.
function drawTable(st) {
  const links = st.links;
  const invited = st.seats.filter((s) => s.invited);
  $("table-links").classList.toggle("hidden", !links || !invited.length);
  if (links && invited.length) {
    const base = `${location.origin}${location.pathname}#join=${st.id}.`;
    const rows = invited.map((s) => [s.seat, `${SEAT_NAME[s.seat]}${s.name ? ` (${s.name})` : ""}`, links.seats[s.seat]])
      .concat([["spectator", "Spectators", links.spectator]]);
    const ul = $("table-link-list");
    ul.replaceChildren(...rows.map(([key, label, token]) => {
      const li = document.createElement("li");
      li.dataset.seat = key;
      const text = document.createElement("span");
      text.textContent = `${label}: `;
      const input = document.createElement("input");
      input.readOnly = true; input.className = "link"; input.value = base + token;
      input.setAttribute("aria-label", `${label}'s link`);
      const copy = document.createElement("button");
      copy.type = "button"; copy.className = "copy"; copy.textContent = "Copy";
      copy.setAttribute("aria-label", `Copy ${label}'s link`);
      copy.addEventListener("click", () => copyText(input, copy));
      li.append(text, input, copy);
      return li;
    }));
  }
  const you = st.you;
  const seat = you && you.role === "seat" ? seatOf(you.seat) : null;
  const form = $("join");
  const unnamed = !!seat && !seat.name && !seat.left;
  const asked = unnamed && form.classList.contains("hidden");
  if (asked) $("join-text").textContent = `You are invited to play ${SEAT_NAME[you.seat]}.`;
  form.classList.toggle("hidden", !unnamed);
  // Focused once shown (a hidden field takes no focus), in view on a phone.
  if (asked) { $("join-name").focus(); form.scrollIntoView({ block: "nearest" }); }
  // A guest may leave for good once seated (not once they have, nor
  // after the end).
  $("seat-away").classList.toggle("hidden", !seat || unnamed || !!seat.left || st.gameover);
}

// The takeover time is asked for when a seat is a friend's.
// So is the lobby (a table listed there); the clock when any is a person's.
function showTakeover() {
  const kinds = [...document.querySelectorAll("#seats select")].map((k) => k.value);
  const any = kinds.includes("invite");
  $("takeover-row").classList.toggle("hidden", !any);
  $("lobby-row").classList.toggle("hidden", !any);
  $("clock-row").classList.toggle("hidden", !kinds.some((k) => k !== "engine"));
}

async function leaveSeat() {
  if (!game || !confirm("Leave the game? The engine plays your seat to the end.")) return;
  try { render(await api("POST", `/api/games/${game.id}/leave`)); }
  catch (e) { showError(`Leave: ${e.message}`, false); }
}

async function takeSeat(ev) {
  ev.preventDefault();
  if (!game) return;
  try { render(await api("POST", `/api/games/${game.id}/join`, { name: $("join-name").value })); }
  catch (e) { showError(`Your name: ${e.message}`, false); }
}

// An invitation's (or a spectator's) link, `#join=<game>.<token>`: its
// token kept, and its game taken up, at the page's load or whenever the
// address becomes one (a link pasted into a tab already open). Whether
// the address was one.
async function joinFromLink() {
  const m = linkInAddress();
  if (!m || window.splutBackend) return false;
  const same = game && String(game.id) === m[1] && tokenFor(m[1]) === m[2];
  keepToken(m[1], m[2]);
  if (!same) await openGame(m[1], "This link's game");
  return true;
}

function linkInAddress() { return /^#join=(\d+)\.([0-9a-f]{32})$/.exec(location.hash); }

// The address changed: a link's table taken up, else the view it names.
async function addressChanged() {
  showView();
  await joinFromLink();
}

// A table's link left in the address once the page follows another game
// (the person left it), so that opening that link again is a change.
function forgetOtherLink(id) {
  const m = linkInAddress();
  if (m && m[1] !== String(id)) window.history.replaceState(null, "", location.pathname + location.search);
}

// Opens game `id` with the token kept for it (a link's, the lobby's), in
// place of the one followed; whether it could.
async function openGame(id, what) {
  stopPolling();
  return follow(api("GET", `/api/games/${id}`), what);
}

// Follows the game whose state `request` answers with (one opened or
// started), its poll ended first by the caller; if the request fails,
// the game followed before is followed again. Whether it could.
async function follow(request, what) {
  try {
    const st = await request;
    showError("", false);
    game = null;
    forgetOtherLink(st.id);
    render(st);
    // The new game's board in view (a phone scrolled down to Start).
    window.scrollTo(0, 0);
    pollToken++;
    poll(pollToken);
    return true;
  } catch (e) {
    showError(what ? `${what}: ${e.message}` : e.message, false);
    if (game) { pollToken++; poll(pollToken); }
    return false;
  }
}

// ----- the lobby and the history (splut gui's tables) -----

// A seat as the server tells it (who sits there: `engine`, `person` or
// `open`; its place in a finished game), in words. The page computes
// nothing of it.
function sitterWord(s) {
  if (s.who === "engine") return `engine, ${levelName(s.level)}`;
  if (s.who === "open") return "open";
  // Turns the engine played for them (away, left, or out of time): the
  // record writes the seat `person-unrated(engine:…)`.
  const n = (s.stood_in || []).length;
  const engine = n ? `, unrated: the engine played ${n} turn${n === 1 ? "" : "s"}` : "";
  return (s.name || (s.invited ? "invited" : "person")) + (s.left ? ", left" : "") + engine;
}

function seatsLine(seats) {
  return seats.map((s) => `${SEAT_NAME[s.seat]}: ${sitterWord(s)}${s.place ? ` (${ORDINAL[s.place]})` : ""}`).join(" · ");
}

function when(secs) { return secs ? new Date(secs * 1000).toLocaleString() : ""; }

function textDiv(text, cls) {
  const d = document.createElement("div");
  d.textContent = text;
  if (cls) d.className = cls;
  return d;
}

// How often an open lobby reads the tables again (ms).
const LOBBY_EVERY = 5000;
let lobbyTimer = null;

// The view the address names (#lobby, #history), drawn; none on the
// static board, which has no tables. An open lobby follows the tables
// (while the tab is seen).
function showView() {
  const v = window.splutBackend ? "" : location.hash;
  $("lobby-view").classList.toggle("hidden", v !== "#lobby");
  $("history-view").classList.toggle("hidden", v !== "#history");
  clearInterval(lobbyTimer);
  lobbyTimer = null;
  if (v === "#lobby") {
    drawLobby();
    lobbyTimer = setInterval(() => { if (!document.hidden) drawLobby(true); }, LOBBY_EVERY);
  }
  if (v === "#history") drawHistory(false);
}

// Back to the game alone: the view's name out of the address.
function closeView() {
  window.history.replaceState(null, "", location.pathname + location.search);
  showView();
}

// The lobby's tables drawn; `quiet` (a refresh) says nothing of a failure.
async function drawLobby(quiet) {
  let r;
  try { r = await api("GET", "/api/lobby"); } catch (e) {
    if (!quiet) showError(`Lobby: ${e.message}`, false);
    return;
  }
  $("lobby-list").replaceChildren(...r.tables.map((t) => {
    const li = document.createElement("li");
    li.dataset.game = String(t.id);
    li.append(textDiv(`Table ${t.id}: ${t.players} players, since ${when(t.created)}`),
      textDiv(seatsLine(t.seats), "seats-line"));
    for (const s of t.seats.filter((x) => x.who === "open")) {
      const b = document.createElement("button");
      b.className = "sit";
      b.dataset.seat = s.seat;
      b.textContent = `Sit at ${SEAT_NAME[s.seat]}`;
      b.addEventListener("click", () => sitAt(t.id, s.seat));
      li.append(b);
    }
    return li;
  }));
  $("lobby-empty").classList.toggle("hidden", r.tables.length > 0);
}

// Takes a table's open seat under the name typed: its token is kept as a
// link's, and the game opens as that seat.
async function sitAt(id, seat) {
  const name = $("lobby-name").value.trim();
  if (!name) {
    showError("Your name first: the table shows it", false);
    $("lobby-name").focus();
    return;
  }
  try {
    const r = await api("POST", `/api/lobby/${id}/sit`, { seat, name });
    keepToken(r.id, r.token);
    closeView();
    await openGame(r.id, "The table's game");
  } catch (e) {
    showError(`Sit at ${SEAT_NAME[seat]}: ${e.message}`, false);
    drawLobby();
  }
}

// The next page's `before`, if there is one.
let historyNext = null;

async function drawHistory(more) {
  const q = more && historyNext !== null ? `?before=${historyNext}` : "";
  let r;
  try { r = await api("GET", `/api/history${q}`); } catch (e) { showError(`History: ${e.message}`, false); return; }
  const ol = $("history-list");
  if (!more) ol.textContent = "";
  for (const g of r.games) ol.append(historyItem(g));
  historyNext = r.next === undefined ? null : r.next;
  $("history-more").classList.toggle("hidden", historyNext === null);
  $("history-empty").classList.toggle("hidden", ol.children.length > 0);
}

function historyItem(g) {
  const li = document.createElement("li");
  li.dataset.game = String(g.id);
  li.append(textDiv(`${when(g.ended)}: ${g.steps} steps`), textDiv(seatsLine(g.seats), "seats-line"));
  const a = document.createElement("a");
  a.className = "button download";
  a.href = `/api/history/${g.id}/record`;
  a.download = `splut-game-${g.id}.txt`;
  a.textContent = "Download record";
  const open = document.createElement("button");
  open.className = "open";
  open.textContent = "Open it";
  open.addEventListener("click", () => openRecord(g.id));
  li.append(a, open);
  return li;
}

// A finished game opened on the board, as a record loaded: its moves to
// browse, its review.
async function openRecord(id) {
  if (game && !game.gameover && !game.closed && !confirm("A game is running. Replace it with this one?")) return;
  let text;
  try {
    const r = await fetch(`/api/history/${id}/record`);
    text = await r.text();
    if (!r.ok) throw new Error(r.status === 404 ? "no such finished game" : `HTTP ${r.status}`);
  } catch (e) { showError(`The record: ${e.message}`, false); return; }
  closeView();
  await startNew({ record: text });
}

// A person's seat in words: the name they gave, else who they are.
function personWord(s) {
  if (s && s.name) return s.name;
  return s && s.invited ? "invited" : "person";
}

// The engine playing a person's seat now, in words (away, left, or their
// clock ran out this turn); null while its person plays it.
function standInWords(s) {
  if (!s || s.engine) return null;
  if (s.clock && s.clock.out) return `engine for ${personWord(s)}, whose time ran out`;
  if (s.stand_in) return `engine for ${personWord(s)}, ${s.left ? "who left" : "away"}`;
  return null;
}

// A person to move at this screen, and playing it (no engine standing in).
function personToMove() {
  if (!game || viewing !== null || game.gameover || game.error || game.thinking || !game.side) return false;
  const s = seatOf(game.side);
  return mine(s) && !standInWords(s);
}

// The steps a person may choose, each as the event it would be.
function legalSteps() { return personToMove() ? game.legal_events || [] : []; }

// The squares a person can move from get a ring (not a veil: they are the
// ones to touch); the selected one and its targets are lit.
function highlight() {
  const steps = legalSteps();
  const froms = new Set(steps.map((s) => s.from));
  const targets = new Set(steps.filter((s) => s.from === selected).map((s) => s.to));
  layers.movable.textContent = "";
  for (const hit of layers.hits.children) {
    const sq = hit.dataset.square;
    const from = froms.has(sq) && selected === null;
    hit.classList.toggle("from", from);
    hit.classList.toggle("selected", sq === selected);
    hit.classList.toggle("target", targets.has(sq));
    const [x, y] = centre(sq);
    if (from) {
      el("circle", { cx: x, cy: y, r: 25, class: "movable" }, layers.movable);
      el("circle", { cx: x + 19, cy: y - 19, r: 5, class: "movable-dot" }, layers.movable);
    }
    if (targets.has(sq)) el("circle", { cx: x, cy: y, r: 8, class: "target-dot" }, layers.movable);
  }
}

function hideChooser() {
  $("chooser").classList.add("hidden");
  $("chooser-buttons").textContent = "";
  if (layers.preview) layers.preview.textContent = "";
}

// A choice among the steps between the same two squares (events), in
// words; a throw names where the rock lands and whom it crushes.
function describe(s) {
  if (s.type === "pull") return `pull the rock from ${s.rock[0]}`;
  if (s.type === "levitate") return `levitate the rock from ${s.rock[0]} to ${s.rock[1]}`;
  if (s.type === "throw") {
    if (!s.landing) return `throw ${DIR_NAME[s.throw]}`;
    const victim = s.crushed ? `, crushing ${pieceName(s.crushed)}` : "";
    return `throw ${DIR_NAME[s.throw]}: lands on ${s.landing}${victim}`;
  }
  return "just step";
}

// Draws where each offered throw would land (and what it would crush).
function previewThrows(cands) {
  layers.preview.textContent = "";
  for (const c of cands) {
    if (c.type !== "throw" || !c.landing) continue;
    const g = el("g", { class: "throw-preview", "data-step": c.step, "data-landing": c.landing,
                        "data-crushed": c.crushed || "" }, layers.preview);
    path(g, [c.to, ...c.flight], "preview-flight");
    const [x, y] = centre(c.landing);
    el("circle", { cx: x, cy: y, r: 24, class: c.crushed ? "preview-victim" : "preview-land" }, g);
    const label = el("text", { x: x - 5, y: y + 5, class: "arrow-label" }, g);
    label.textContent = c.throw.toUpperCase();
  }
}

function showChooser(cands) {
  $("chooser-title").textContent = `${selected}→${cands[0].to}: `;
  const box = $("chooser-buttons");
  box.textContent = "";
  for (const c of cands) {
    const b = document.createElement("button");
    b.textContent = describe(c);
    b.dataset.step = c.step;
    b.addEventListener("click", () => { hideChooser(); playStep(c.step); });
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "cancel";
  cancel.addEventListener("click", () => { hideChooser(); selected = null; highlight(); });
  box.appendChild(cancel);
  $("chooser").classList.remove("hidden");
  previewThrows(cands);
}

function clickSquare(sq) {
  if (!personToMove()) return;
  const steps = legalSteps();
  if (selected) {
    const cands = steps.filter((s) => s.from === selected && s.to === sq);
    if (cands.length === 1) { hideChooser(); playStep(cands[0].step); return; }
    // Ambiguous: pull or not, throw direction, levitate or not / which rock.
    if (cands.length > 1) { showChooser(cands); return; }
  }
  hideChooser();
  selected = steps.some((s) => s.from === sq) && selected !== sq ? sq : null;
  highlight();
}

// Dragging a piece to its square works as two clicks (a tap is a click).
let dragFrom = null;
function dragStart(ev, sq) {
  dragFrom = personToMove() && legalSteps().some((s) => s.from === sq) ? sq : null;
}
function dragEnd(ev) {
  const from = dragFrom;
  dragFrom = null;
  if (!from) return;
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  const sq = target && target.dataset && target.dataset.square;
  if (!sq || sq === from) return;  // a click: the click handler has it
  selected = from;
  clickSquare(sq);
}

// The API: `splut gui`'s server, or without one (the static board of
// `scripts/web`, docs/web.md) the back end it loaded into the page.
async function api(method, path, body, signal) {
  if (window.splutBackend) return window.splutBackend(method, path, body);
  const opts = { method, headers: {}, signal };
  // A game's table knows us by the token its link (or its making) gave.
  // (A new game replacing one: that one's, the host's alone closing it.)
  const m = /^\/api\/games\/(\d+)/.exec(path);
  const about = m ? m[1] : path === "/api/games" && body && body.replace;
  const token = about && tokenFor(about);
  if (token) opts.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

// A notice over the board's top: an error in red, or (`calm`) news that
// is no one's fault (the server out of reach a moment, the table closed).
function showError(msg, restart, calm) {
  $("error-text").textContent = msg;
  $("error").classList.toggle("hidden", !msg);
  $("error").classList.toggle("calm", !!calm);
  $("restart").classList.toggle("hidden", !restart);
}

// The game followed is gone from the server (`closed` by its host, or
// no longer there), said in words; the result stays on the board.
function gameGone() {
  const you = game && game.you;
  const guest = you && you.role !== "host";
  const msg = !guest ? "This game is no longer on the server: start a new one."
    : game.gameover ? "The host closed this table; the result stands."
    : "The host closed this table before its end.";
  showError(msg, false, true);
}

async function playStep(text) {
  selected = null;
  window.splut.stepPosted = performance.now();
  try { render(await api("POST", `/api/games/${game.id}/step`, { step: text })); }
  catch (e) { showError(`Step refused: ${e.message}`, false); highlight(); }
}

function render(st) {
  if (!st || (game && st.id === game.id && st.version < game.version)) return;
  if (st.links) keepToken(st.id, st.links.host);
  const firstDraw = !game || game.id !== st.id;
  if (firstDraw) { boardTurns = turnsFor(st); buildBoard(); window.splut.log = []; lastThought = null; }
  game = st;
  clockSeen = performance.now();
  keepGame(st);
  document.body.classList.remove("no-game");
  if (firstDraw) {
    viewing = null; positions = null; hint = null; reviewed = null;
    $("browsing").classList.add("hidden");
    $("hint-text").classList.add("hidden");
    $("newgame").open = false;  // folded away while the game runs
    $("level-next").classList.add("hidden");
    showReview();
  }
  story = narrateGame(st.turns);
  // The places are the rules' (Game::places, in the state), not the page's.
  if (story) story.places = st.places || {};
  if (viewing === null && st.board && st.board.spn !== drawnSpn) drawPosition(st.board);
  window.splut.log.push({ t: performance.now(), version: st.version, steps: st.step_count,
                          side: st.side, thinking: !!st.thinking, spn: st.spn,
                          think: st.thinking ? `${st.step_count}${st.thinking.seat}` : null });
  if (window.splut.log.length > 2000) window.splut.log.shift();
  drawStatus(st);
  const board = $("board");
  board.dataset.side = st.side || "";
  board.dataset.stepsLeft = st.steps_left == null ? "" : String(st.steps_left);
  board.dataset.version = String(st.version);
  board.dataset.gameId = String(st.id);
  drawBanner(st);
  if (st.error) showError(st.error, !st.engine_running && roleIn(st) === "host");
  else if (!$("error-text").textContent.startsWith("Step refused")) showError("", false);
  drawThinking(st);
  drawMoves(st);
  drawLog();
  drawSeatList(st);
  drawTable(st);
  drawEvalBar(st);
  drawGraph(st);
  if (hint && hint.step_count !== st.step_count) { hint = null; $("hint-text").classList.add("hidden"); }
  drawOverlays();
  $("spn-text").value = st.spn || "";
  if (!window.splutBackend) {
    const t = tokenFor(st.id);
    $("download").href = `/api/games/${st.id}/record` + (t ? `?token=${t}` : "");
  }
  $("pass").classList.toggle("hidden", !(personToMove() && st.legal.includes("pass")));
  if (st.pace && $("pace").value !== st.pace) $("pace").value = st.pace;
  drawControls(st);
  if (!personToMove()) { selected = null; hideChooser(); }
  highlight();
}

// This page's part in a game: "host" (also a game of its own and the
// static board's), "seat" (a guest) or "spectator".
function roleIn(st) { return st && st.you ? st.you.role : "host"; }

// The controls only those who may use them see: take-back, pace, the
// next engine step and the engine's restart are the host's; a review
// anyone seated may ask for (the server's rules, tools/src/gui/api.rs).
function drawControls(st) {
  const role = roleIn(st);
  $("takeback").classList.toggle("hidden", role !== "host");
  $("pace-row").classList.toggle("hidden", role !== "host");
  $("next-step").classList.toggle("hidden", !st.waiting || role !== "host");
  $("review-row").classList.toggle("hidden", role === "spectator");
  // Every person out: the engines play on, at full speed if asked.
  $("finish-fast").classList.toggle("hidden", role !== "host" || !personsOut(st).length || st.pace === "none");
  // Or ends the game there, the seats still in sharing the places left.
  $("end-here").classList.toggle("hidden", role !== "host" || !personsOut(st).length);
  $("hint").classList.toggle("hidden", role === "spectator");
}

function drawStatus(st) {
  const status = $("status"), text = $("status-text");
  const out = personsOut(st);
  if (st.gameover) text.textContent = st.drawn ? "Game over: drawn" : "Game over";
  else if (st.side) {
    const who = seatOf(st.side);
    const whoWord = who && who.engine ? "engine" : standInWords(who) || (mine(who, st) ? "you" : personWord(who));
    text.textContent = `${SEAT_NAME[st.side]} to move (${whoWord}), ` +
      `${st.steps_left} step${st.steps_left === 1 ? "" : "s"} left, turn ${st.turn}`;
    if (out.length) text.textContent = `You are out (${outWords(out, st)}). ` + text.textContent;
  }
  status.className = "status seat-" + (st.side || "");
  status.dataset.out = out.join("");
  // Nothing left to take back or hint for a person who is out; at a
  // table, take-backs are the host's.
  $("takeback").disabled = out.length > 0 || (!!st.you && st.you.role !== "host");
  $("hint").disabled = hintOff(st) || hintBusy;
}

// No hint for a person who is out, nor on an engine's turn (it would be
// the engine's own turn, issue 52), nor once the game is over.
function hintOff(st) {
  const mover = st && !st.gameover && st.side ? seatOf(st.side) : null;
  return !st || st.gameover || personsOut(st).length > 0 ||
    !!(mover && (mover.engine || !mine(mover) || standInWords(mover)));
}

// "Green, 3rd": the seats out and their places.
function outWords(seats, st) {
  const places = st.places || {};
  return seats.map((s) => SEAT_NAME[s] + (places[s] ? `, ${ORDINAL[places[s]]}` : "")).join("; ");
}

// The engine's thinking line, the same from either host: the last report
// with a depth of this thought (a copy: the static board's state is live),
// kept while a later report has none, and after the thought as "thought".
function drawThinking(st) {
  const th = st.thinking;
  const infoText = (i) => `depth ${i.depth}  score ${i.score || "?"}  nodes ${i.nodes ?? "?"}  ` +
    `time ${i.time ?? "?"} ms\npv ${(i.pv || []).join(" ")}`;
  if (th) {
    const key = `${st.step_count}${th.seat}`;
    if (!lastThought || lastThought.key !== key) lastThought = { key, seat: th.seat, info: null };
    if (th.info && th.info.depth != null) lastThought.info = { ...th.info, pv: [...(th.info.pv || [])] };
  }
  const box = $("thinking");
  if (th) box.textContent = `${SEAT_NAME[th.seat]} thinking…\n` + (lastThought.info ? infoText(lastThought.info) : "");
  else if (lastThought && lastThought.info) box.textContent = `${SEAT_NAME[lastThought.seat]} thought:\n` + infoText(lastThought.info);
  else box.textContent = "";
}

// The seat these marks and words are for: the person to move, else the
// next person in turn order still in the game; none in an engines' game.
// None either once every person is out: their next turn never comes.
function viewerSeat() {
  if (!game) return null;
  const persons = game.seats.filter((s) => mine(s)).map((s) => s.seat);
  const inGame = new Set(game.board ? game.board.seats : persons);
  const order = "rygb";
  const from = Math.max(0, order.indexOf(game.side || "r"));
  for (let k = 0; k < 4; k++) {
    const s = order[(from + k) % 4];
    if (persons.includes(s) && inGame.has(s)) return s;
  }
  return null;
}

// The person seats, when every one of them is out of a game that goes on
// (the engines play it out); else none.
function personsOut(st) {
  const persons = st.seats.filter((s) => mine(s, st)).map((s) => s.seat);
  const out = story ? story.outOrder : [];
  return !st.gameover && persons.length && persons.every((s) => out.includes(s)) ? persons : [];
}

// ----- what just happened: the log in words, the marks, the seats -----

// The steps to mark: while browsing, the viewed step's turn up to it; else
// every step since the viewer's last turn (its own steps once it moves),
// or the last turn in an engines' game and once every person is out.
function recentEvents() {
  if (!story) return [];
  const turns = story.turns;
  if (viewing !== null) {
    let at = 0;
    for (const t of turns) {
      const n = t.events.length;
      if (viewing > at && viewing <= at + n) return t.events.slice(0, viewing - at);
      at += n;
    }
    return [];
  }
  if (!turns.length) return [];
  const viewer = viewerSeat();
  const last = turns[turns.length - 1];
  if (!viewer || last.seat === viewer) return last.events;
  const out = [];
  for (let i = turns.length - 1; i >= 0 && turns[i].seat !== viewer; i--) out.unshift(...turns[i].events);
  return out;
}

// The rocks a step moved along, from and to: one pulled or levitated,
// those a dwarf pushed (the farthest first, as they moved).
function rocksMoved(ev) {
  const pushed = ev.pushed.filter((p) => p.piece === "R").map((p) => [p.from, p.to]).reverse();
  return ev.rock ? [ev.rock, ...pushed] : pushed;
}

function drawLastMarks() {
  layers.last.textContent = "";
  layers.lastTop.textContent = "";
  const events = recentEvents();
  const square = (sq, cls, colour, mark) => {
    const [x, y] = centre(sq);
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: cls,
                 fill: colour, "data-mark": mark, "data-at": sq }, layers.last);
  };
  for (const ev of events) {
    if (ev.type === "pass") continue;
    const colour = SEAT_COLOUR[ev.seat];
    square(ev.from, "last-from", colour, "from");
    square(ev.to, "last-to", colour, "to");
    for (const [a, b] of rocksMoved(ev)) arrow(layers.lastTop, a, b, "last-rock");
    if (ev.type === "throw") {
      const p = path(layers.lastTop, [ev.to, ...ev.flight], "last-flight", colour);
      p.dataset.mark = "flight";
      p.dataset.at = ev.landing;
    }
    if (ev.crushed) {
      const [x, y] = centre(ev.landing);
      const x1 = el("path", { d: `M${x - 14},${y - 14} L${x + 14},${y + 14} M${x + 14},${y - 14} L${x - 14},${y + 14}`,
                              class: "kill-x", stroke: SEAT_COLOUR[ev.crushed[0]], "data-mark": "kill",
                              "data-at": ev.landing, "data-victim": ev.crushed }, layers.lastTop);
      el("title", {}, x1).textContent = `${pieceName(ev.crushed)} was crushed here`;
    }
  }
  $("board").dataset.lastSteps = events.map((e) => e.step).join(" ");
}

function drawLog() {
  const ol = $("log");
  ol.textContent = "";
  if (!story) return;
  for (const t of story.turns) {
    const li = document.createElement("li");
    li.dataset.turn = String(t.index);
    li.className = "seat-" + t.seat + (t.events.some((e) => e.crushed) ? " kill" : "");
    li.textContent = turnSentences(t.events, story.places);
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function drawSeatList(st) {
  const ul = $("seat-list");
  ul.textContent = "";
  if (!story) return;
  for (const s of st.seats) {
    const li = document.createElement("li");
    const place = st.drawn ? st.places[s.seat] : story.places[s.seat];
    const out = story.outOrder.includes(s.seat);
    li.dataset.seat = s.seat;
    li.dataset.place = place ? String(place) : "";
    li.className = (out ? "out" : "") + (st.side === s.seat && !st.gameover ? " to-move" : "") +
      (st.gameover && !st.drawn && place === 1 ? " winner" : "");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = SEAT_COLOUR[s.seat];
    const name = document.createElement("span");
    name.className = "seat-name seat-" + s.seat;
    name.textContent = SEAT_NAME[s.seat];
    // At a table (a friend's seat in it) the host's own seat is "you" too.
    const atTable = st.seats.some((x) => x.invited);
    const who = s.engine ? `engine, ${levelName(s.level)}` : standInWords(s)
      || (!mine(s, st) ? personWord(s) : s.invited ? `you, ${personWord(s)}` : atTable ? "you" : personWord(s));
    let state = "";
    if (out) state = ` — out, ${ORDINAL[place]}`;
    else if (st.drawn) state = ` — drawn, shares ${ORDINAL[place]}`;
    else if (st.gameover && place === 1) state = " — wins";
    else if (st.side === s.seat) state = " — to move";
    li.append(sw, name, document.createTextNode(` (${who})${state}`));
    if (st.clock && st.clock.left[s.seat] !== undefined) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.seat = s.seat;
      li.append(" ", clock);
    }
    ul.appendChild(li);
  }
  drawClocks();
}

// ----- the people's clocks -----

// When the state shown came (the clocks' time left is as of then).
let clockSeen = 0;

// A clock's time left as m:ss (h:mm:ss from an hour), rounded up.
function clockText(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

// Whether `seat`'s clock runs now.
function clockRuns(seat) { return !!game && !!game.clock && game.clock.running === seat && !game.gameover; }

// The time left on `seat`'s clock now (ms), counted down here from the
// host's last answer while it runs; null when the seat has no clock.
function clockMs(seat) {
  const c = game && game.clock;
  if (!c || c.left[seat] === undefined) return null;
  return Math.max(0, c.left[seat] - (clockRuns(seat) ? performance.now() - clockSeen : 0));
}

// Each person's clock beside their seat, and the mover's in the header
// beside the board (on a phone the seat list is below the first
// screen): the running one counts down here between the host's answers;
// red under 10 s.
function drawClocks() {
  const mover = game && !game.gameover && clockMs(game.side) !== null ? game.side : null;
  const head = $("status-clock");
  head.classList.toggle("hidden", !mover);
  if (mover) head.dataset.seat = mover;
  const spans = [...document.querySelectorAll("#seat-list .clock")].concat(mover ? [head] : []);
  for (const span of spans) {
    const seat = span.dataset.seat;
    const ms = clockMs(seat);
    span.textContent = clockText(ms);
    span.classList.toggle("running", clockRuns(seat));
    span.classList.toggle("low", ms < 10000);
    span.dataset.ms = String(Math.round(ms));
  }
}

// The end: who won, how (the step that ended it, in words), every place.
function drawBanner(st) {
  const banner = $("banner");
  banner.classList.toggle("hidden", !st.gameover || bannerClosed === st.id);
  banner.dataset.winner = st.winner || "";
  $("notices").classList.remove("at-bottom");
  if (!st.gameover) return;
  let last = null;
  for (const t of story ? story.turns : []) for (const e of t.events) if (e.out.length) last = e;
  if (st.drawn) {
    // The board's draw rules, or the host, ended a game no person was
    // left playing.
    $("banner-title").textContent = "Drawn";
    $("banner-reason").textContent = st.ended_here
      ? "The host ended the game with the places so far: the seats still in share the places left."
      : drawnWords(st.drawn);
    last = null;
  } else {
    $("banner-title").textContent = `${SEAT_NAME[st.winner] || st.winner} wins!`;
    $("banner-reason").textContent = last ? `The end: ${sentence(last, story.places)}`
      : "Only one sorcerer was on the board.";
  }
  // Over the board's bottom when the last kill is in its top half, so
  // that the banner hides no part of the end.
  const at = last && (last.landing || last.to);
  $("notices").classList.toggle("at-bottom", !!at && centre(at)[1] < 504 / 2);
  const places = st.drawn ? st.places : story ? story.places : {};
  const order = Object.entries(places).sort((a, b) => a[1] - b[1]);
  $("banner-places").textContent = order.length > 1
    ? "Places: " + order.map(([s, p]) => `${ORDINAL[p]} ${SEAT_NAME[s]}`).join(" · ") : "";
}

// Why the board's draw rules ended the game (`turn limit 200`,
// `repetition 3`), in words.
function drawnWords(reason) {
  const seats = "the seats still in share the places left";
  if (reason.startsWith("repetition ")) {
    return `With no person left playing, a position came up ${reason.slice(11)} times: ${seats}.`;
  }
  if (reason.startsWith("turn limit ")) {
    return `With no person left playing, the game passed turn ${reason.slice(11)}: ${seats}.`;
  }
  return `Drawn (${reason}): ${seats}.`;
}

// The host ends the game once every person is out: the places so far.
async function endHere() {
  if (!game) return;
  try { render(await api("POST", `/api/games/${game.id}/end`, {})); }
  catch (e) { showError(`End: ${e.message}`, false); }
}

// ----- the move list, browsing earlier positions -----

function drawMoves(st) {
  const ol = $("moves");
  const marks = new Map();
  if (reviewed && reviewed.id === st.id) for (const t of reviewed.turns) if (t.mark) marks.set(t.index, t.mark);
  ol.textContent = "";
  let at = 0;
  st.turns.forEach((t, i) => {
    const li = document.createElement("li");
    li.className = "seat-" + t.seat + (marks.has(i) ? " " + marks.get(i) : "");
    li.textContent = `${t.seat} `;
    // Each step shows the position after it; the turn, after its last.
    for (const step of t.steps) {
      at++;
      const span = document.createElement("span");
      span.className = "step";
      span.textContent = " " + step;
      span.dataset.end = String(at);
      const end = at;
      span.addEventListener("click", (ev) => { ev.stopPropagation(); browseTo(end); });
      if (viewing === at) span.classList.add("viewing");
      li.appendChild(span);
    }
    li.dataset.turn = String(i);
    li.dataset.end = String(at);
    li.title = "show the position after this turn";
    if (viewing === at) li.classList.add("viewing");
    const end = at;
    li.addEventListener("click", () => browseTo(end));
    ol.appendChild(li);
  });
  if (viewing === null) ol.scrollTop = ol.scrollHeight;
}

// Every position of the game, each as the host read it (its board).
async function gamePositions() {
  if (!positions || positions.id !== game.id || positions.count !== game.step_count) {
    const r = await api("GET", `/api/games/${game.id}/positions`);
    positions = { id: game.id, count: r.boards.length - 1, boards: r.boards };
  }
  return positions.boards;
}

// Shows the position after `n` steps without changing the game.
async function browseTo(n, marks) {
  if (!game) return;
  let boards;
  try { boards = await gamePositions(); } catch (e) { showError(`Positions: ${e.message}`, false); return; }
  if (n >= boards.length - 1 && !marks) { toLive(); return; }
  n = Math.max(0, Math.min(n, boards.length - 1));
  viewing = n;
  selected = null;
  hideChooser();
  drawPosition(boards[n]);
  $("board").dataset.viewing = String(n);
  $("browsing").classList.remove("hidden");
  $("browsing-text").textContent = `Viewing the position after step ${n} of ${boards.length - 1}`;
  hint = marks ? { step_count: game.step_count, marks, viewing: n } : null;
  drawMoves(game);
  highlight();
  drawOverlays();
}

// The arrow keys step through the game's positions.
function browseKey(ev) {
  const t = ev.target;
  if (!game || (t && t.closest && t.closest("input, select, textarea"))) return;
  const here = viewing === null ? game.step_count : viewing;
  if (ev.key === "ArrowLeft" && here > 0) browseTo(here - 1);
  else if (ev.key === "ArrowRight" && viewing !== null) browseTo(here + 1);
  else if (ev.key === "Escape" && viewing !== null) toLive();
  else return;
  ev.preventDefault();
}

function toLive() {
  viewing = null;
  delete $("board").dataset.viewing;
  $("browsing").classList.add("hidden");
  if (hint && hint.viewing !== undefined) hint = null;
  if (game && game.board) drawPosition(game.board);
  if (game) { drawMoves(game); highlight(); drawOverlays(); }
}

// ----- arrows: the hint, a review's better turn, threats -----

const HEAD = { arrow: "#1f5fbf", threat: "#d01010", kill: "#118a2a", "arrow-rock": "#5d5d5d",
               "threat-lev": "#d01010", "kill-lev": "#118a2a", "threat-flight": "#d01010",
               "kill-flight": "#118a2a", "arrow-flight": "#1f5fbf", "last-rock": "#5d5d5d",
               "preview-flight": "#b35900" };

// An arrowhead at `to`, pointing away from `from` (centres in px).
function head(layer, [x1, y1], [x2, y2], colour, size = 9) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const ex = x2 - ux * 12, ey = y2 - uy * 12;
  el("polygon", { points: `${x2},${y2} ${ex - uy * size},${ey + ux * size} ${ex + uy * size},${ey - ux * size}`,
                  fill: colour, class: "head" }, layer);
  return [ex, ey];
}

function arrow(layer, from, to, cls, label) {
  const [x1, y1] = centre(from), [x2, y2] = centre(to);
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const g = el("g", { class: "arrow-g", "data-from": from, "data-to": to }, layer);
  const [ex, ey] = head(g, [x1, y1], [x2, y2], HEAD[cls] || "#333");
  el("line", { x1: x1 + ux * 10, y1: y1 + uy * 10, x2: ex, y2: ey, class: cls }, g);
  if (label) {
    const t = el("text", { x: (x1 + x2) / 2 - 4, y: (y1 + y2) / 2 + 5, class: "arrow-label" }, g);
    t.textContent = label;
  }
  return g;
}

// A flight over `squares`, with an arrowhead on its last square.
function path(layer, squares, cls, colour) {
  const g = el("g", { class: "path-g" }, layer);
  const pts = squares.map(centre);
  const line = el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: cls }, g);
  if (colour) line.setAttribute("stroke", colour);
  if (pts.length >= 2) head(g, pts[pts.length - 2], pts[pts.length - 1], colour || HEAD[cls] || "#333", 8);
  return g;
}

function drawHint() {
  layers.arrows.textContent = "";
  if (!hint || !hint.marks) return;
  hint.marks.forEach((m, i) => {
    if (!m.from) return;
    const g = arrow(layers.arrows, m.from, m.to, "arrow", String(i + 1));
    g.dataset.step = m.step;
    if (m.rock) arrow(layers.arrows, m.rock[0], m.rock[1], "arrow-rock");
    if (m.flight.length) path(layers.arrows, [m.to, ...m.flight], "arrow-flight");
  });
}

// The position shown: the one browsed, else the game's, as its board.
function shownBoard() { return viewing !== null && positions ? positions.boards[viewing] : game && game.board; }

// The seat whose threats are shown in the position `p` (a board): the
// person to move, else the first person in the game, else the side to move.
function threatSeat(p) {
  const person = (s) => { const c = seatOf(s); return c && !c.engine; };
  if (person(p.side)) return p.side;
  const first = game.seats.find((s) => !s.engine && p.seats.includes(s.seat));
  return first ? first.seat : p.side;
}

// One killing throw drawn: each levitation of the rock on the way one
// square at a time, the troll's step onto the rock, the flight.
function killMark(k, kind) {
  const g = el("g", { class: `${kind}-mark`, "data-steps": k.steps.join(" "),
                      "data-attacker": k.attacker, "data-victim": k.victim }, layers.threats);
  for (const ev of k.events) {
    if (ev.type === "levitate" && ev.rock) arrow(g, ev.rock[0], ev.rock[1], `${kind}-lev`);
  }
  arrow(g, k.troll, k.rock, kind);
  path(g, [k.rock, ...k.flight], `${kind}-flight`);
}

async function drawThreats() {
  const on = $("threats-toggle").checked;
  const shown = on && game ? shownBoard() : null;
  const spn = shown ? shown.spn : null;
  $("threat-list").classList.toggle("hidden", !spn);
  if (!spn || (game && game.gameover && viewing === null)) {
    layers.threats.textContent = ""; threatsShown = null; $("threat-list").textContent = "";
    return;
  }
  if (threatsShown === spn) return;
  threatsShown = spn;
  const seat = threatSeat(shown);
  let t;
  try { t = await api("GET", `/api/threats?spn=${encodeURIComponent(spn)}&seat=${seat}`); }
  catch (e) { layers.threats.textContent = ""; $("threat-list").textContent = e.message; return; }
  if (threatsShown !== spn) return;
  layers.threats.textContent = "";
  const lines = [];
  for (const k of t.threats) {
    killMark(k, "threat");
    lines.push(`⚠ ${SEAT_NAME[k.attacker]} can kill ${SEAT_NAME[k.victim]}: ${k.steps.join(" ")} — ${turnWords(k.events)}`);
  }
  for (const k of t.kills) {
    killMark(k, "kill");
    lines.push(`✔ ${SEAT_NAME[k.attacker]} can kill ${SEAT_NAME[k.victim]}${t.now ? " now" : " next turn"}: ${k.steps.join(" ")} — ${turnWords(k.events)}`);
  }
  $("threat-list").textContent = lines.length ? lines.join("\n") : `No throw threatens ${SEAT_NAME[t.seat]}, and no kill at hand.`;
  $("threat-list").dataset.threats = String(t.threats.length);
  $("threat-list").dataset.kills = String(t.kills.length);
}

function drawOverlays() {
  if (!layers.arrows) return;
  drawLastMarks();
  drawHint();
  drawThreats();
}

async function askHint() {
  if (!game || hintOff(game)) return;
  if (viewing !== null) toLive();
  hintBusy = true;
  $("hint").disabled = true;
  $("hint").textContent = "Thinking…";
  try {
    const h = await api("POST", `/api/games/${game.id}/hint`, { movetime: config.hint_movetime || 500 });
    hint = h;
    drawHint();
    $("board").dataset.hint = h.steps.join(" ");
    $("hint-text").textContent = `Hint for ${SEAT_NAME[h.seat] || h.seat}: ${h.steps.join(" ")} — ${turnWords(h.marks)}`;
    $("hint-text").classList.remove("hidden");
  } catch (e) { showError(`Hint: ${e.message}`, false); }
  hintBusy = false;
  $("hint").disabled = hintOff(game);
  $("hint").textContent = "Hint";
}

// ----- evaluation: the bar and the graph -----

// The engine's last chances, with the seats out of the game (also those
// killed since the engine last looked) at 0 and the rest rescaled.
function currentWinprob(st) {
  const e = st.evals && st.evals[st.evals.length - 1];
  const w = st.thinking && st.thinking.winprob ? st.thinking.winprob : e ? e.winprob : null;
  if (!w || !st.board) return w;
  const alive = new Set(st.board.seats);
  let sum = 0;
  for (const s of Object.keys(w)) if (alive.has(s)) sum += w[s];
  const out = {};
  for (const s of Object.keys(w)) out[s] = alive.has(s) && sum > 0 ? w[s] / sum : 0;
  return out;
}

// Whose view the bar shows, when it is an engine's at a limited level:
// that engine sees less than full strength, and the bar says so.
function viewCaption(st) {
  const e = st.evals && st.evals[st.evals.length - 1];
  const seat = st.thinking && st.thinking.winprob ? st.thinking.seat : e ? e.seat : null;
  const s = seat && seatOf(seat);
  if (!s || !s.engine || !s.level) return "";
  return `${SEAT_NAME[seat]}'s view, an engine at ${levelName(s.level)} (not full strength)`;
}

function drawEvalBar(st) {
  const bar = $("evalbar");
  const w = currentWinprob(st);
  const caption = w ? viewCaption(st) : "";
  $("evalbar-view").textContent = caption;
  $("evalbar-view").classList.toggle("hidden", !caption);
  bar.textContent = "";
  bar.classList.toggle("hidden", !w);
  if (!w) return;
  for (const s of "rygb") {
    if (w[s] === undefined || w[s] <= 0) continue;
    const span = document.createElement("span");
    const pct = `${(w[s] * 100).toFixed(0)}%`;
    span.style.width = `${(w[s] * 100).toFixed(1)}%`;
    span.style.background = SEAT_COLOUR[s];
    span.dataset.seat = s;
    span.dataset.p = String(w[s]);
    span.title = `${SEAT_NAME[s]}: ${pct} to win`;
    span.textContent = w[s] >= 0.07 ? `${SEAT_NAME[s]} ${pct}` : "";
    bar.appendChild(span);
  }
}

function drawGraph(st) {
  const svg = $("graph");
  svg.textContent = "";
  const W = 400, H = 120;
  for (const p of [0, 0.5, 1]) el("line", { x1: 0, x2: W, y1: 5 + (1 - p) * (H - 10), y2: 5 + (1 - p) * (H - 10), class: "axis" }, svg);
  // The review's view of every turn when there is one, else the engine's
  // at each of its turns.
  let pts = (st.evals || []).slice();
  if (reviewed && reviewed.id === st.id && reviewed.turns.length) {
    pts = reviewed.turns.map((t) => ({ step: t.first_step, winprob: t.winprob }));
    const t = reviewed.turns[reviewed.turns.length - 1];
    pts.push({ step: t.first_step + t.steps.length, winprob: t.winprob_after });
  }
  const last = Math.max(1, st.step_count);
  const seats = st.seats.map((s) => s.seat);
  svg.dataset.points = String(pts.length);
  if (!pts.length) return;
  for (const s of seats) {
    const xy = pts.filter((e) => e.winprob[s] !== undefined)
      .map((e) => `${(e.step / last * W).toFixed(1)},${(5 + (1 - e.winprob[s]) * (H - 10)).toFixed(1)}`);
    if (xy.length === 1) xy.push(xy[0].replace(/^[^,]*/, String(W)));
    el("polyline", { points: xy.join(" "), stroke: SEAT_COLOUR[s], "data-seat": s }, svg);
  }
}


// ----- review -----

async function reviewGame() {
  if (!game) return;
  const n = game.turns.length;
  $("review").disabled = true;
  $("review-status").textContent = `Reviewing ${n} turn${n === 1 ? "" : "s"}…`;
  try {
    const r = await api("POST", `/api/games/${game.id}/review`, { movetime: config.review.movetime });
    reviewed = { id: game.id, count: game.step_count, turns: r.turns };
    $("review-status").textContent = "";
  } catch (e) { $("review-status").textContent = `Review: ${e.message}`; }
  $("review").disabled = false;
  showReview();
  if (game) { drawMoves(game); drawGraph(game); }
}

// Each reviewed turn: its steps, the mover's expected score before and
// after (1 a win, 0 last place), its mark, and in words what was played
// and what the engine would have played.
function showReview() {
  const box = $("review-list");
  box.textContent = "";
  if (!reviewed || !game || reviewed.id !== game.id) return;
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  for (const t of reviewed.turns) {
    const d = document.createElement("div");
    d.className = "review-turn seat-" + t.seat + (t.mark ? " " + t.mark : "");
    d.dataset.turn = String(t.index);
    d.dataset.mark = t.mark || "";
    const drop = t.drop > 0.005 ? ` −${pct(t.drop)}` : "";
    let text = `${t.index + 1}. ${SEAT_NAME[t.seat]} ${t.steps.join(" ")}  ${pct(t.before)}→${pct(t.after)}${drop}`;
    if (t.mark) text += `  ${t.mark}; better: ${t.best.join(" ")}`;
    d.append(text);
    const told = story && story.turns[t.index];
    if (told) {
      const words = document.createElement("div");
      words.className = "words";
      words.textContent = turnWords(told.events) +
        (t.mark && t.best.length ? ` — better: ${turnWords(t.best_marks)}` : "");
      d.appendChild(words);
    }
    d.title = "the mover's expected score before → after the turn (100% a win, 0% last place); " +
      "click: the position before this turn, with the engine's turn";
    d.addEventListener("click", () => browseTo(t.first_step, t.best_marks));
    box.appendChild(d);
  }
}

// ----- loading a record -----

async function loadRecord(file) {
  let text;
  try { text = await file.text(); } catch (e) { showError(`Cannot read the file: ${e.message}`, false); return; }
  await startNew({ record: text });
}

// Starts the game `body` asks for, replacing the one in play: that game's
// poll is ended first, so that its request is not left to fail when the
// host closes the game; if the host refuses, that game is followed again.
async function startNew(body) {
  if (game) { body.replace = game.id; stopPolling(); }
  return follow(api("POST", "/api/games", body));
}

// ----- the game kept over a reload -----

// The game in play is kept in the browser (its start, steps, seats with
// the people's clocks, and pace), so that a reload, or a phone that
// dropped the tab, finds it again: natively the server still plays it and
// the page attaches to it; on the static board (or after the server
// restarted without its store) it is started again from its steps, each
// clock with the time it had left.
const KEPT = "splut.game";

function keepGame(st) {
  const kept = {
    id: st.id, start: st.start, pace: st.pace, role: st.you ? st.you.role : "host",
    steps: st.turns.flatMap((t) => t.steps),
    seats: st.seats.map(keptSeat), ended: !!st.ended_here,
  };
  try { localStorage.setItem(KEPT, JSON.stringify(kept)); } catch (e) { /* private mode: not kept */ }
}

// A seat as a new game takes it up again; a person's clock with its time
// left as the page counts it now (`game` is the state shown).
function keptSeat(s) {
  const k = { engine: s.engine, algorithm: s.algorithm, movetime: s.movetime, level: s.level };
  const ms = s.clock && !s.engine && game ? clockMs(s.seat) : null;
  if (ms !== null) k.clock = { ...s.clock, left: Math.round(ms) };
  return k;
}

function keptGame() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "null"); } catch (e) { return null; }
}

// The kept game's state: the host's own if it still plays that game (the
// same start, the kept steps played in it), else the game started again
// from its steps; null when none is kept or it cannot be.
async function keptState() {
  const k = keptGame();
  if (!k || typeof k.start !== "string" || !Array.isArray(k.steps)) return null;
  try {
    const st = await api("GET", `/api/games/${Number(k.id)}`);
    const steps = st.turns.flatMap((t) => t.steps);
    if (st.start === k.start && k.steps.every((x, i) => steps[i] === x)) return st;
  } catch (e) { /* not there: started again below */ }
  // A guest's or a spectator's game is the host's to start again.
  if (k.role && k.role !== "host") return null;
  try {
    return await api("POST", "/api/games", { spn: k.start, moves: k.steps.join(" "), seats: k.seats, pace: k.pace, ended: !!k.ended });
  } catch (e) {
    try { localStorage.removeItem(KEPT); } catch (e2) { /* nothing kept */ }
    return null;
  }
}

// Takes up the kept game, if any; whether it did.
async function resumeGame() {
  const st = await keptState();
  if (!st) return false;
  game = null;
  render(st);
  pollToken++;
  poll(pollToken);
  return true;
}

// The poll's request under way, aborted when the poll is no longer wanted.
let pollAbort = null;

function stopPolling() {
  pollToken++;
  if (pollAbort) pollAbort.abort();
  pollAbort = null;
}

async function poll(token) {
  const ctl = new AbortController();
  pollAbort = ctl;
  while (token === pollToken && game) {
    try {
      const st = await api("GET", `/api/games/${game.id}?since=${game.version}`, undefined, ctl.signal);
      if (token !== pollToken) return;
      render(st);
      // Closed by its host: nothing more will come.
      if (st.closed) { gameGone(); return; }
    } catch (e) {
      if (token !== pollToken) return;
      // Closed or abandoned on the server: said, and no more asked.
      if (e.message.startsWith("no such game")) { gameGone(); return; }
      // The server out of reach (restarting, the network): asked again
      // each second; the next state clears the notice.
      showError("Reconnecting to the server…", false, true);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}


// ----- the new-game form -----

// The form's start as the host read it (GET /api/preview): the query
// asked, and its answer ({spn, seats, side, board}) or why it was refused.
let formStart = null;

// The form's start as the preview's query: the SPN typed, else the
// player count.
function formQuery() {
  const spn = $("start-spn").value.trim();
  return spn ? `spn=${encodeURIComponent(spn)}` : `players=${$("players").value}`;
}

// The seats of the form's start, as the host says: a player count's from
// its config at once, a typed SPN's from its preview of it (none while
// that is not read, or refused).
function seatLetters() {
  if (formStart && formStart.query === formQuery() && formStart.start) return formStart.start.seats;
  const byPlayers = config && config.seats_by_players;
  if (!$("start-spn").value.trim() && byPlayers) return byPlayers[$("players").value] || null;
  return null;
}

// Each seat's choice of person or engine, kept while "Engines only" shows
// every seat as the engine and while the seats are drawn again.
const chosenKind = {};

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text; select.appendChild(o);
}

// The column heads of a seat grid; each control is named by its seat and
// column (aria-labelledby).
function gridHeads(box, cols) {
  box.style.gridTemplateColumns = cols.map(() => "auto").join(" ");
  for (const [id, text] of cols) {
    const h = document.createElement("span");
    h.id = id; h.className = "seat-head"; h.textContent = text;
    box.appendChild(h);
  }
}

// The seats: person or engine for each (always shown), and in the
// "Advanced" fold each engine's algorithm, time per turn and own level.
let drawnLetters = null;  // the seats the form shows
function drawSeatForm() {
  const box = $("seats"), adv = $("seats-advanced");
  const letters = seatLetters() || [];
  drawnLetters = letters.join("");
  const old = {};
  for (const s of "rygb") {
    if ($(`algo-${s}`)) old[s] = { algo: $(`algo-${s}`).value, ms: $(`ms-${s}`).value };
  }
  const enginesOnly = $("engines-only").checked;
  box.textContent = "";
  adv.textContent = "";
  const choices = levelChoices();
  if (letters.length) {
    gridHeads(box, [["col-seat", "Seat"], ["col-kind", "Person/Engine"]]);
    const cols = [["col-seat-adv", "Seat"], ["col-algo", "Algorithm"], ["col-ms", "ms per turn"]];
    if (choices.length > 1) cols.push(["col-level", "Level"]);
    gridHeads(adv, cols);
  }
  letters.forEach((s, i) => {
    const name = (id) => {
      const n = document.createElement("span");
      n.textContent = SEAT_NAME[s]; n.className = "seat-" + s; n.id = id;
      return n;
    };
    const named = (e, col, seatId) => e.setAttribute("aria-labelledby", `${seatId} ${col}`);
    const kind = document.createElement("select");
    kind.id = `kind-${s}`;
    kind.dataset.seat = s;
    named(kind, "col-kind", `seat-${s}`);
    option(kind, "person", "person");
    option(kind, "engine", "engine");
    // A friend on their own device: a server's tables only.
    if (!window.splutBackend) option(kind, "invite", "friend (link)");
    if (!chosenKind[s]) chosenKind[s] = i === 0 ? "person" : "engine";
    kind.value = enginesOnly ? "engine" : chosenKind[s];
    kind.disabled = enginesOnly;
    kind.addEventListener("change", () => { chosenKind[s] = kind.value; showTakeover(); });
    box.append(name(`seat-${s}`), kind);
    showTakeover();
    const algo = document.createElement("select");
    algo.id = `algo-${s}`;
    named(algo, "col-algo", `seat-adv-${s}`);
    for (const a of (config && config.algorithms.length ? config.algorithms : ["auto"])) option(algo, a, a);
    if (old[s] && [...algo.options].some((o) => o.value === old[s].algo)) algo.value = old[s].algo;
    const ms = document.createElement("input");
    ms.type = "number"; ms.id = `ms-${s}`; ms.value = old[s] ? old[s].ms : "1000";
    ms.min = "10"; ms.max = "600000";
    ms.title = "the engine's time per turn, in milliseconds";
    named(ms, "col-ms", `seat-adv-${s}`);
    adv.append(name(`seat-adv-${s}`), algo, ms);
    if (choices.length > 1) {
      const level = document.createElement("select");
      level.id = `level-${s}`;
      named(level, "col-level", `seat-adv-${s}`);
      for (const [v, t] of choices) option(level, v, t);
      const kept = rememberedLevel(s);
      if (choices.some((c) => c[0] === kept)) level.value = kept;
      level.addEventListener("change", () => { rememberLevel(s, level.value); syncLevel(); noteLevelForNext(); });
      adv.append(level);
    }
  });
  syncLevel();
}

// The levels the engine offers, on one scale: [value, label], weakest
// first, full strength last; named for people by the host
// (splut_board::session::config, the same on both hosts).
function levelChoices() {
  return (config && config.level_choices && config.level_choices.length) ? config.level_choices : [["full", "Full strength"]];
}

// A seat's level as the seat list shows it.
function levelName(level) {
  if (!level) return "full strength";
  const value = level.elo !== undefined ? `elo:${level.elo}` : `skill:${level.skill}`;
  const c = levelChoices().find((x) => x[0] === value);
  return c ? c[1] : level.elo !== undefined ? `Elo ${level.elo}` : `skill ${level.skill}`;
}

// Each seat's level is remembered between games (and page loads).
function rememberedLevel(s) {
  // A first visit gets the host's beatable named level, not full strength.
  const first = (config && config.level_default) || "full";
  try { return localStorage.getItem(`splut.level.${s}`) || first; } catch (e) { return first; }
}
function rememberLevel(s, v) {
  try { localStorage.setItem(`splut.level.${s}`, v); } catch (e) { /* private mode: not kept */ }
}

// One choice sets every engine seat's level; it shows "mixed" when the
// seats' own levels (advanced) differ.
// A level chosen while a game runs is for the next one: said beside it.
function noteLevelForNext() {
  $("level-next").classList.toggle("hidden", !game || !!game.gameover);
}

function drawLevelChoice() {
  const sel = $("level");
  sel.textContent = "";
  const choices = levelChoices();
  $("level-row").classList.toggle("hidden", choices.length < 2);
  for (const [v, t] of choices) option(sel, v, t);
  option(sel, "mixed", "(each seat its own, see Advanced)");
}
function syncLevel() {
  const vals = new Set([...document.querySelectorAll("#seats-advanced select[id^=level-]")].map((e) => e.value));
  $("level").value = vals.size === 1 ? [...vals][0] : "mixed";
}
function setAllLevels() {
  const v = $("level").value;
  if (v === "mixed") return;
  for (const e of document.querySelectorAll("#seats-advanced select[id^=level-]")) {
    e.value = v;
    rememberLevel(e.id.slice(-1), v);
  }
}

function levelOf(s) {
  const e = $(`level-${s}`);
  if (!e || e.value === "full") return undefined;
  const [kind, v] = e.value.split(":");
  return { [kind]: Number(v) };
}

// "Engines only": every seat shows as the engine and cannot be a person.
function setEnginesOnly() {
  const on = $("engines-only").checked;
  for (const kind of $("seats").querySelectorAll("select[data-seat]")) {
    kind.value = on ? "engine" : chosenKind[kind.dataset.seat];
    kind.disabled = on;
  }
  showTakeover();
}

// The host reads the form's start (GET /api/preview) when the form
// changes, and once typing pauses: its seats for the form, its refusal
// under the SPN, and before the first game its board drawn.
let previewToken = 0;
async function readForm() {
  const token = ++previewToken;
  const query = formQuery();
  const typed = !!$("start-spn").value.trim();
  let p = null, err = null;
  try { p = await api("GET", `/api/preview?${query}`); } catch (e) { err = e.message; }
  if (token !== previewToken) return;
  formStart = { query, start: p, error: err };
  $("spn-hint").textContent = err && typed ? `Not a starting position yet: ${err}` : "";
  // The seats drawn again only when a start read has others: the
  // controls being set stay, and a start refused (an SPN half typed)
  // moves nothing on the page.
  const letters = seatLetters();
  if (letters && letters.join("") !== drawnLetters) drawSeatForm();
  if (game || (p && p.spn === drawnSpn)) return;
  buildBoard();
  if (!p) return;
  drawPosition(p.board);
  $("board").dataset.preview = "1";
}

// The form's start as it reads now: asked again if it changed since.
async function formNow() {
  clearTimeout(spnTimer);
  if (!formStart || formStart.query !== formQuery()) await readForm();
  return formStart && formStart.query === formQuery() ? formStart : null;
}

function formChanged() {
  // A player count's seats at once; a typed SPN's once the host read it.
  if (!$("start-spn").value.trim()) drawSeatForm();
  return readForm();
}

let spnTimer = null;
function spnTyped() {
  clearTimeout(spnTimer);
  spnTimer = setTimeout(formChanged, 350);
}

// Start: a running game is only replaced once the person says so.
async function newGame(confirmed) {
  if (game && !game.gameover && !game.closed && !confirmed) {
    // A guest's or a spectator's new game leaves the host's table playing.
    const role = roleIn(game);
    $("replace-text").textContent = role === "host" ? "A game is running. Replace it with a new one?"
      : role === "seat" ? "Leave this table and start your own game? The table plays on, the engine in your seat."
      : "Stop watching this table and start your own game?";
    $("confirm-replace").textContent = role === "host" ? "Replace it" : "Leave and start";
    $("replace-confirm").classList.remove("hidden");
    $("confirm-replace").focus();
    return;
  }
  $("replace-confirm").classList.add("hidden");
  const allEngines = $("engines-only").checked;
  const start = await formNow();
  const letters = seatLetters();
  if (!letters) { showError(start && start.error ? start.error : "The start is not read yet: try again", false); return; }
  const seats = letters.map((s) => ({
    engine: allEngines || $(`kind-${s}`).value === "engine",
    invite: !allEngines && $(`kind-${s}`).value === "invite",
    algorithm: $(`algo-${s}`).value,
    movetime: Number($(`ms-${s}`).value) || 1000,
    level: levelOf(s),
  }));
  const invites = seats.some((s) => s.invite);
  const spn = $("start-spn").value.trim();
  const body = spn ? { spn, seats } : { players: Number($("players").value), seats };
  body.pace = $("pace").value;
  if (invites) body.takeover = Number($("takeover").value) || 60;
  if (invites && $("lobby-listed").checked) body.lobby = true;
  if ($("clock-on").checked && !$("clock-row").classList.contains("hidden")) {
    body.clock = { base: Math.round(Number($("clock-min").value) * 60), increment: Number($("clock-inc").value) || 0 };
  }
  if (await startNew(body)) $("spn-hint").textContent = "";
}

async function setPace() {
  if (!game) return;
  try { render(await api("POST", `/api/games/${game.id}/pace`, { pace: $("pace").value })); }
  catch (e) { showError(`Pace: ${e.message}`, false); }
}

async function nextStep() {
  if (!game) return;
  try { render(await api("POST", `/api/games/${game.id}/next`)); }
  catch (e) { showError(`Next step: ${e.message}`, false); }
}

function showHelp(open) {
  $("help").classList.toggle("hidden", !open);
  if (open) $("help-close").focus();
}

function wire() {
  $("players").addEventListener("change", formChanged);
  $("start-spn").addEventListener("input", spnTyped);
  // "change" too: a field cleared by a script or a form tool fires no "input".
  $("start-spn").addEventListener("change", () => { clearTimeout(spnTimer); formChanged(); });
  $("engines-only").addEventListener("change", setEnginesOnly);
  $("level").addEventListener("change", () => { setAllLevels(); noteLevelForNext(); });
  $("newgame-form").addEventListener("submit", (ev) => { ev.preventDefault(); newGame(false); });
  $("confirm-replace").addEventListener("click", () => newGame(true));
  $("cancel-replace").addEventListener("click", () => $("replace-confirm").classList.add("hidden"));
  $("pass").addEventListener("click", () => playStep("pass"));
  $("join").addEventListener("submit", takeSeat);
  $("leave").addEventListener("click", leaveSeat);
  $("pace").addEventListener("change", setPace);
  $("clock-on").addEventListener("change", () => $("clock-times").classList.toggle("hidden", !$("clock-on").checked));
  setInterval(drawClocks, 250);
  $("next-step").addEventListener("click", nextStep);
  $("finish-fast").addEventListener("click", () => { $("pace").value = "none"; setPace(); });
  $("end-here").addEventListener("click", endHere);
  $("help-open").addEventListener("click", () => showHelp(true));
  window.addEventListener("hashchange", addressChanged);
  // A reload or a closed tab keeps the running clock as it stands.
  window.addEventListener("pagehide", () => { if (game) keepGame(game); });
  $("lobby-refresh").addEventListener("click", () => drawLobby());
  $("history-more").addEventListener("click", () => drawHistory(true));
  $("help-close").addEventListener("click", () => showHelp(false));
  $("banner-close").addEventListener("click", () => { bannerClosed = game && game.id; $("banner").classList.add("hidden"); });
  $("takeback").addEventListener("click", async () => {
    if (!game) return;
    if (viewing !== null) toLive();
    try { render(await api("POST", `/api/games/${game.id}/takeback`)); }
    catch (e) { showError(`Take back: ${e.message}`, false); }
  });
  $("restart").addEventListener("click", async () => {
    try { render(await api("POST", `/api/games/${game.id}/restart`)); }
    catch (e) { showError(`Restart failed: ${e.message}`, true); }
  });
  $("hint").addEventListener("click", askHint);
  $("threats-toggle").addEventListener("change", () => { threatsShown = null; drawThreats(); });
  $("live").addEventListener("click", toLive);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !$("help").classList.contains("hidden")) { showHelp(false); return; }
    browseKey(ev);
  });
  $("review").addEventListener("click", reviewGame);
  $("record-file").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    ev.target.value = "";  // the same file chosen again loads again
    if (f) loadRecord(f);
  });
  $("copy-spn").addEventListener("click", () => copyText($("spn-text")));
}

// The text of `input` to the clipboard (selected and copied where the
// clipboard is refused); `button`, if given, says it was copied.
async function copyText(input, button) {
  try { await navigator.clipboard.writeText(input.value); }
  catch (e) { input.select(); document.execCommand("copy"); }
  if (!button) return;
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 1500);
}

// Without a server (the static board of scripts/web) the record is made
// in the page: a file from it when the link is clicked.
function wireLocalRecord() {
  if (!window.splutBackend) return;
  $("download").addEventListener("click", async (ev) => {
    ev.preventDefault();
    if (!game) return;
    try {
      const text = await api("GET", `/api/games/${game.id}/record`);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      a.download = "splut-game.txt";
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) { showError(e.message, false); }
  });
}

async function main() {
  buildBoard();
  readForm();  // beside the config request, not after it
  wire();
  try {
    config = await api("GET", "/api/config");
    if (config.engine_error) showError(`The engine could not start: ${config.engine_error}`, false);
  } catch (e) { showError(`No server: ${e.message}`, false); }
  wireLocalRecord();
  $("tables-nav").classList.toggle("hidden", !!window.splutBackend);
  showView();
  drawLevelChoice();
  drawSeatForm();
  if (!(await joinFromLink()) && !(await resumeGame())) $("status-text").textContent = "Start a game";
  window.splut.ready = performance.now();
  document.body.dataset.ready = "1";
}

main();
