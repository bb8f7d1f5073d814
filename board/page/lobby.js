// The lobby and the history (splut gui's tables): the views the address
// names, a table's open seat taken, a finished game opened.

import { S, $ } from "./state.js";
import { api, keepToken, showError } from "./api.js";
import { openGame } from "./tables.js";
import { startNew } from "./review.js";
import { levelName } from "./form.js";
import { ORDINAL, SEAT_NAME } from "./narrate.js";

// A seat as the server tells it (who sits there: `engine`, `person` or
// `open`; its place in a finished game), in words. The page computes
// nothing of it.
export function sitterWord(s) {
  if (s.who === "engine") return `engine, ${levelName(s.level)}`;
  if (s.who === "open") return "open";
  // Turns the engine played for them (away, left, or out of time): the
  // record writes the seat `person-unrated(engine:…)`.
  const n = (s.stood_in || []).length;
  const engine = n ? `, unrated: the engine played ${n} turn${n === 1 ? "" : "s"}` : "";
  return (s.name || (s.invited ? "invited" : "person")) + (s.left ? ", left" : "") + engine;
}

export function seatsLine(seats) {
  return seats.map((s) => `${SEAT_NAME[s.seat]}: ${sitterWord(s)}${s.place ? ` (${ORDINAL[s.place]})` : ""}`).join(" · ");
}

export function when(secs) { return secs ? new Date(secs * 1000).toLocaleString() : ""; }

export function textDiv(text, cls) {
  const d = document.createElement("div");
  d.textContent = text;
  if (cls) d.className = cls;
  return d;
}

// How often an open lobby reads the tables again (ms).
export const LOBBY_EVERY = 5000;

// The view the address names (#lobby, #history), drawn; none on the
// static board, which has no tables. An open lobby follows the tables
// (while the tab is seen).
export function showView() {
  const v = window.splutBackend ? "" : location.hash;
  $("lobby-view").classList.toggle("hidden", v !== "#lobby");
  $("history-view").classList.toggle("hidden", v !== "#history");
  clearInterval(S.lobbyTimer);
  S.lobbyTimer = null;
  if (v === "#lobby") {
    drawLobby();
    S.lobbyTimer = setInterval(() => { if (!document.hidden) drawLobby(true); }, LOBBY_EVERY);
  }
  if (v === "#history") drawHistory(false);
}

// Back to the game alone: the view's name out of the address.
export function closeView() {
  window.history.replaceState(null, "", location.pathname + location.search);
  showView();
}

// The lobby's tables drawn; `quiet` (a refresh) says nothing of a failure.
export async function drawLobby(quiet) {
  let r;
  try { r = await api("GET", "/api/lobby"); } catch (e) {
    if (!quiet) showError(`Lobby: ${e.message}`, false);
    return;
  }
  $("lobby-list").replaceChildren(...r.tables.map((t) => {
    const li = document.createElement("li");
    li.dataset.game = String(t.id);
    li.append(textDiv(`Table ${t.id}: ${t.players} players, since ${when(t.created)}`),
      textDiv(seatsLine(t.seats), "seats-line"));
    for (const s of t.seats.filter((x) => x.who === "open")) {
      const b = document.createElement("button");
      b.className = "sit";
      b.dataset.seat = s.seat;
      b.textContent = `Sit at ${SEAT_NAME[s.seat]}`;
      b.addEventListener("click", () => sitAt(t.id, s.seat));
      li.append(b);
    }
    return li;
  }));
  $("lobby-empty").classList.toggle("hidden", r.tables.length > 0);
}

// Takes a table's open seat under the name typed: its token is kept as a
// link's, and the game opens as that seat.
export async function sitAt(id, seat) {
  const name = $("lobby-name").value.trim();
  if (!name) {
    showError("Your name first: the table shows it", false);
    $("lobby-name").focus();
    return;
  }
  try {
    const r = await api("POST", `/api/lobby/${id}/sit`, { seat, name });
    keepToken(r.id, r.token);
    closeView();
    await openGame(r.id, "The table's game");
  } catch (e) {
    showError(`Sit at ${SEAT_NAME[seat]}: ${e.message}`, false);
    drawLobby();
  }
}

export async function drawHistory(more) {
  const q = more && S.historyNext !== null ? `?before=${S.historyNext}` : "";
  let r;
  try { r = await api("GET", `/api/history${q}`); } catch (e) { showError(`History: ${e.message}`, false); return; }
  const ol = $("history-list");
  if (!more) ol.textContent = "";
  for (const g of r.games) ol.append(historyItem(g));
  S.historyNext = r.next === undefined ? null : r.next;
  $("history-more").classList.toggle("hidden", S.historyNext === null);
  $("history-empty").classList.toggle("hidden", ol.children.length > 0);
}

export function historyItem(g) {
  const li = document.createElement("li");
  li.dataset.game = String(g.id);
  li.append(textDiv(`${when(g.ended)}: ${g.steps} steps`), textDiv(seatsLine(g.seats), "seats-line"));
  const a = document.createElement("a");
  a.className = "button download";
  a.href = `/api/history/${g.id}/record`;
  a.download = `splut-game-${g.id}.txt`;
  a.textContent = "Download record";
  const open = document.createElement("button");
  open.className = "open";
  open.textContent = "Open it";
  open.addEventListener("click", () => openRecord(g.id));
  li.append(a, open);
  return li;
}

// A finished game opened on the board, as a record loaded: its moves to
// browse, its review.
export async function openRecord(id) {
  if (S.game && !S.game.gameover && !S.game.closed && !confirm("A game is running. Replace it with this one?")) return;
  let text;
  try {
    const r = await fetch(`/api/history/${id}/record`);
    text = await r.text();
    if (!r.ok) throw new Error(r.status === 404 ? "no such finished game" : `HTTP ${r.status}`);
  } catch (e) { showError(`The record: ${e.message}`, false); return; }
  closeView();
  await startNew({ record: text });
}
