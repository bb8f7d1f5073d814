// splut gui: the page. It draws what the server says and never reads an
// SPN nor decides legality itself: every position comes with its board as
// the rules read it (splut-board's BoardView: `board` in the state,
// `boards` in the positions, the preview's `board`), and what each step
// did or would do comes as events (splut-board's events: turns[].events,
// legal_events), which the page draws and narrate.js puts in words.
//
// This module starts it: the page is ES modules around one state object
// (state.js); each module one concern (board, api, tables, lobby, play,
// render, log, clocks, moves, overlays, evaluation, review, keep, form,
// narrate).

import { S, $ } from "./state.js";
import { buildBoard } from "./board.js";
import { api, showError } from "./api.js";
import { addressChanged, copyText, joinFromLink, leaveSeat, takeSeat } from "./tables.js";
import { drawHistory, drawLobby, showView } from "./lobby.js";
import { playStep } from "./play.js";
import { endHere, render } from "./render.js";
import { drawClocks } from "./clocks.js";
import { browseKey, toLive } from "./moves.js";
import { askHint, drawThreats } from "./overlays.js";
import { loadRecord, reviewGame } from "./review.js";
import { keepGame, resumeGame } from "./keep.js";
import { drawLevelChoice, drawSeatForm, formChanged, newGame, nextStep, noteLevelForNext, readForm, setAllLevels, setEnginesOnly, setPace, spnTyped } from "./form.js";
import { narrateGame, SEAT_NAME, sentence, stepWords, turnSentences } from "./narrate.js";

function showHelp(open) {
  $("help").classList.toggle("hidden", !open);
  if (open) $("help-close").focus();
}

function wire() {
  $("players").addEventListener("change", formChanged);
  $("start-spn").addEventListener("input", spnTyped);
  // "change" too: a field cleared by a script or a form tool fires no "input".
  $("start-spn").addEventListener("change", () => { clearTimeout(S.spnTimer); formChanged(); });
  $("engines-only").addEventListener("change", setEnginesOnly);
  $("level").addEventListener("change", () => { setAllLevels(); noteLevelForNext(); });
  $("newgame-form").addEventListener("submit", (ev) => { ev.preventDefault(); newGame(false); });
  $("confirm-replace").addEventListener("click", () => newGame(true));
  $("cancel-replace").addEventListener("click", () => $("replace-confirm").classList.add("hidden"));
  $("pass").addEventListener("click", () => playStep("pass"));
  $("join").addEventListener("submit", takeSeat);
  $("leave").addEventListener("click", leaveSeat);
  $("pace").addEventListener("change", setPace);
  $("clock-on").addEventListener("change", () => $("clock-times").classList.toggle("hidden", !$("clock-on").checked));
  setInterval(drawClocks, 250);
  $("next-step").addEventListener("click", nextStep);
  $("finish-fast").addEventListener("click", () => { $("pace").value = "none"; setPace(); });
  $("end-here").addEventListener("click", endHere);
  $("help-open").addEventListener("click", () => showHelp(true));
  window.addEventListener("hashchange", addressChanged);
  // A reload or a closed tab keeps the running clock as it stands.
  window.addEventListener("pagehide", () => { if (S.game) keepGame(S.game); });
  $("lobby-refresh").addEventListener("click", () => drawLobby());
  $("history-more").addEventListener("click", () => drawHistory(true));
  $("help-close").addEventListener("click", () => showHelp(false));
  $("banner-close").addEventListener("click", () => { S.bannerClosed = S.game && S.game.id; $("banner").classList.add("hidden"); });
  $("takeback").addEventListener("click", async () => {
    if (!S.game) return;
    if (S.viewing !== null) toLive();
    try { render(await api("POST", `/api/games/${S.game.id}/takeback`)); }
    catch (e) { showError(`Take back: ${e.message}`, false); }
  });
  $("restart").addEventListener("click", async () => {
    try { render(await api("POST", `/api/games/${S.game.id}/restart`)); }
    catch (e) { showError(`Restart failed: ${e.message}`, true); }
  });
  $("hint").addEventListener("click", askHint);
  $("threats-toggle").addEventListener("change", () => { S.threatsShown = null; drawThreats(); });
  $("live").addEventListener("click", toLive);
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && !$("help").classList.contains("hidden")) { showHelp(false); return; }
    browseKey(ev);
  });
  $("review").addEventListener("click", reviewGame);
  $("record-file").addEventListener("change", (ev) => {
    const f = ev.target.files[0];
    ev.target.value = "";  // the same file chosen again loads again
    if (f) loadRecord(f);
  });
  $("copy-spn").addEventListener("click", () => copyText($("spn-text")));
}

// Without a server (the static board of scripts/web) the record is made
// in the page: a file from it when the link is clicked.
function wireLocalRecord() {
  if (!window.splutBackend) return;
  $("download").addEventListener("click", async (ev) => {
    ev.preventDefault();
    if (!S.game) return;
    try {
      const text = await api("GET", `/api/games/${S.game.id}/record`);
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      a.download = "splut-game.txt";
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    } catch (e) { showError(e.message, false); }
  });
}

async function main() {
  buildBoard();
  readForm();  // beside the config request, not after it
  wire();
  try {
    S.config = await api("GET", "/api/config");
    if (S.config.engine_error) showError(`The engine could not start: ${S.config.engine_error}`, false);
  } catch (e) { showError(`No server: ${e.message}`, false); }
  wireLocalRecord();
  $("tables-nav").classList.toggle("hidden", !!window.splutBackend);
  showView();
  drawLevelChoice();
  drawSeatForm();
  if (!(await joinFromLink()) && !(await resumeGame())) $("status-text").textContent = "Start a game";
  window.splut.ready = performance.now();
  document.body.dataset.ready = "1";
}

// What the browser tests reach from their scripts (docs/testing.md), as
// the page's globals were before it was modules: the game shown and the
// poll's token, the API, a step played, a notice, and the words of
// events.
Object.defineProperty(window, "game", { get: () => S.game, set: (v) => { S.game = v; } });
Object.defineProperty(window, "pollToken", { get: () => S.pollToken, set: (v) => { S.pollToken = v; } });
Object.assign(window, { api, playStep, showError, narrateGame, turnSentences, sentence, stepWords, SEAT_NAME });

main();
