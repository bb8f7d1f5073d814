// splut gui: what a step does, told in words and drawn as marks. The
// server (the engine) decides what is legal; this file only replays steps
// it already accepted, to say what they did: who moved, what was pushed,
// pulled or levitated, where a thrown rock flew and whom it crushed. It
// knows the board's shape and the rules of movement (RULES.md §3), not
// which steps are legal. Loaded before app.js; no state of its own.
"use strict";

const FILES = "abcdefghi";
const SEAT_NAME = { r: "Red", y: "Yellow", g: "Green", b: "Blue" };
const KIND_NAME = { S: "sorcerer", D: "dwarf", T: "troll" };
const DIR_NAME = { n: "north", e: "east", s: "south", w: "west" };
const DIRS = { n: [0, 1], e: [1, 0], s: [0, -1], w: [-1, 0] };
const ORDINAL = ["", "1st", "2nd", "3rd", "4th"];

function onBoard(f, r) { return f >= 0 && f < 9 && r >= 0 && r < 9 && Math.abs(f - 4) + Math.abs(r - 4) <= 4; }

// The square one step along `dir` from `sq`, or null off the board.
function neighbour(sq, dir) {
  const f = FILES.indexOf(sq[0]) + DIRS[dir][0], r = Number(sq[1]) - 1 + DIRS[dir][1];
  return onBoard(f, r) ? FILES[f] + (r + 1) : null;
}

// The direction from `a` to its neighbour `b`.
function direction(a, b) {
  for (const d of "nesw") if (neighbour(a, d) === b) return d;
  return null;
}

// SPN → { board: {square: "R"|"rS"…}, side, steps, turn, lev, cooling[], moved[] }
function parseSpn(spn) {
  const fields = String(spn).trim().split(" ");
  if (fields.length !== 7) return null;
  const ranks = fields[0].split("/");
  if (ranks.length !== 9) return null;
  const board = {};
  for (let i = 0; i < 9; i++) {
    const r = 8 - i, lo = Math.abs(r - 4), width = 9 - 2 * lo;
    let f = lo;
    const s = ranks[i];
    for (let k = 0; k < s.length; k++) {
      const c = s[k];
      if (c >= "1" && c <= "9") { f += Number(c); continue; }
      if (f >= lo + width) return null;
      const sq = FILES[f] + (r + 1);
      if (c === "R") { board[sq] = "R"; f++; continue; }
      if (!"rygb".includes(c) || !"SDT".includes(s[k + 1] || "")) return null;
      board[sq] = c + s[k + 1]; k++; f++;
    }
    if (f !== lo + width) return null;
  }
  const list = (x) => (x === "-" ? [] : x.split(","));
  return { board, side: fields[1], steps: Number(fields[2]), turn: Number(fields[3]),
           lev: fields[4], cooling: list(fields[5]), moved: list(fields[6]) };
}

// Step text → {text, from, to, pull, throwDir, lev} (null for pass or bad text).
function parseStep(t) {
  const m = /^([a-i][1-9])([a-i][1-9])(?:\^([a-i][1-9])|\*([nesw])|@([a-i][1-9]))?$/.exec(t);
  if (!m) return null;
  return { text: t, from: m[1], to: m[2], pull: m[3] || null, throwDir: m[4] || null, lev: m[5] || null };
}

// The seats whose sorcerer is on `board`.
function seatsOn(board) {
  return new Set(Object.values(board).filter((c) => c[1] === "S").map((c) => c[0]));
}

// A thrown rock's flight (RULES.md §3, Troll): the troll has stepped from
// `from` onto the rock on `to`, and throws it along `dir`. Returns the
// squares it passes (its landing last), the landing and what it crushes.
function throwFlight(board, from, to, dir) {
  const at = (sq) => (sq === from ? undefined : sq === to ? board[from] : board[sq]);
  const flight = [];
  let sq = to;
  for (;;) {
    const n = neighbour(sq, dir);
    const c = n && at(n);
    if (!n || c === "R" || (c && c[1] === "T")) break;
    if (c && c[1] === "S") { flight.push(n); return { flight, landing: n, crushed: c }; }
    flight.push(n);
    sq = n;
  }
  const c = at(sq);
  return { flight, landing: sq, crushed: c && c[1] === "D" && sq !== to ? c : null };
}

// Plays `text` (a step the engine accepted) on a copy of `board`: the new
// board and what happened, as an event for words and marks.
function applyStep(board, text, seat) {
  const b = Object.assign({}, board);
  const s = parseStep(text);
  if (!s) return { board: b, event: { text, type: "pass", seat, out: [] } };
  const piece = b[s.from];
  const ev = { text, seat: piece ? piece[0] : seat, kind: piece ? piece[1] : "?", from: s.from, to: s.to,
               type: "step", dir: direction(s.from, s.to), rocks: [], pushed: [], flight: [], out: [] };
  const before = seatsOn(b);
  if (s.throwDir) {
    const t = throwFlight(b, s.from, s.to, s.throwDir);
    delete b[s.from];
    b[s.to] = piece;
    Object.assign(ev, { type: "throw", throwDir: s.throwDir, flight: t.flight, landing: t.landing, crushed: t.crushed });
    if (t.crushed && t.crushed[1] === "S") {
      for (const q of Object.keys(b)) if (b[q][0] === t.crushed[0] && b[q] !== "R") delete b[q];
    }
    b[t.landing] = "R";
  } else if (s.pull) {
    delete b[s.from];
    b[s.to] = piece;
    delete b[s.pull];
    b[s.from] = "R";
    Object.assign(ev, { type: "pull", rocks: [[s.pull, s.from]] });
  } else if (s.lev) {
    const dest = neighbour(s.lev, ev.dir);
    delete b[s.from];
    b[s.to] = piece;
    delete b[s.lev];
    if (dest) b[dest] = "R";
    Object.assign(ev, { type: "levitate", rocks: [[s.lev, dest]] });
  } else if (b[s.to]) {
    // A dwarf's push: the run of pieces from `to` moves one square on.
    const run = [];
    for (let q = s.to; q && b[q]; q = neighbour(q, ev.dir)) run.push(q);
    for (let i = run.length - 1; i >= 0; i--) {
      const dest = neighbour(run[i], ev.dir);
      if (b[run[i]] === "R") ev.rocks.push([run[i], dest]);
      ev.pushed.push(b[run[i]]);
      b[dest] = b[run[i]];
      delete b[run[i]];
    }
    ev.pushed.reverse();
    delete b[s.from];
    b[s.to] = piece;
    ev.type = "push";
  } else {
    delete b[s.from];
    b[s.to] = piece;
  }
  const after = seatsOn(b);
  ev.out = [...before].filter((x) => !after.has(x));
  return { board: b, event: ev };
}

function pieceName(code) {
  return code === "R" ? "a rock" : `${SEAT_NAME[code[0]]}'s ${KIND_NAME[code[1]]}`;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(", ") + " and " + items[items.length - 1];
}

// An event in a sentence: "Blue's troll f7→f6 throws the rock west: …".
// `places` (seat → place) names the place of a seat that goes out.
function sentence(ev, places) {
  if (ev.type === "pass") return `${SEAT_NAME[ev.seat] || ev.seat} cannot move and passes.`;
  const who = `${SEAT_NAME[ev.seat]}'s ${KIND_NAME[ev.kind] || "piece"}`;
  let s = `${who} ${ev.from}→${ev.to}`;
  if (ev.type === "push") s += `, pushing ${listWords(ev.pushed.map(pieceName))} ${DIR_NAME[ev.dir]}`;
  if (ev.type === "pull") s += `, pulling the rock ${ev.rocks[0][0]}→${ev.rocks[0][1]}`;
  if (ev.type === "levitate") s += `, levitating the rock ${ev.rocks[0][0]}→${ev.rocks[0][1]}`;
  if (ev.type === "throw") {
    s += ` throws the rock ${DIR_NAME[ev.throwDir]}`;
    if (ev.crushed && ev.crushed[1] === "S") {
      s += `: ${pieceName(ev.crushed)} is crushed on ${ev.landing}`;
    } else if (ev.crushed) {
      s += `: it lands on ${ev.landing}, crushing ${pieceName(ev.crushed)} (SPLUT!)`;
    } else s += `; it lands on ${ev.landing}`;
  }
  for (const o of ev.out) {
    const place = places && places[o] ? ` (${ORDINAL[places[o]]})` : "";
    s += `, ${SEAT_NAME[o]} is out${place}`;
  }
  return s + ".";
}

// A turn's events in sentences; a piece's plain steps one after another
// are told as one walk ("Red's dwarf e2→e3→e4.").
function turnSentences(events, places) {
  const out = [];
  let walk = null;
  for (const ev of events) {
    const plain = ev.type === "step" && !ev.out.length;
    if (plain && walk && walk.seat === ev.seat && walk.kind === ev.kind && walk.squares[walk.squares.length - 1] === ev.from) {
      walk.squares.push(ev.to);
      out[out.length - 1] = `${SEAT_NAME[ev.seat]}'s ${KIND_NAME[ev.kind]} ${walk.squares.join("→")}.`;
      continue;
    }
    walk = plain ? { seat: ev.seat, kind: ev.kind, squares: [ev.from, ev.to] } : null;
    out.push(sentence(ev, places));
  }
  return out.join(" ");
}

// A few words beside a step's notation: "troll f3→f4, throws north".
function stepWords(ev) {
  if (ev.type === "pass") return "pass";
  let s = `${KIND_NAME[ev.kind] || "piece"} ${ev.from}→${ev.to}`;
  if (ev.type === "push") s += `, pushes ${listWords(ev.pushed.map(pieceName))}`;
  if (ev.type === "pull") s += `, pulls the rock from ${ev.rocks[0][0]}`;
  if (ev.type === "levitate") s += `, lifts the rock ${ev.rocks[0][0]}→${ev.rocks[0][1]}`;
  if (ev.type === "throw") {
    s += `, throws ${DIR_NAME[ev.throwDir]}`;
    if (ev.crushed) s += ` crushing ${pieceName(ev.crushed)} on ${ev.landing}`;
    else s += ` to ${ev.landing}`;
  }
  return s;
}

// The events of `steps` played from `spn` (each accepted by the engine).
function replaySteps(spn, steps) {
  const p = parseSpn(spn);
  return p ? replayBoard(p.board, p.side, steps) : [];
}

// The events of `steps` played on `board` by `side` first.
function replayBoard(board, side, steps) {
  const out = [];
  for (const t of steps) {
    const r = applyStep(board, t, side);
    board = r.board;
    side = r.event.seat;
    r.event.board = board;
    out.push(r.event);
  }
  return out;
}

// A turn's steps in words, from the position `spn` (or a board) before them.
function turnWords(spn, steps, side) {
  const events = typeof spn === "string" ? replaySteps(spn, steps) : replayBoard(spn, side, steps);
  return events.map(stepWords).join("; ");
}

// The game's events, grouped by turn: [{seat, index, events}] from its
// start and its turns ({seat, steps}), and the order seats went out. The
// places are the rules' own: the state's `places` (Game::places).
function narrateGame(start, turns) {
  const p = parseSpn(start);
  if (!p) return { turns: [], places: {}, outOrder: [] };
  const seats = [...seatsOn(p.board)];
  let board = p.board;
  const outOrder = [];
  const told = turns.map((t, index) => {
    const events = [], before = board;
    for (const text of t.steps) {
      const r = applyStep(board, text, t.seat);
      board = r.board;
      outOrder.push(...r.event.out);
      r.event.turn = index;
      events.push(r.event);
    }
    return { seat: t.seat, index, events, before };
  });
  return { turns: told, places: {}, outOrder, seats, board };
}

if (typeof module !== "undefined") {
  module.exports = { parseSpn, parseStep, neighbour, throwFlight, applyStep, sentence, stepWords, turnSentences,
                     replaySteps, replayBoard, turnWords, narrateGame, SEAT_NAME, ORDINAL };
}
