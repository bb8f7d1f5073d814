// The page's state: one object every module reads and writes (a module's
// own `let` could not be set from another), and what the browser tests
// read of its timing.

// Timing for the measurements the browser test reads.
window.splut = { ready: null, log: [], stepPosted: null };

/** The page's state. */
export const S = {
  config: null, // the host's /api/config: algorithms, levels, limits
  game: null, // the last state from the server
  pollToken: 0, // the poll running: a newer one ends an older
  selected: null, // the square of the person's piece chosen, if any
  drawnSpn: null, // the position drawn, as its SPN
  lastThought: null, // the engine's last search, shown after it
  rockEls: new Map(), // square -> rock <g>
  viewing: null, // the step count of the position browsed, null: live
  positions: null, // {id, count, boards}: every position of the game
  hint: null, // the last hint: {step_count, steps, marks}
  reviewed: null, // the last review: {id, count, turns}
  threatsShown: null, // the SPN of the position whose threats are drawn
  pieceEls: new Map(), // "rS" -> piece <g>
  story: null, // the game's events by turn (narrate.js: narrateGame)
  hintBusy: false, // a hint is asked for
  bannerClosed: null, // the game whose end banner the person hid
  boardTurns: 0, // quarter turns of the board drawn (board.js)
  layers: {}, // the board's SVG layers by name
  lobbyTimer: null, // the open lobby's refresh
  // The next page's `before`, if there is one.
  historyNext: null,
  dragFrom: null, // the square a drag started on
  // When the state shown came (the clocks' time left is as of then).
  clockSeen: 0,
  // The poll's request under way, aborted when the poll is no longer wanted.
  pollAbort: null,
  // The form's start as the host read it (GET /api/preview): the query
  // asked, and its answer ({spn, seats, side, board}) or why it was refused.
  formStart: null,
  drawnLetters: null, // the seats the form shows
  previewToken: 0, // the form's last preview asked: an older answer is dropped
  spnTimer: null, // the SPN typed is read once typing pauses
};

export const $ = (id) => document.getElementById(id);
