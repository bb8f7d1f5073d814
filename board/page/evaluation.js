// The evaluation: the bar of each seat's chances and the graph of them.

import { S, $ } from "./state.js";
import { el, SEAT_COLOUR, seatOf } from "./board.js";
import { levelName } from "./form.js";
import { SEAT_NAME } from "./narrate.js";

// The engine's last chances, with the seats out of the game (also those
// killed since the engine last looked) at 0 and the rest rescaled.
export function currentWinprob(st) {
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
export function viewCaption(st) {
  const e = st.evals && st.evals[st.evals.length - 1];
  const seat = st.thinking && st.thinking.winprob ? st.thinking.seat : e ? e.seat : null;
  const s = seat && seatOf(seat);
  if (!s || !s.engine || !s.level) return "";
  return `${SEAT_NAME[seat]}'s view, an engine at ${levelName(s.level)} (not full strength)`;
}

export function drawEvalBar(st) {
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

export function drawGraph(st) {
  const svg = $("graph");
  svg.textContent = "";
  const W = 400, H = 120;
  for (const p of [0, 0.5, 1]) el("line", { x1: 0, x2: W, y1: 5 + (1 - p) * (H - 10), y2: 5 + (1 - p) * (H - 10), class: "axis" }, svg);
  // The review's view of every turn when there is one, else the engine's
  // at each of its turns.
  let pts = (st.evals || []).slice();
  if (S.reviewed && S.reviewed.id === st.id && S.reviewed.turns.length) {
    pts = S.reviewed.turns.map((t) => ({ step: t.first_step, winprob: t.winprob }));
    const t = S.reviewed.turns[S.reviewed.turns.length - 1];
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
