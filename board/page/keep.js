// The game kept over a reload, and the poll that follows the game.

import { S } from "./state.js";
import { api, gameGone, showError } from "./api.js";
import { render } from "./render.js";
import { clockMs } from "./clocks.js";

// The game in play is kept in the browser (its start, steps, seats with
// the people's clocks, and pace), so that a reload, or a phone that
// dropped the tab, finds it again: natively the server still plays it and
// the page attaches to it; on the static board (or after the server
// restarted without its store) it is started again from its steps, each
// clock with the time it had left.
export const KEPT = "splut.game";

export function keepGame(st) {
  const kept = {
    id: st.id, start: st.start, pace: st.pace, role: st.you ? st.you.role : "host",
    steps: st.turns.flatMap((t) => t.steps),
    seats: st.seats.map(keptSeat), ended: !!st.ended_here,
  };
  try { localStorage.setItem(KEPT, JSON.stringify(kept)); } catch (e) { /* private mode: not kept */ }
}

// A seat as a new game takes it up again; a person's clock with its time
// left as the page counts it now (`game` is the state shown).
export function keptSeat(s) {
  const k = { engine: s.engine, algorithm: s.algorithm, movetime: s.movetime, level: s.level };
  const ms = s.clock && !s.engine && S.game ? clockMs(s.seat) : null;
  if (ms !== null) k.clock = { ...s.clock, left: Math.round(ms) };
  return k;
}

export function keptGame() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "null"); } catch (e) { return null; }
}

// The kept game's state: the host's own if it still plays that game (the
// same start, the kept steps played in it), else the game started again
// from its steps; null when none is kept or it cannot be.
export async function keptState() {
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
export async function resumeGame() {
  const st = await keptState();
  if (!st) return false;
  S.game = null;
  render(st);
  S.pollToken++;
  poll(S.pollToken);
  return true;
}

export function stopPolling() {
  S.pollToken++;
  if (S.pollAbort) S.pollAbort.abort();
  S.pollAbort = null;
}

export async function poll(token) {
  const ctl = new AbortController();
  S.pollAbort = ctl;
  while (token === S.pollToken && S.game) {
    try {
      const st = await api("GET", `/api/games/${S.game.id}?since=${S.game.version}`, undefined, ctl.signal);
      if (token !== S.pollToken) return;
      render(st);
      // Closed by its host: nothing more will come.
      if (st.closed) { gameGone(); return; }
    } catch (e) {
      if (token !== S.pollToken) return;
      // Closed or abandoned on the server: said, and no more asked.
      if (e.message.startsWith("no such game")) { gameGone(); return; }
      // The server out of reach (restarting, the network): asked again
      // each second; the next state clears the notice.
      showError("Reconnecting to the server…", false, true);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
