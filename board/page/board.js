// The board: its squares (turned for the one looking), the pieces and
// rocks drawn from a position as the host read it.

import { S, $ } from "./state.js";
import { clickSquare, dragEnd, dragStart } from "./play.js";
import { KIND_NAME, SEAT_NAME } from "./narrate.js";

export const SVGNS = "http://www.w3.org/2000/svg";
export const CELL = 56, OX = 0, OY = 0;
export const SEAT_COLOUR = { r: "#c62828", y: "#d4a017", g: "#2e7d32", b: "#1565c0" };

export const FILES = "abcdefghi";

export function onBoard(f, r) { return f >= 0 && f < 9 && r >= 0 && r < 9 && Math.abs(f - 4) + Math.abs(r - 4) <= 4; }

// The board turned so that the seat of the one looking sits at the
// bottom: red's as drawn, yellow's (west) a quarter turn, green's a half,
// blue's (east) three quarters. Only squares move; pieces stay upright.
export const QUARTER_TURNS = { r: 0, y: 1, g: 2, b: 3 };

export function centre(sq) {
  const f = FILES.indexOf(sq[0]), r = Number(sq[1]) - 1;
  let x = f - 4, y = 4 - r;  // from the centre, y down the screen
  for (let k = 0; k < S.boardTurns; k++) [x, y] = [y, -x];
  return [OX + (x + 4) * CELL + CELL / 2, OY + (y + 4) * CELL + CELL / 2];
}

// A guest sees the board from their seat; the host and spectators from red's.
export function turnsFor(st) {
  return st.you && st.you.role === "seat" ? QUARTER_TURNS[st.you.seat] || 0 : 0;
}

export function allSquares() {
  const out = [];
  for (let r = 8; r >= 0; r--) for (let f = 0; f < 9; f++) if (onBoard(f, r)) out.push(FILES[f] + (r + 1));
  return out;
}

export function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

export function buildBoard() {
  const svg = $("board");
  svg.textContent = "";
  S.layers.squares = el("g", {}, svg);
  S.layers.last = el("g", { id: "last-marks" }, svg);
  S.layers.marks = el("g", {}, svg);
  S.layers.rocks = el("g", {}, svg);
  S.layers.pieces = el("g", {}, svg);
  S.layers.movable = el("g", { id: "movable" }, svg);
  S.layers.lastTop = el("g", { id: "last-top" }, svg);
  S.layers.threats = el("g", { id: "threat-marks" }, svg);
  S.layers.arrows = el("g", { id: "arrows" }, svg);
  S.layers.preview = el("g", { id: "throw-preview" }, svg);
  S.layers.hits = el("g", {}, svg);
  for (const sq of allSquares()) {
    const [x, y] = centre(sq);
    const f = FILES.indexOf(sq[0]), r = Number(sq[1]);
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                 class: "sq" + ((f + r) % 2 ? " dark" : "") }, S.layers.squares);
    // Every square's name in its corner: the notation of the log and the
    // move list, readable on the board.
    const t = el("text", { x: x - CELL / 2 + 3, y: y + CELL / 2 - 3, class: "coord" }, S.layers.squares);
    t.textContent = sq;
    const hit = el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
                             class: "hit", "data-square": sq, "data-content": "" }, S.layers.hits);
    hit.addEventListener("click", () => clickSquare(sq));
    hit.addEventListener("pointerdown", (ev) => dragStart(ev, sq));
    hit.addEventListener("pointerup", (ev) => dragEnd(ev));
  }
  S.rockEls = new Map();
  S.pieceEls = new Map();
  S.drawnSpn = null;
  S.threatsShown = null;
  delete svg.dataset.spn;
  delete svg.dataset.preview;
}

export function place(g, sq) {
  const [x, y] = centre(sq);
  g.style.transform = `translate(${x}px, ${y}px)`;
  g.dataset.at = sq;
}

export function makePiece(code) {
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

export function makeRock() {
  const g = el("g", { class: "piece rock-g" });
  el("polygon", { class: "rock", points: "-14,-20 10,-21 22,-4 17,16 -4,22 -21,10 -22,-9" }, g);
  return g;
}

// Draws a position as the host read it (its board: pieces, rocks cooling,
// moved and levitated), moving the pieces that moved (CSS transitions).
export function drawPosition(p) {
  if (!p) return;
  const svg = $("board");
  // Team pieces are unique: key them by seat and kind.
  const seen = new Set();
  for (const [sq, c] of Object.entries(p.pieces)) {
    if (c === "R") continue;
    seen.add(c);
    let g = S.pieceEls.get(c);
    if (!g) { g = makePiece(c); S.pieceEls.set(c, g); place(g, sq); S.layers.pieces.appendChild(g); }
    else if (g.dataset.at !== sq) place(g, sq);
  }
  for (const [c, g] of S.pieceEls) if (!seen.has(c)) { g.remove(); S.pieceEls.delete(c); }
  // Rocks are alike: those still on their square stay, the others are
  // matched to the new rock squares nearest them, so a moved rock slides.
  const newRocks = Object.keys(p.pieces).filter((s) => p.pieces[s] === "R");
  const keep = new Map();
  const gone = [];
  for (const [sq, g] of S.rockEls) (newRocks.includes(sq) ? keep.set(sq, g) : gone.push(g));
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
    if (best >= 0) { g = gone[best]; gone[best] = null; } else { g = makeRock(); S.layers.rocks.appendChild(g); }
    place(g, sq);
    keep.set(sq, g);
  }
  for (const g of gone) if (g) g.remove();
  S.rockEls = keep;
  // Marks: cooling rocks, rocks moved this turn, the levitated rock.
  S.layers.marks.textContent = "";
  const ring = (sq, cls, r, label) => {
    const [x, y] = centre(sq);
    const c = el("circle", { cx: x, cy: y, r, class: cls }, S.layers.marks);
    const t = el("title", {}, c); t.textContent = label;
  };
  for (const sq of p.cooling) ring(sq, "rock-cooling", 26, "cooling: moved last turn, cannot be levitated");
  for (const sq of p.moved) ring(sq, "rock-moved", 23, "moved this turn");
  if (p.levitated) ring(p.levitated, "rock-levitated", 27, "levitated this turn");
  // Each square says what is on it, for tests and for the curious.
  for (const hit of S.layers.hits.children) {
    const sq = hit.dataset.square;
    hit.dataset.content = p.pieces[sq] || "";
    hit.dataset.cooling = p.cooling.includes(sq) ? "1" : "";
    hit.dataset.moved = p.moved.includes(sq) ? "1" : "";
    hit.dataset.levitated = p.levitated === sq ? "1" : "";
  }
  svg.dataset.spn = p.spn;
  S.drawnSpn = p.spn;
}

export function seatOf(letter) { return S.game && S.game.seats.find((s) => s.seat === letter); }
