// Arrows over the board: the hint, a review's better turn, the threats.

import { S, $ } from "./state.js";
import { centre, el, seatOf } from "./board.js";
import { api, showError } from "./api.js";
import { hintOff } from "./render.js";
import { drawLastMarks } from "./log.js";
import { toLive } from "./moves.js";
import { SEAT_NAME, turnWords } from "./narrate.js";

export const HEAD = { arrow: "#1f5fbf", threat: "#d01010", kill: "#118a2a", "arrow-rock": "#5d5d5d",
               "threat-lev": "#d01010", "kill-lev": "#118a2a", "threat-flight": "#d01010",
               "kill-flight": "#118a2a", "arrow-flight": "#1f5fbf", "last-rock": "#5d5d5d",
               "preview-flight": "#b35900" };

// An arrowhead at `to`, pointing away from `from` (centres in px).
export function head(layer, [x1, y1], [x2, y2], colour, size = 9) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const ex = x2 - ux * 12, ey = y2 - uy * 12;
  el("polygon", { points: `${x2},${y2} ${ex - uy * size},${ey + ux * size} ${ex + uy * size},${ey - ux * size}`,
                  fill: colour, class: "head" }, layer);
  return [ex, ey];
}

export function arrow(layer, from, to, cls, label) {
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
export function path(layer, squares, cls, colour) {
  const g = el("g", { class: "path-g" }, layer);
  const pts = squares.map(centre);
  const line = el("polyline", { points: pts.map((p) => p.join(",")).join(" "), class: cls }, g);
  if (colour) line.setAttribute("stroke", colour);
  if (pts.length >= 2) head(g, pts[pts.length - 2], pts[pts.length - 1], colour || HEAD[cls] || "#333", 8);
  return g;
}

export function drawHint() {
  S.layers.arrows.textContent = "";
  if (!S.hint || !S.hint.marks) return;
  S.hint.marks.forEach((m, i) => {
    if (!m.from) return;
    const g = arrow(S.layers.arrows, m.from, m.to, "arrow", String(i + 1));
    g.dataset.step = m.step;
    if (m.rock) arrow(S.layers.arrows, m.rock[0], m.rock[1], "arrow-rock");
    if (m.flight.length) path(S.layers.arrows, [m.to, ...m.flight], "arrow-flight");
  });
}

// The position shown: the one browsed, else the game's, as its board.
export function shownBoard() { return S.viewing !== null && S.positions ? S.positions.boards[S.viewing] : S.game && S.game.board; }

// The seat whose threats are shown in the position `p` (a board): the
// person to move, else the first person in the game, else the side to move.
export function threatSeat(p) {
  const person = (s) => { const c = seatOf(s); return c && !c.engine; };
  if (person(p.side)) return p.side;
  const first = S.game.seats.find((s) => !s.engine && p.seats.includes(s.seat));
  return first ? first.seat : p.side;
}

// One killing throw drawn: each levitation of the rock on the way one
// square at a time, the troll's step onto the rock, the flight.
export function killMark(k, kind) {
  const g = el("g", { class: `${kind}-mark`, "data-steps": k.steps.join(" "),
                      "data-attacker": k.attacker, "data-victim": k.victim }, S.layers.threats);
  for (const ev of k.events) {
    if (ev.type === "levitate" && ev.rock) arrow(g, ev.rock[0], ev.rock[1], `${kind}-lev`);
  }
  arrow(g, k.troll, k.rock, kind);
  path(g, [k.rock, ...k.flight], `${kind}-flight`);
}

export async function drawThreats() {
  const on = $("threats-toggle").checked;
  const shown = on && S.game ? shownBoard() : null;
  const spn = shown ? shown.spn : null;
  $("threat-list").classList.toggle("hidden", !spn);
  if (!spn || (S.game && S.game.gameover && S.viewing === null)) {
    S.layers.threats.textContent = ""; S.threatsShown = null; $("threat-list").textContent = "";
    return;
  }
  if (S.threatsShown === spn) return;
  S.threatsShown = spn;
  const seat = threatSeat(shown);
  let t;
  try { t = await api("GET", `/api/threats?spn=${encodeURIComponent(spn)}&seat=${seat}`); }
  catch (e) { S.layers.threats.textContent = ""; $("threat-list").textContent = e.message; return; }
  if (S.threatsShown !== spn) return;
  S.layers.threats.textContent = "";
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

export function drawOverlays() {
  if (!S.layers.arrows) return;
  drawLastMarks();
  drawHint();
  drawThreats();
}

export async function askHint() {
  if (!S.game || hintOff(S.game)) return;
  if (S.viewing !== null) toLive();
  S.hintBusy = true;
  $("hint").disabled = true;
  $("hint").textContent = "Thinking…";
  try {
    const h = await api("POST", `/api/games/${S.game.id}/hint`, { movetime: S.config.hint_movetime || 500 });
    S.hint = h;
    drawHint();
    $("board").dataset.hint = h.steps.join(" ");
    $("hint-text").textContent = `Hint for ${SEAT_NAME[h.seat] || h.seat}: ${h.steps.join(" ")} — ${turnWords(h.marks)}`;
    $("hint-text").classList.remove("hidden");
  } catch (e) { showError(`Hint: ${e.message}`, false); }
  S.hintBusy = false;
  $("hint").disabled = hintOff(S.game);
  $("hint").textContent = "Hint";
}
