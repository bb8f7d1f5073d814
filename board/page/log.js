// What just happened: the log in words, the last steps marked on the
// board, the seats with their places.

import { S, $ } from "./state.js";
import { CELL, centre, el, SEAT_COLOUR } from "./board.js";
import { mine } from "./tables.js";
import { personWord, standInWords } from "./play.js";
import { viewerSeat } from "./render.js";
import { drawClocks } from "./clocks.js";
import { arrow, path } from "./overlays.js";
import { levelName } from "./form.js";
import { ORDINAL, pieceName, SEAT_NAME, turnSentences } from "./narrate.js";

// The steps to mark: while browsing, the viewed step's turn up to it; else
// every step since the viewer's last turn (its own steps once it moves),
// or the last turn in an engines' game and once every person is out.
export function recentEvents() {
  if (!S.story) return [];
  const turns = S.story.turns;
  if (S.viewing !== null) {
    let at = 0;
    for (const t of turns) {
      const n = t.events.length;
      if (S.viewing > at && S.viewing <= at + n) return t.events.slice(0, S.viewing - at);
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
export function rocksMoved(ev) {
  const pushed = ev.pushed.filter((p) => p.piece === "R").map((p) => [p.from, p.to]).reverse();
  return ev.rock ? [ev.rock, ...pushed] : pushed;
}

export function drawLastMarks() {
  S.layers.last.textContent = "";
  S.layers.lastTop.textContent = "";
  const events = recentEvents();
  const square = (sq, cls, colour, mark) => {
    const [x, y] = centre(sq);
    el("rect", { x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL, class: cls,
                 fill: colour, "data-mark": mark, "data-at": sq }, S.layers.last);
  };
  for (const ev of events) {
    if (ev.type === "pass") continue;
    const colour = SEAT_COLOUR[ev.seat];
    square(ev.from, "last-from", colour, "from");
    square(ev.to, "last-to", colour, "to");
    for (const [a, b] of rocksMoved(ev)) arrow(S.layers.lastTop, a, b, "last-rock");
    if (ev.type === "throw") {
      const p = path(S.layers.lastTop, [ev.to, ...ev.flight], "last-flight", colour);
      p.dataset.mark = "flight";
      p.dataset.at = ev.landing;
    }
    if (ev.crushed) {
      const [x, y] = centre(ev.landing);
      const x1 = el("path", { d: `M${x - 14},${y - 14} L${x + 14},${y + 14} M${x + 14},${y - 14} L${x - 14},${y + 14}`,
                              class: "kill-x", stroke: SEAT_COLOUR[ev.crushed[0]], "data-mark": "kill",
                              "data-at": ev.landing, "data-victim": ev.crushed }, S.layers.lastTop);
      el("title", {}, x1).textContent = `${pieceName(ev.crushed)} was crushed here`;
    }
  }
  $("board").dataset.lastSteps = events.map((e) => e.step).join(" ");
}

export function drawLog() {
  const ol = $("log");
  ol.textContent = "";
  if (!S.story) return;
  for (const t of S.story.turns) {
    const li = document.createElement("li");
    li.dataset.turn = String(t.index);
    li.className = "seat-" + t.seat + (t.events.some((e) => e.crushed) ? " kill" : "");
    li.textContent = turnSentences(t.events, S.story.places);
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

export function drawSeatList(st) {
  const ul = $("seat-list");
  ul.textContent = "";
  if (!S.story) return;
  for (const s of st.seats) {
    const li = document.createElement("li");
    const place = st.drawn ? st.places[s.seat] : S.story.places[s.seat];
    const out = S.story.outOrder.includes(s.seat);
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
