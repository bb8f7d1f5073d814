// The people's clocks, counted down here between the host's answers.

import { S, $ } from "./state.js";

// A clock's time left as m:ss (h:mm:ss from an hour), rounded up.
export function clockText(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

// Whether `seat`'s clock runs now.
export function clockRuns(seat) { return !!S.game && !!S.game.clock && S.game.clock.running === seat && !S.game.gameover; }

// The time left on `seat`'s clock now (ms), counted down here from the
// host's last answer while it runs; null when the seat has no clock.
export function clockMs(seat) {
  const c = S.game && S.game.clock;
  if (!c || c.left[seat] === undefined) return null;
  return Math.max(0, c.left[seat] - (clockRuns(seat) ? performance.now() - S.clockSeen : 0));
}

// Each person's clock beside their seat, and the mover's in the header
// beside the board (on a phone the seat list is below the first
// screen): the running one counts down here between the host's answers;
// red under 10 s.
export function drawClocks() {
  const mover = S.game && !S.game.gameover && clockMs(S.game.side) !== null ? S.game.side : null;
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
