// The new-game form: the start, each seat's person or engine and level,
// the pace; a new game asked for.

import { S, $ } from "./state.js";
import { buildBoard, drawPosition } from "./board.js";
import { api, showError } from "./api.js";
import { showTakeover } from "./tables.js";
import { render, roleIn } from "./render.js";
import { startNew } from "./review.js";
import { SEAT_NAME } from "./narrate.js";

// The form's start as the preview's query: the SPN typed, else the
// player count.
export function formQuery() {
  const spn = $("start-spn").value.trim();
  return spn ? `spn=${encodeURIComponent(spn)}` : `players=${$("players").value}`;
}

// The seats of the form's start, as the host says: a player count's from
// its config at once, a typed SPN's from its preview of it (none while
// that is not read, or refused).
export function seatLetters() {
  if (S.formStart && S.formStart.query === formQuery() && S.formStart.start) return S.formStart.start.seats;
  const byPlayers = S.config && S.config.seats_by_players;
  if (!$("start-spn").value.trim() && byPlayers) return byPlayers[$("players").value] || null;
  return null;
}

// Each seat's choice of person or engine, kept while "Engines only" shows
// every seat as the engine and while the seats are drawn again.
export const chosenKind = {};

export function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text; select.appendChild(o);
}

// The column heads of a seat grid; each control is named by its seat and
// column (aria-labelledby).
export function gridHeads(box, cols) {
  box.style.gridTemplateColumns = cols.map(() => "auto").join(" ");
  for (const [id, text] of cols) {
    const h = document.createElement("span");
    h.id = id; h.className = "seat-head"; h.textContent = text;
    box.appendChild(h);
  }
}

// The seats: person or engine for each (always shown), and in the
// "Advanced" fold each engine's algorithm, time per turn and own level.
export function drawSeatForm() {
  const box = $("seats"), adv = $("seats-advanced");
  const letters = seatLetters() || [];
  S.drawnLetters = letters.join("");
  const old = {};
  for (const s of "rygb") {
    if ($(`algo-${s}`)) old[s] = { algo: $(`algo-${s}`).value, ms: $(`ms-${s}`).value };
  }
  const enginesOnly = $("engines-only").checked;
  box.textContent = "";
  adv.textContent = "";
  const choices = levelChoices();
  if (letters.length) {
    gridHeads(box, [["col-seat", "Seat"], ["col-kind", "Person/Engine"]]);
    const cols = [["col-seat-adv", "Seat"], ["col-algo", "Algorithm"], ["col-ms", "ms per turn"]];
    if (choices.length > 1) cols.push(["col-level", "Level"]);
    gridHeads(adv, cols);
  }
  letters.forEach((s, i) => {
    const name = (id) => {
      const n = document.createElement("span");
      n.textContent = SEAT_NAME[s]; n.className = "seat-" + s; n.id = id;
      return n;
    };
    const named = (e, col, seatId) => e.setAttribute("aria-labelledby", `${seatId} ${col}`);
    const kind = document.createElement("select");
    kind.id = `kind-${s}`;
    kind.dataset.seat = s;
    named(kind, "col-kind", `seat-${s}`);
    option(kind, "person", "person");
    option(kind, "engine", "engine");
    // A friend on their own device: a server's tables only.
    if (!window.splutBackend) option(kind, "invite", "friend (link)");
    if (!chosenKind[s]) chosenKind[s] = i === 0 ? "person" : "engine";
    kind.value = enginesOnly ? "engine" : chosenKind[s];
    kind.disabled = enginesOnly;
    kind.addEventListener("change", () => { chosenKind[s] = kind.value; showTakeover(); });
    box.append(name(`seat-${s}`), kind);
    showTakeover();
    const algo = document.createElement("select");
    algo.id = `algo-${s}`;
    named(algo, "col-algo", `seat-adv-${s}`);
    for (const a of (S.config && S.config.algorithms.length ? S.config.algorithms : ["auto"])) option(algo, a, a);
    if (old[s] && [...algo.options].some((o) => o.value === old[s].algo)) algo.value = old[s].algo;
    const ms = document.createElement("input");
    ms.type = "number"; ms.id = `ms-${s}`; ms.value = old[s] ? old[s].ms : "1000";
    ms.min = "10"; ms.max = "600000";
    ms.title = "the engine's time per turn, in milliseconds";
    named(ms, "col-ms", `seat-adv-${s}`);
    adv.append(name(`seat-adv-${s}`), algo, ms);
    if (choices.length > 1) {
      const level = document.createElement("select");
      level.id = `level-${s}`;
      named(level, "col-level", `seat-adv-${s}`);
      for (const [v, t] of choices) option(level, v, t);
      const kept = rememberedLevel(s);
      if (choices.some((c) => c[0] === kept)) level.value = kept;
      level.addEventListener("change", () => { rememberLevel(s, level.value); syncLevel(); noteLevelForNext(); });
      adv.append(level);
    }
  });
  syncLevel();
}

// The levels the engine offers, on one scale: [value, label], weakest
// first, full strength last; named for people by the host
// (splut_board::session::config, the same on both hosts).
export function levelChoices() {
  return (S.config && S.config.level_choices && S.config.level_choices.length) ? S.config.level_choices : [["full", "Full strength"]];
}

// A seat's level as the seat list shows it.
export function levelName(level) {
  if (!level) return "full strength";
  const value = level.elo !== undefined ? `elo:${level.elo}` : `skill:${level.skill}`;
  const c = levelChoices().find((x) => x[0] === value);
  return c ? c[1] : level.elo !== undefined ? `Elo ${level.elo}` : `skill ${level.skill}`;
}

// Each seat's level is remembered between games (and page loads).
export function rememberedLevel(s) {
  // A first visit gets the host's beatable named level, not full strength.
  const first = (S.config && S.config.level_default) || "full";
  try { return localStorage.getItem(`splut.level.${s}`) || first; } catch (e) { return first; }
}
export function rememberLevel(s, v) {
  try { localStorage.setItem(`splut.level.${s}`, v); } catch (e) { /* private mode: not kept */ }
}

// One choice sets every engine seat's level; it shows "mixed" when the
// seats' own levels (advanced) differ.
// A level chosen while a game runs is for the next one: said beside it.
export function noteLevelForNext() {
  $("level-next").classList.toggle("hidden", !S.game || !!S.game.gameover);
}

export function drawLevelChoice() {
  const sel = $("level");
  sel.textContent = "";
  const choices = levelChoices();
  $("level-row").classList.toggle("hidden", choices.length < 2);
  for (const [v, t] of choices) option(sel, v, t);
  option(sel, "mixed", "(each seat its own, see Advanced)");
}
export function syncLevel() {
  const vals = new Set([...document.querySelectorAll("#seats-advanced select[id^=level-]")].map((e) => e.value));
  $("level").value = vals.size === 1 ? [...vals][0] : "mixed";
}
export function setAllLevels() {
  const v = $("level").value;
  if (v === "mixed") return;
  for (const e of document.querySelectorAll("#seats-advanced select[id^=level-]")) {
    e.value = v;
    rememberLevel(e.id.slice(-1), v);
  }
}

export function levelOf(s) {
  const e = $(`level-${s}`);
  if (!e || e.value === "full") return undefined;
  const [kind, v] = e.value.split(":");
  return { [kind]: Number(v) };
}

// "Engines only": every seat shows as the engine and cannot be a person.
export function setEnginesOnly() {
  const on = $("engines-only").checked;
  for (const kind of $("seats").querySelectorAll("select[data-seat]")) {
    kind.value = on ? "engine" : chosenKind[kind.dataset.seat];
    kind.disabled = on;
  }
  showTakeover();
}

// The host reads the form's start (GET /api/preview) when the form
// changes, and once typing pauses: its seats for the form, its refusal
// under the SPN, and before the first game its board drawn.
export async function readForm() {
  const token = ++S.previewToken;
  const query = formQuery();
  const typed = !!$("start-spn").value.trim();
  let p = null, err = null;
  try { p = await api("GET", `/api/preview?${query}`); } catch (e) { err = e.message; }
  if (token !== S.previewToken) return;
  S.formStart = { query, start: p, error: err };
  $("spn-hint").textContent = err && typed ? `Not a starting position yet: ${err}` : "";
  // The seats drawn again only when a start read has others: the
  // controls being set stay, and a start refused (an SPN half typed)
  // moves nothing on the page.
  const letters = seatLetters();
  if (letters && letters.join("") !== S.drawnLetters) drawSeatForm();
  if (S.game || (p && p.spn === S.drawnSpn)) return;
  buildBoard();
  if (!p) return;
  drawPosition(p.board);
  $("board").dataset.preview = "1";
}

// The form's start as it reads now: asked again if it changed since.
export async function formNow() {
  clearTimeout(S.spnTimer);
  if (!S.formStart || S.formStart.query !== formQuery()) await readForm();
  return S.formStart && S.formStart.query === formQuery() ? S.formStart : null;
}

export function formChanged() {
  // A player count's seats at once; a typed SPN's once the host read it.
  if (!$("start-spn").value.trim()) drawSeatForm();
  return readForm();
}

export function spnTyped() {
  clearTimeout(S.spnTimer);
  S.spnTimer = setTimeout(formChanged, 350);
}

// Start: a running game is only replaced once the person says so.
export async function newGame(confirmed) {
  if (S.game && !S.game.gameover && !S.game.closed && !confirmed) {
    // A guest's or a spectator's new game leaves the host's table playing.
    const role = roleIn(S.game);
    $("replace-text").textContent = role === "host" ? "A game is running. Replace it with a new one?"
      : role === "seat" ? "Leave this table and start your own game? The table plays on, the engine in your seat."
      : "Stop watching this table and start your own game?";
    $("confirm-replace").textContent = role === "host" ? "Replace it" : "Leave and start";
    $("replace-confirm").classList.remove("hidden");
    $("confirm-replace").focus();
    return;
  }
  $("replace-confirm").classList.add("hidden");
  const allEngines = $("engines-only").checked;
  const start = await formNow();
  const letters = seatLetters();
  if (!letters) { showError(start && start.error ? start.error : "The start is not read yet: try again", false); return; }
  const seats = letters.map((s) => ({
    engine: allEngines || $(`kind-${s}`).value === "engine",
    invite: !allEngines && $(`kind-${s}`).value === "invite",
    algorithm: $(`algo-${s}`).value,
    movetime: Number($(`ms-${s}`).value) || 1000,
    level: levelOf(s),
  }));
  const invites = seats.some((s) => s.invite);
  const spn = $("start-spn").value.trim();
  const body = spn ? { spn, seats } : { players: Number($("players").value), seats };
  body.pace = $("pace").value;
  if (invites) body.takeover = Number($("takeover").value) || 60;
  if (invites && $("lobby-listed").checked) body.lobby = true;
  if ($("clock-on").checked && !$("clock-row").classList.contains("hidden")) {
    body.clock = { base: Math.round(Number($("clock-min").value) * 60), increment: Number($("clock-inc").value) || 0 };
  }
  if (await startNew(body)) $("spn-hint").textContent = "";
}

export async function setPace() {
  if (!S.game) return;
  try { render(await api("POST", `/api/games/${S.game.id}/pace`, { pace: $("pace").value })); }
  catch (e) { showError(`Pace: ${e.message}`, false); }
}

export async function nextStep() {
  if (!S.game) return;
  try { render(await api("POST", `/api/games/${S.game.id}/next`)); }
  catch (e) { showError(`Next step: ${e.message}`, false); }
}
