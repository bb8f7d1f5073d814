// A state drawn: the controls, the status line, the engine's thinking,
// and the end's banner.

import { S, $ } from "./state.js";
import { buildBoard, centre, drawPosition, seatOf, turnsFor } from "./board.js";
import { api, keepToken, showError, tokenFor } from "./api.js";
import { drawTable, mine } from "./tables.js";
import { hideChooser, highlight, personToMove, personWord, standInWords } from "./play.js";
import { drawLog, drawSeatList } from "./log.js";
import { drawMoves } from "./moves.js";
import { drawOverlays } from "./overlays.js";
import { drawEvalBar, drawGraph } from "./evaluation.js";
import { showReview } from "./review.js";
import { keepGame } from "./keep.js";
import { narrateGame, ORDINAL, SEAT_NAME, sentence } from "./narrate.js";

export function render(st) {
  if (!st || (S.game && st.id === S.game.id && st.version < S.game.version)) return;
  if (st.links) keepToken(st.id, st.links.host);
  const firstDraw = !S.game || S.game.id !== st.id;
  if (firstDraw) { S.boardTurns = turnsFor(st); buildBoard(); window.splut.log = []; S.lastThought = null; }
  S.game = st;
  S.clockSeen = performance.now();
  keepGame(st);
  document.body.classList.remove("no-game");
  if (firstDraw) {
    S.viewing = null; S.positions = null; S.hint = null; S.reviewed = null;
    $("browsing").classList.add("hidden");
    $("hint-text").classList.add("hidden");
    $("newgame").open = false;  // folded away while the game runs
    $("level-next").classList.add("hidden");
    showReview();
  }
  S.story = narrateGame(st.turns);
  // The places are the rules' (Game::places, in the state), not the page's.
  if (S.story) S.story.places = st.places || {};
  if (S.viewing === null && st.board && st.board.spn !== S.drawnSpn) drawPosition(st.board);
  window.splut.log.push({ t: performance.now(), version: st.version, steps: st.step_count,
                          side: st.side, thinking: !!st.thinking, spn: st.spn,
                          think: st.thinking ? `${st.step_count}${st.thinking.seat}` : null });
  if (window.splut.log.length > 2000) window.splut.log.shift();
  drawStatus(st);
  const board = $("board");
  board.dataset.side = st.side || "";
  board.dataset.stepsLeft = st.steps_left == null ? "" : String(st.steps_left);
  board.dataset.version = String(st.version);
  board.dataset.gameId = String(st.id);
  drawBanner(st);
  if (st.error) showError(st.error, !st.engine_running && roleIn(st) === "host");
  else if (!$("error-text").textContent.startsWith("Step refused")) showError("", false);
  drawThinking(st);
  drawMoves(st);
  drawLog();
  drawSeatList(st);
  drawTable(st);
  drawEvalBar(st);
  drawGraph(st);
  if (S.hint && S.hint.step_count !== st.step_count) { S.hint = null; $("hint-text").classList.add("hidden"); }
  drawOverlays();
  $("spn-text").value = st.spn || "";
  if (!window.splutBackend) {
    const t = tokenFor(st.id);
    $("download").href = `/api/games/${st.id}/record` + (t ? `?token=${t}` : "");
  }
  $("pass").classList.toggle("hidden", !(personToMove() && st.legal.includes("pass")));
  if (st.pace && $("pace").value !== st.pace) $("pace").value = st.pace;
  drawControls(st);
  if (!personToMove()) { S.selected = null; hideChooser(); }
  highlight();
}

// This page's part in a game: "host" (also a game of its own and the
// static board's), "seat" (a guest) or "spectator".
export function roleIn(st) { return st && st.you ? st.you.role : "host"; }

// The controls only those who may use them see: take-back, pace, the
// next engine step and the engine's restart are the host's; a review
// anyone seated may ask for (the server's rules, server/src/api.rs).
export function drawControls(st) {
  const role = roleIn(st);
  $("takeback").classList.toggle("hidden", role !== "host");
  $("pace-row").classList.toggle("hidden", role !== "host");
  $("next-step").classList.toggle("hidden", !st.waiting || role !== "host");
  $("review-row").classList.toggle("hidden", role === "spectator");
  // Every person out: the engines play on, at full speed if asked.
  $("finish-fast").classList.toggle("hidden", role !== "host" || !personsOut(st).length || st.pace === "none");
  // Or ends the game there, the seats still in sharing the places left.
  $("end-here").classList.toggle("hidden", role !== "host" || !personsOut(st).length);
  $("hint").classList.toggle("hidden", role === "spectator");
}

export function drawStatus(st) {
  const status = $("status"), text = $("status-text");
  const out = personsOut(st);
  if (st.gameover) text.textContent = st.drawn ? "Game over: drawn" : "Game over";
  else if (st.side) {
    const who = seatOf(st.side);
    const whoWord = who && who.engine ? "engine" : standInWords(who) || (mine(who, st) ? "you" : personWord(who));
    text.textContent = `${SEAT_NAME[st.side]} to move (${whoWord}), ` +
      `${st.steps_left} step${st.steps_left === 1 ? "" : "s"} left, turn ${st.turn}`;
    if (out.length) text.textContent = `You are out (${outWords(out, st)}). ` + text.textContent;
  }
  status.className = "status seat-" + (st.side || "");
  status.dataset.out = out.join("");
  // Nothing left to take back or hint for a person who is out; at a
  // table, take-backs are the host's.
  $("takeback").disabled = out.length > 0 || (!!st.you && st.you.role !== "host");
  $("hint").disabled = hintOff(st) || S.hintBusy;
}

// No hint for a person who is out, nor on an engine's turn (it would be
// the engine's own turn, issue 52), nor once the game is over.
export function hintOff(st) {
  const mover = st && !st.gameover && st.side ? seatOf(st.side) : null;
  return !st || st.gameover || personsOut(st).length > 0 ||
    !!(mover && (mover.engine || !mine(mover) || standInWords(mover)));
}

// "Green, 3rd": the seats out and their places.
export function outWords(seats, st) {
  const places = st.places || {};
  return seats.map((s) => SEAT_NAME[s] + (places[s] ? `, ${ORDINAL[places[s]]}` : "")).join("; ");
}

// The engine's thinking line, the same from either host: the last report
// with a depth of this thought (a copy: the static board's state is live),
// kept while a later report has none, and after the thought as "thought".
export function drawThinking(st) {
  const th = st.thinking;
  const infoText = (i) => `depth ${i.depth}  score ${i.score || "?"}  nodes ${i.nodes ?? "?"}  ` +
    `time ${i.time ?? "?"} ms\npv ${(i.pv || []).join(" ")}`;
  if (th) {
    const key = `${st.step_count}${th.seat}`;
    if (!S.lastThought || S.lastThought.key !== key) S.lastThought = { key, seat: th.seat, info: null };
    if (th.info && th.info.depth != null) S.lastThought.info = { ...th.info, pv: [...(th.info.pv || [])] };
  }
  const box = $("thinking");
  if (th) box.textContent = `${SEAT_NAME[th.seat]} thinking…\n` + (S.lastThought.info ? infoText(S.lastThought.info) : "");
  else if (S.lastThought && S.lastThought.info) box.textContent = `${SEAT_NAME[S.lastThought.seat]} thought:\n` + infoText(S.lastThought.info);
  else box.textContent = "";
}

// The seat these marks and words are for: the person to move, else the
// next person in turn order still in the game; none in an engines' game.
// None either once every person is out: their next turn never comes.
export function viewerSeat() {
  if (!S.game) return null;
  const persons = S.game.seats.filter((s) => mine(s)).map((s) => s.seat);
  const inGame = new Set(S.game.board ? S.game.board.seats : persons);
  const order = "rygb";
  const from = Math.max(0, order.indexOf(S.game.side || "r"));
  for (let k = 0; k < 4; k++) {
    const s = order[(from + k) % 4];
    if (persons.includes(s) && inGame.has(s)) return s;
  }
  return null;
}

// The person seats, when every one of them is out of a game that goes on
// (the engines play it out); else none.
export function personsOut(st) {
  const persons = st.seats.filter((s) => mine(s, st)).map((s) => s.seat);
  const out = S.story ? S.story.outOrder : [];
  return !st.gameover && persons.length && persons.every((s) => out.includes(s)) ? persons : [];
}
// The end: who won, how (the step that ended it, in words), every place.
export function drawBanner(st) {
  const banner = $("banner");
  banner.classList.toggle("hidden", !st.gameover || S.bannerClosed === st.id);
  banner.dataset.winner = st.winner || "";
  $("notices").classList.remove("at-bottom");
  if (!st.gameover) return;
  let last = null;
  for (const t of S.story ? S.story.turns : []) for (const e of t.events) if (e.out.length) last = e;
  if (st.drawn) {
    // The board's draw rules, or the host, ended a game no person was
    // left playing.
    $("banner-title").textContent = "Drawn";
    $("banner-reason").textContent = st.ended_here
      ? "The host ended the game with the places so far: the seats still in share the places left."
      : drawnWords(st.drawn);
    last = null;
  } else {
    $("banner-title").textContent = `${SEAT_NAME[st.winner] || st.winner} wins!`;
    $("banner-reason").textContent = last ? `The end: ${sentence(last, S.story.places)}`
      : "Only one sorcerer was on the board.";
  }
  // Over the board's bottom when the last kill is in its top half, so
  // that the banner hides no part of the end.
  const at = last && (last.landing || last.to);
  $("notices").classList.toggle("at-bottom", !!at && centre(at)[1] < 504 / 2);
  const places = st.drawn ? st.places : S.story ? S.story.places : {};
  const order = Object.entries(places).sort((a, b) => a[1] - b[1]);
  $("banner-places").textContent = order.length > 1
    ? "Places: " + order.map(([s, p]) => `${ORDINAL[p]} ${SEAT_NAME[s]}`).join(" · ") : "";
}

// Why the board's draw rules ended the game (`turn limit 200`,
// `repetition 3`), in words.
export function drawnWords(reason) {
  const seats = "the seats still in share the places left";
  if (reason.startsWith("repetition ")) {
    return `With no person left playing, a position came up ${reason.slice(11)} times: ${seats}.`;
  }
  if (reason.startsWith("turn limit ")) {
    return `With no person left playing, the game passed turn ${reason.slice(11)}: ${seats}.`;
  }
  return `Drawn (${reason}): ${seats}.`;
}

// The host ends the game once every person is out: the places so far.
export async function endHere() {
  if (!S.game) return;
  try { render(await api("POST", `/api/games/${S.game.id}/end`, {})); }
  catch (e) { showError(`End: ${e.message}`, false); }
}
