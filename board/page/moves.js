// The move list, and browsing the game's earlier positions.

import { S, $ } from "./state.js";
import { drawPosition } from "./board.js";
import { api, showError } from "./api.js";
import { hideChooser, highlight } from "./play.js";
import { drawOverlays } from "./overlays.js";

export function drawMoves(st) {
  const ol = $("moves");
  const marks = new Map();
  if (S.reviewed && S.reviewed.id === st.id) for (const t of S.reviewed.turns) if (t.mark) marks.set(t.index, t.mark);
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
      if (S.viewing === at) span.classList.add("viewing");
      li.appendChild(span);
    }
    li.dataset.turn = String(i);
    li.dataset.end = String(at);
    li.title = "show the position after this turn";
    if (S.viewing === at) li.classList.add("viewing");
    const end = at;
    li.addEventListener("click", () => browseTo(end));
    ol.appendChild(li);
  });
  if (S.viewing === null) ol.scrollTop = ol.scrollHeight;
}

// Every position of the game, each as the host read it (its board).
export async function gamePositions() {
  if (!S.positions || S.positions.id !== S.game.id || S.positions.count !== S.game.step_count) {
    const r = await api("GET", `/api/games/${S.game.id}/positions`);
    S.positions = { id: S.game.id, count: r.boards.length - 1, boards: r.boards };
  }
  return S.positions.boards;
}

// Shows the position after `n` steps without changing the game.
export async function browseTo(n, marks) {
  if (!S.game) return;
  let boards;
  try { boards = await gamePositions(); } catch (e) { showError(`Positions: ${e.message}`, false); return; }
  if (n >= boards.length - 1 && !marks) { toLive(); return; }
  n = Math.max(0, Math.min(n, boards.length - 1));
  S.viewing = n;
  S.selected = null;
  hideChooser();
  drawPosition(boards[n]);
  $("board").dataset.viewing = String(n);
  $("browsing").classList.remove("hidden");
  $("browsing-text").textContent = `Viewing the position after step ${n} of ${boards.length - 1}`;
  S.hint = marks ? { step_count: S.game.step_count, marks, viewing: n } : null;
  drawMoves(S.game);
  highlight();
  drawOverlays();
}

// The arrow keys step through the game's positions.
export function browseKey(ev) {
  const t = ev.target;
  if (!S.game || (t && t.closest && t.closest("input, select, textarea"))) return;
  const here = S.viewing === null ? S.game.step_count : S.viewing;
  if (ev.key === "ArrowLeft" && here > 0) browseTo(here - 1);
  else if (ev.key === "ArrowRight" && S.viewing !== null) browseTo(here + 1);
  else if (ev.key === "Escape" && S.viewing !== null) toLive();
  else return;
  ev.preventDefault();
}

export function toLive() {
  S.viewing = null;
  delete $("board").dataset.viewing;
  $("browsing").classList.add("hidden");
  if (S.hint && S.hint.viewing !== undefined) S.hint = null;
  if (S.game && S.game.board) drawPosition(S.game.board);
  if (S.game) { drawMoves(S.game); highlight(); drawOverlays(); }
}
