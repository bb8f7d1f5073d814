// splut gui: the page. It draws what the server says (the engine's SPN and
// its `query legal` list) and never decides legality itself: it only
// parses step text to know which squares a step touches.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 56, OX = 30, OY = 8;
const FILES = "abcdefghi";
const SEAT_COLOUR = { r: "#c62828", y: "#d4a017", g: "#2e7d32", b: "#1565c0" };
const SEAT_NAME = { r: "Red", y: "Yellow", g: "Green", b: "Blue" };
const KIND_NAME = { S: "sorcerer", D: "dwarf", T: "troll" };
const DIR_NAME = { n: "north", e: "east", s: "south", w: "west" };

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
let positions = null;    // {id, count, spns}: every position of the game
let hint = null;         // the last hint: {step_count, steps, marks}
let reviewed = null;     // the last review: {id, count, turns}
let threatsShown = null; // the SPN whose threats are drawn
let pieceEls = new Map(); // "rS" -> piece <g>

const $ = (id) => document.getElementById(id);

function centre(sq) {
  const f = FILES.indexOf(sq[0]), r = Number(sq[1]) - 1;
  return [OX + f * CELL + CELL / 2, OY + (8 - r) * CELL + CELL / 2];
}

function onBoard(f, r) { return Math.abs(f - 4) + Math.abs(r - 4) <= 4; }

function allSquares() {
  const out = [];
  for (let r = 8; r >= 0; r--) for (let f = 0; f < 9; f++) if (onBoard(f, r)) out.push(FILES[f] + (r + 1));
  return out;
}

// SPN → { board: {square: "R"|"rS"…}, side, steps, turn, lev, cooling[], moved[] }
function parseSpn(spn) {
  const fields = spn.trim().split(" ");
  if (fields.length !== 7) return null;
  const ranks = fields[0].split("/");
  if (ranks.length !== 9) return null;
  const board = {};
  for (let i = 0; i < 9; i++) {
    const r = 8 - i, lo = Math.abs(r - 4), width = 9 - 2 * lo;
    let f = lo, s = ranks[i];
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (c >= "1" && c <= "9") { f += Number(c); continue; }
      const sq = FILES[f] + (r + 1);
      if (c === "R") { board[sq] = "R"; f++; continue; }
      board[sq] = c + s[k + 1]; k++; f++;
    }
    if (f !== lo + width) return null;
  }
  const list = (x) => (x === "-" ? [] : x.split(","));
  return { board, side: fields[1], steps: Number(fields[2]), turn: Number(fields[3]),
           lev: fields[4], cooling: list(fields[5]), moved: list(fields[6]) };
}

// Step text → {from, to, pull, throwDir, lev} (null for pass).
function parseStep(t) {
  const m = /^([a-i][1-9])([a-i][1-9])(?:\^([a-i][1-9])|\*([nesw])|@([a-i][1-9]))?$/.exec(t);
  if (!m) return null;
  return { text: t, from: m[1], to: m[2], pull: m[3] || null, throwDir: m[4] || null, lev: m[5] || null };
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
  layers.marks = el("g", {}, svg);
  layers.rocks = el("g", {}, svg);
  layers.pieces = el("g", {}, svg);
  layers.threats = el("g", { id: "threat-marks" }, svg);
  layers.arrows = el("g", { id: "arrows" }, svg);
  layers.hits = el("g", {}, svg);
  for (const sq of allSquares()) {
    const [x, y] = centre(sq);
    const f = FILES.indexOf(sq[0]), r = Number(sq[1]);
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                 class: "sq" + ((f + r) % 2 ? " dark" : "") }, layers.squares);
    const hit = el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                             class: "hit", "data-square": sq, "data-content": "" }, layers.hits);
    hit.addEventListener("click", () => clickSquare(sq));
  }
  for (let f = 0; f < 9; f++) {
    const t = el("text", { x: OX + f * CELL + CELL / 2 - 4, y: OY + 9 * CELL + 16, class: "coord" }, svg);
    t.textContent = FILES[f];
  }
  for (let r = 0; r < 9; r++) {
    const t = el("text", { x: 10, y: OY + (8 - r) * CELL + CELL / 2 + 5, class: "coord" }, svg);
    t.textContent = String(r + 1);
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

// Draws the position, moving the pieces that moved (CSS transitions).
function drawPosition(spn) {
  const p = parseSpn(spn);
  if (!p) return;
  const svg = $("board");
  // Team pieces are unique: key them by seat and kind.
  const seen = new Set();
  for (const [sq, c] of Object.entries(p.board)) {
    if (c === "R") continue;
    seen.add(c);
    let g = pieceEls.get(c);
    if (!g) { g = makePiece(c); pieceEls.set(c, g); place(g, sq); layers.pieces.appendChild(g); }
    else if (g.dataset.at !== sq) place(g, sq);
  }
  for (const [c, g] of pieceEls) if (!seen.has(c)) { g.remove(); pieceEls.delete(c); }
  // Rocks are alike: those still on their square stay, the others are
  // matched to the new rock squares nearest them, so a moved rock slides.
  const newRocks = Object.keys(p.board).filter((s) => p.board[s] === "R");
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
  if (/^[a-i][1-9]$/.test(p.lev)) ring(p.lev, "rock-levitated", 27, "levitated this turn");
  // Each square says what is on it, for tests and for the curious.
  for (const hit of layers.hits.children) {
    const sq = hit.dataset.square;
    hit.dataset.content = p.board[sq] || "";
    hit.dataset.cooling = p.cooling.includes(sq) ? "1" : "";
    hit.dataset.moved = p.moved.includes(sq) ? "1" : "";
    hit.dataset.levitated = p.lev === sq ? "1" : "";
  }
  svg.dataset.spn = spn;
  drawnSpn = spn;
}

function seatOf(letter) { return game && game.seats.find((s) => s.seat === letter); }

function personToMove() {
  if (!game || viewing !== null || game.gameover || game.error || game.thinking || !game.side) return false;
  const s = seatOf(game.side);
  return !!s && !s.engine;
}

function legalSteps() { return personToMove() ? game.legal.map(parseStep).filter(Boolean) : []; }

function highlight() {
  const steps = legalSteps();
  const froms = new Set(steps.map((s) => s.from));
  const targets = new Set(steps.filter((s) => s.from === selected).map((s) => s.to));
  for (const hit of layers.hits.children) {
    const sq = hit.dataset.square;
    hit.classList.toggle("from", froms.has(sq) && selected === null);
    hit.classList.toggle("selected", sq === selected);
    hit.classList.toggle("target", targets.has(sq));
  }
}

function hideChooser() { $("chooser").classList.add("hidden"); $("chooser-buttons").textContent = ""; }

function describe(s, plainSteps) {
  if (s.pull) return `pull the rock from ${s.pull}`;
  if (s.throwDir) return `throw ${DIR_NAME[s.throwDir]}`;
  if (s.lev) return `levitate the rock on ${s.lev}`;
  return plainSteps ? "just step" : s.text;
}

function clickSquare(sq) {
  if (!personToMove()) return;
  const steps = legalSteps();
  if (selected) {
    const cands = steps.filter((s) => s.from === selected && s.to === sq);
    if (cands.length === 1) { hideChooser(); playStep(cands[0].text); return; }
    if (cands.length > 1) {
      // Ambiguous: pull or not, throw direction, levitate or not / which rock.
      $("chooser-title").textContent = `${selected}→${sq}: `;
      const box = $("chooser-buttons");
      box.textContent = "";
      for (const c of cands) {
        const b = document.createElement("button");
        b.textContent = describe(c, true);
        b.dataset.step = c.text;
        b.addEventListener("click", () => { hideChooser(); playStep(c.text); });
        box.appendChild(b);
      }
      const cancel = document.createElement("button");
      cancel.textContent = "cancel";
      cancel.addEventListener("click", () => { hideChooser(); selected = null; highlight(); });
      box.appendChild(cancel);
      $("chooser").classList.remove("hidden");
      return;
    }
  }
  hideChooser();
  selected = steps.some((s) => s.from === sq) && selected !== sq ? sq : null;
  highlight();
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

function showError(msg, restart) {
  $("error-text").textContent = msg;
  $("error").classList.toggle("hidden", !msg);
  $("restart").classList.toggle("hidden", !restart);
}

async function playStep(text) {
  selected = null;
  window.splut.stepPosted = performance.now();
  try { render(await api("POST", `/api/games/${game.id}/step`, { step: text })); }
  catch (e) { showError(`Step refused: ${e.message}`, false); highlight(); }
}

function render(st) {
  if (!st || (game && st.id === game.id && st.version < game.version)) return;
  const firstDraw = !game || game.id !== st.id;
  if (firstDraw) { buildBoard(); window.splut.log = []; lastThought = null; }
  game = st;
  if (firstDraw) {
    viewing = null; positions = null; hint = null; reviewed = null;
    $("browsing").classList.add("hidden");
    showReview();
  }
  if (viewing === null && st.spn && st.spn !== drawnSpn) drawPosition(st.spn);
  window.splut.log.push({ t: performance.now(), version: st.version, steps: st.step_count,
                          side: st.side, thinking: !!st.thinking, spn: st.spn,
                          think: st.thinking ? `${st.step_count}${st.thinking.seat}` : null });
  if (window.splut.log.length > 2000) window.splut.log.shift();
  // Status line.
  const status = $("status");
  if (st.gameover) status.textContent = `Game over`;
  else if (st.side) {
    const who = seatOf(st.side);
    status.textContent = `${SEAT_NAME[st.side]} to move (${who && who.engine ? "engine" : "you"}), ` +
      `${st.steps_left} step${st.steps_left === 1 ? "" : "s"} left, turn ${st.turn}`;
  }
  status.className = "status seat-" + (st.side || "");
  $("board").dataset.side = st.side || "";
  $("board").dataset.stepsLeft = st.steps_left == null ? "" : String(st.steps_left);
  $("board").dataset.version = String(st.version);
  $("board").dataset.gameId = String(st.id);
  // Banner.
  const banner = $("banner");
  banner.classList.toggle("hidden", !st.gameover);
  banner.dataset.winner = st.winner || "";
  if (st.gameover) banner.textContent = `${SEAT_NAME[st.winner] || st.winner} wins!`;
  // Errors.
  if (st.error) showError(st.error, !st.engine_running);
  else if (!$("error-text").textContent.startsWith("Step refused")) showError("", false);
  // Thinking.
  const th = st.thinking;
  const infoText = (i) => (i && i.depth != null
    ? `depth ${i.depth}  score ${i.score || "?"}  nodes ${i.nodes ?? "?"}  time ${i.time ?? "?"} ms\npv ${(i.pv || []).join(" ")}` : "");
  if (th) {
    lastThought = th;
    $("thinking").textContent = `${SEAT_NAME[th.seat]} thinking…\n` + infoText(th.info);
  } else if (lastThought && lastThought.info) {
    $("thinking").textContent = `${SEAT_NAME[lastThought.seat]} thought:\n` + infoText(lastThought.info);
  } else $("thinking").textContent = "";
  // Moves.
  drawMoves(st);
  drawEvalBar(st);
  drawGraph(st);
  if (hint && hint.step_count !== st.step_count) { hint = null; }
  drawOverlays();
  $("spn-text").value = st.spn || "";
  $("download").href = `/api/games/${st.id}/record`;
  $("pass").classList.toggle("hidden", !(personToMove() && st.legal.includes("pass")));
  if (!personToMove()) { selected = null; hideChooser(); }
  highlight();
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

async function gamePositions() {
  if (!positions || positions.id !== game.id || positions.count !== game.step_count) {
    const r = await api("GET", `/api/games/${game.id}/positions`);
    positions = { id: game.id, count: r.spns.length - 1, spns: r.spns };
  }
  return positions.spns;
}

// Shows the position after `n` steps without changing the game.
async function browseTo(n, marks) {
  if (!game) return;
  let spns;
  try { spns = await gamePositions(); } catch (e) { showError(`Positions: ${e.message}`, false); return; }
  if (n >= spns.length - 1 && !marks) { toLive(); return; }
  n = Math.max(0, Math.min(n, spns.length - 1));
  viewing = n;
  selected = null;
  hideChooser();
  drawPosition(spns[n]);
  $("board").dataset.viewing = String(n);
  $("browsing").classList.remove("hidden");
  $("browsing-text").textContent = `Viewing the position after step ${n} of ${spns.length - 1}`;
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
  if (game && game.spn) drawPosition(game.spn);
  if (game) { drawMoves(game); highlight(); drawOverlays(); }
}

// ----- arrows: the hint, a review's better turn, threats -----

const HEAD = { arrow: "#1f5fbf", threat: "#d01010", kill: "#118a2a", "arrow-rock": "#5d5d5d",
               "threat-lev": "#d01010", "kill-lev": "#118a2a" };

function arrow(layer, from, to, cls, label) {
  const [x1, y1] = centre(from), [x2, y2] = centre(to);
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const ex = x2 - ux * 12, ey = y2 - uy * 12;
  const g = el("g", { class: "arrow-g", "data-from": from, "data-to": to }, layer);
  el("line", { x1: x1 + ux * 10, y1: y1 + uy * 10, x2: ex, y2: ey, class: cls }, g);
  el("polygon", { points: `${x2},${y2} ${ex - uy * 9},${ey + ux * 9} ${ex + uy * 9},${ey - ux * 9}`,
                  fill: HEAD[cls] || "#333" }, g);
  if (label) {
    const t = el("text", { x: (x1 + x2) / 2 - 4, y: (y1 + y2) / 2 + 5, class: "arrow-label" }, g);
    t.textContent = label;
  }
  return g;
}

function path(layer, squares, cls) {
  const pts = squares.map((q) => centre(q).join(",")).join(" ");
  return el("polyline", { points: pts, class: cls }, layer);
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

function shownSpn() { return viewing !== null && positions ? positions.spns[viewing] : game && game.spn; }

// The seat whose threats are shown: the person to move, else the first
// person in the game, else the side to move.
function threatSeat(spn) {
  const p = parseSpn(spn);
  if (!p) return null;
  const person = (s) => { const c = seatOf(s); return c && !c.engine; };
  if (person(p.side)) return p.side;
  const alive = new Set(Object.values(p.board).filter((c) => c[1] === "S").map((c) => c[0]));
  const first = game.seats.find((s) => !s.engine && alive.has(s.seat));
  return first ? first.seat : p.side;
}

async function drawThreats() {
  const on = $("threats-toggle").checked;
  const spn = on && game ? shownSpn() : null;
  $("threat-list").classList.toggle("hidden", !spn);
  if (!spn || (game && game.gameover && viewing === null)) {
    layers.threats.textContent = ""; threatsShown = null; $("threat-list").textContent = "";
    return;
  }
  if (threatsShown === spn) return;
  threatsShown = spn;
  const seat = threatSeat(spn);
  let t;
  try { t = await api("GET", `/api/threats?spn=${encodeURIComponent(spn)}&seat=${seat}`); }
  catch (e) { layers.threats.textContent = ""; $("threat-list").textContent = e.message; return; }
  if (threatsShown !== spn) return;
  layers.threats.textContent = "";
  const lines = [];
  const mark = (k, kind) => {
    const g = el("g", { class: `${kind}-mark`, "data-steps": k.steps.join(" "),
                        "data-attacker": k.attacker, "data-victim": k.victim }, layers.threats);
    if (k.levitation) arrow(g, k.levitation[0], k.levitation[1], `${kind}-lev`);
    arrow(g, k.troll, k.rock, kind);
    path(g, [k.rock, ...k.flight], `${kind}-flight`);
  };
  for (const k of t.threats) {
    mark(k, "threat");
    lines.push(`⚠ ${SEAT_NAME[k.attacker]} can kill ${SEAT_NAME[k.victim]}: ${k.steps.join(" ")}`);
  }
  for (const k of t.kills) {
    mark(k, "kill");
    lines.push(`✔ ${SEAT_NAME[k.attacker]} can kill ${SEAT_NAME[k.victim]}${t.now ? " now" : " next turn"}: ${k.steps.join(" ")}`);
  }
  $("threat-list").textContent = lines.length ? lines.join("\n") : `No throw threatens ${SEAT_NAME[t.seat]}, and no kill at hand.`;
  $("threat-list").dataset.threats = String(t.threats.length);
  $("threat-list").dataset.kills = String(t.kills.length);
}

function drawOverlays() {
  if (!layers.arrows) return;
  drawHint();
  drawThreats();
}

async function askHint() {
  if (!game) return;
  if (viewing !== null) toLive();
  $("hint").disabled = true;
  $("hint").textContent = "Thinking…";
  try {
    const h = await api("POST", `/api/games/${game.id}/hint`, { movetime: config.hint_movetime || 500 });
    hint = h;
    drawHint();
    $("board").dataset.hint = h.steps.join(" ");
  } catch (e) { showError(`Hint: ${e.message}`, false); }
  $("hint").disabled = false;
  $("hint").textContent = "Hint";
}

// ----- evaluation: the bar and the graph -----

function currentWinprob(st) {
  if (st.thinking && st.thinking.winprob) return st.thinking.winprob;
  const e = st.evals && st.evals[st.evals.length - 1];
  return e ? e.winprob : null;
}

function drawEvalBar(st) {
  const bar = $("evalbar");
  const w = currentWinprob(st);
  bar.textContent = "";
  bar.classList.toggle("hidden", !w);
  if (!w) return;
  for (const s of "rygb") {
    if (w[s] === undefined) continue;
    const span = document.createElement("span");
    span.style.width = `${(w[s] * 100).toFixed(1)}%`;
    span.style.background = SEAT_COLOUR[s];
    span.dataset.seat = s;
    span.dataset.p = String(w[s]);
    span.title = `${SEAT_NAME[s]}: ${(w[s] * 100).toFixed(0)}%`;
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
    let text = `${t.index + 1}. ${t.seat} ${t.steps.join(" ")}  ${pct(t.before)}→${pct(t.after)}${drop}`;
    if (t.mark) text += `  ${t.mark}; better: ${t.best.join(" ")}`;
    d.textContent = text;
    d.title = "show the position before this turn, with the engine's turn";
    d.addEventListener("click", () => browseTo(t.first_step, t.best_marks));
    box.appendChild(d);
  }
}

// ----- loading a record -----

async function loadRecord(file) {
  let text;
  try { text = await file.text(); } catch (e) { showError(`Cannot read the file: ${e.message}`, false); return; }
  const body = { record: text };
  if (game) body.replace = game.id;
  try {
    const st = await api("POST", "/api/games", body);
    showError("", false);
    game = null;
    render(st);
    pollToken++;
    poll(pollToken);
  } catch (e) { showError(e.message, false); }
}

async function poll(token) {
  while (token === pollToken && game) {
    try {
      const st = await api("GET", `/api/games/${game.id}?since=${game.version}`);
      if (token !== pollToken) return;
      render(st);
    } catch (e) {
      if (token !== pollToken) return;
      showError(`Lost the game: ${e.message}`, false);
      // Closed or abandoned on the server: start a new one.
      if (e.message.startsWith("no such game")) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

function seatLetters() {
  const spn = $("start-spn").value.trim();
  if (spn) {
    const p = parseSpn(spn);
    if (!p) return null;
    const present = new Set(Object.values(p.board).filter((c) => c[1] === "S").map((c) => c[0]));
    return "rygb".split("").filter((s) => present.has(s));
  }
  return { 2: ["r", "g"], 3: ["r", "y", "g"], 4: ["r", "y", "g", "b"] }[$("players").value];
}

// Each seat's choice of person or engine, kept while "Engines only" shows
// every seat as the engine and while the seats are drawn again.
const chosenKind = {};

function drawSeatForm() {
  const box = $("seats");
  const letters = seatLetters() || [];
  const old = {};
  for (const s of "rygb") {
    if ($(`algo-${s}`)) old[s] = { algo: $(`algo-${s}`).value, ms: $(`ms-${s}`).value };
  }
  const enginesOnly = $("engines-only").checked;
  box.textContent = "";
  if (letters.length) {
    // Visible column labels; each control is named by its seat and column.
    const cols = [["col-seat", "Seat"], ["col-kind", "Person/Engine"],
                  ["col-algo", "Algorithm"], ["col-ms", "ms per turn"]];
    if (levelChoices().length > 1) cols.push(["col-level", "Level"]);
    box.style.gridTemplateColumns = cols.map(() => "auto").join(" ");
    for (const [id, text] of cols) {
      const h = document.createElement("span");
      h.id = id; h.className = "seat-head"; h.textContent = text;
      box.appendChild(h);
    }
  }
  letters.forEach((s, i) => {
    const name = document.createElement("span");
    name.textContent = SEAT_NAME[s];
    name.className = "seat-" + s;
    name.id = `seat-${s}`;
    const named = (el, col) => el.setAttribute("aria-labelledby", `seat-${s} ${col}`);
    const kind = document.createElement("select");
    kind.id = `kind-${s}`;
    kind.dataset.seat = s;
    named(kind, "col-kind");
    for (const [v, t] of [["person", "person"], ["engine", "engine"]]) {
      const o = document.createElement("option"); o.value = v; o.textContent = t; kind.appendChild(o);
    }
    if (!chosenKind[s]) chosenKind[s] = i === 0 ? "person" : "engine";
    kind.value = enginesOnly ? "engine" : chosenKind[s];
    kind.disabled = enginesOnly;
    kind.addEventListener("change", () => { chosenKind[s] = kind.value; });
    const algo = document.createElement("select");
    algo.id = `algo-${s}`;
    named(algo, "col-algo");
    for (const a of (config && config.algorithms.length ? config.algorithms : ["auto"])) {
      const o = document.createElement("option"); o.value = a; o.textContent = a; algo.appendChild(o);
    }
    if (old[s] && [...algo.options].some((o) => o.value === old[s].algo)) algo.value = old[s].algo;
    const ms = document.createElement("input");
    ms.type = "number"; ms.id = `ms-${s}`; ms.value = old[s] ? old[s].ms : "1000";
    ms.min = "10"; ms.max = "600000";
    ms.title = "the engine's time per turn, in milliseconds";
    named(ms, "col-ms");
    box.append(name, kind, algo, ms);
    const choices = levelChoices();
    if (choices.length > 1) {
      const level = document.createElement("select");
      level.id = `level-${s}`;
      named(level, "col-level");
      for (const [v, t] of choices) {
        const o = document.createElement("option"); o.value = v; o.textContent = t; level.appendChild(o);
      }
      const kept = rememberedLevel(s);
      if (choices.some((c) => c[0] === kept)) level.value = kept;
      level.addEventListener("change", () => rememberLevel(s, level.value));
      box.append(level);
    }
  });
}

// The levels the engine offers (UCI_Elo, Skill Level): [value, label];
// "full" alone when it offers none.
function levelChoices() {
  const out = [["full", "full strength"]];
  const l = config && config.levels;
  if (!l) return out;
  if (l.skill) {
    const names = ["beginner", "novice", "casual", "club", "strong"];
    for (let i = 0; i < names.length; i++) {
      const v = Math.round(l.skill.min + (l.skill.max - l.skill.min) * i / names.length);
      out.push([`skill:${v}`, `${names[i]} (skill ${v})`]);
    }
  }
  if (l.elo) {
    const steps = 6;
    for (let i = 0; i <= steps; i++) {
      const v = Math.round((l.elo.min + (l.elo.max - l.elo.min) * i / steps) / 10) * 10;
      const c = Math.min(l.elo.max, Math.max(l.elo.min, v));
      if (!out.some((o) => o[0] === `elo:${c}`)) out.push([`elo:${c}`, `Elo ${c}`]);
    }
  }
  return out;
}

// Each seat's level is remembered between games (and page loads).
function rememberedLevel(s) {
  try { return localStorage.getItem(`splut.level.${s}`) || "full"; } catch (e) { return "full"; }
}
function rememberLevel(s, v) {
  try { localStorage.setItem(`splut.level.${s}`, v); } catch (e) { /* private mode: not kept */ }
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
}

// Before the first game the board shows the position the form would start
// from, as the server reads it (GET /api/preview).
let previewToken = 0;
async function previewStart() {
  if (game) return;
  const token = ++previewToken;
  const spn = $("start-spn").value.trim();
  const query = spn ? `spn=${encodeURIComponent(spn)}` : `players=${$("players").value}`;
  let p = null, err = null;
  try { p = await api("GET", `/api/preview?${query}`); } catch (e) { err = e.message; }
  if (token !== previewToken || game) return;
  $("spn-hint").textContent = err && spn ? `Not a starting position yet: ${err}` : "";
  if (p && p.spn === drawnSpn) return;
  buildBoard();
  if (!p) return;
  drawPosition(p.spn);
  $("board").dataset.preview = "1";
}

function formChanged() {
  drawSeatForm();
  previewStart();
}

async function newGame() {
  const allEngines = $("engines-only").checked;
  const letters = seatLetters();
  if (!letters) { showError("Bad SPN: it does not have seven fields and nine ranks", false); return; }
  const seats = letters.map((s) => ({
    engine: allEngines || $(`kind-${s}`).value === "engine",
    algorithm: $(`algo-${s}`).value,
    movetime: Number($(`ms-${s}`).value) || 1000,
    level: levelOf(s),
  }));
  const spn = $("start-spn").value.trim();
  const body = spn ? { spn, seats } : { players: Number($("players").value), seats };
  if (game) body.replace = game.id;
  try {
    const st = await api("POST", "/api/games", body);
    showError("", false);
    $("spn-hint").textContent = "";
    game = null;
    render(st);
    pollToken++;
    poll(pollToken);
  } catch (e) {
    showError(e.message, false);
  }
}

async function main() {
  buildBoard();
  previewStart();  // beside the config request, not after it
  $("players").addEventListener("change", formChanged);
  // "change" too: a field cleared by a script or a form tool fires no "input".
  $("start-spn").addEventListener("input", formChanged);
  $("start-spn").addEventListener("change", formChanged);
  $("engines-only").addEventListener("change", setEnginesOnly);
  $("newgame-form").addEventListener("submit", (ev) => { ev.preventDefault(); newGame(); });
  $("pass").addEventListener("click", () => playStep("pass"));
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
  document.addEventListener("keydown", browseKey);
  $("review").addEventListener("click", reviewGame);
  $("record-file").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    ev.target.value = "";  // the same file chosen again loads again
    if (f) loadRecord(f);
  });
  $("copy-spn").addEventListener("click", async () => {
    const t = $("spn-text");
    try { await navigator.clipboard.writeText(t.value); }
    catch (e) { t.select(); document.execCommand("copy"); }
  });
  try {
    config = await api("GET", "/api/config");
    if (config.engine_error) showError(`The engine could not start: ${config.engine_error}`, false);
  } catch (e) { showError(`No server: ${e.message}`, false); }
  drawSeatForm();
  $("status").textContent = "Start a game →";
  window.splut.ready = performance.now();
  document.body.dataset.ready = "1";
}

main();
