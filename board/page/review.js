// The review of a game, a record loaded, a new game started.

import { S, $ } from "./state.js";
import { api, showError } from "./api.js";
import { follow } from "./tables.js";
import { browseTo, drawMoves } from "./moves.js";
import { drawGraph } from "./evaluation.js";
import { stopPolling } from "./keep.js";
import { SEAT_NAME, turnWords } from "./narrate.js";

export async function reviewGame() {
  if (!S.game) return;
  const n = S.game.turns.length;
  $("review").disabled = true;
  $("review-status").textContent = `Reviewing ${n} turn${n === 1 ? "" : "s"}…`;
  try {
    const r = await api("POST", `/api/games/${S.game.id}/review`, { movetime: S.config.review.movetime });
    S.reviewed = { id: S.game.id, count: S.game.step_count, turns: r.turns };
    $("review-status").textContent = "";
  } catch (e) { $("review-status").textContent = `Review: ${e.message}`; }
  $("review").disabled = false;
  showReview();
  if (S.game) { drawMoves(S.game); drawGraph(S.game); }
}

// Each reviewed turn: its steps, the mover's expected score before and
// after (1 a win, 0 last place), its mark, and in words what was played
// and what the engine would have played.
export function showReview() {
  const box = $("review-list");
  box.textContent = "";
  if (!S.reviewed || !S.game || S.reviewed.id !== S.game.id) return;
  const pct = (x) => `${(x * 100).toFixed(0)}%`;
  for (const t of S.reviewed.turns) {
    const d = document.createElement("div");
    d.className = "review-turn seat-" + t.seat + (t.mark ? " " + t.mark : "");
    d.dataset.turn = String(t.index);
    d.dataset.mark = t.mark || "";
    const drop = t.drop > 0.005 ? ` −${pct(t.drop)}` : "";
    let text = `${t.index + 1}. ${SEAT_NAME[t.seat]} ${t.steps.join(" ")}  ${pct(t.before)}→${pct(t.after)}${drop}`;
    if (t.mark) text += `  ${t.mark}; better: ${t.best.join(" ")}`;
    d.append(text);
    const told = S.story && S.story.turns[t.index];
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

export async function loadRecord(file) {
  let text;
  try { text = await file.text(); } catch (e) { showError(`Cannot read the file: ${e.message}`, false); return; }
  await startNew({ record: text });
}

// Starts the game `body` asks for, replacing the one in play: that game's
// poll is ended first, so that its request is not left to fail when the
// host closes the game; if the host refuses, that game is followed again.
export async function startNew(body) {
  if (S.game) { body.replace = S.game.id; stopPolling(); }
  return follow(api("POST", "/api/games", body));
}
