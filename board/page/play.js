// A person's steps: the squares lit, the chooser among steps between two
// squares, clicks and drags, the step posted.

import { S, $ } from "./state.js";
import { centre, el, seatOf } from "./board.js";
import { api, showError } from "./api.js";
import { mine } from "./tables.js";
import { render } from "./render.js";
import { path } from "./overlays.js";
import { DIR_NAME, pieceName } from "./narrate.js";

// A person's seat in words: the name they gave, else who they are.
export function personWord(s) {
  if (s && s.name) return s.name;
  return s && s.invited ? "invited" : "person";
}

// The engine playing a person's seat now, in words (away, left, or their
// clock ran out this turn); null while its person plays it.
export function standInWords(s) {
  if (!s || s.engine) return null;
  if (s.clock && s.clock.out) return `engine for ${personWord(s)}, whose time ran out`;
  if (s.stand_in) return `engine for ${personWord(s)}, ${s.left ? "who left" : "away"}`;
  return null;
}

// A person to move at this screen, and playing it (no engine standing in).
export function personToMove() {
  if (!S.game || S.viewing !== null || S.game.gameover || S.game.error || S.game.thinking || !S.game.side) return false;
  const s = seatOf(S.game.side);
  return mine(s) && !standInWords(s);
}

// The steps a person may choose, each as the event it would be.
export function legalSteps() { return personToMove() ? S.game.legal_events || [] : []; }

// The squares a person can move from get a ring (not a veil: they are the
// ones to touch); the selected one and its targets are lit.
export function highlight() {
  const steps = legalSteps();
  const froms = new Set(steps.map((s) => s.from));
  const targets = new Set(steps.filter((s) => s.from === S.selected).map((s) => s.to));
  S.layers.movable.textContent = "";
  for (const hit of S.layers.hits.children) {
    const sq = hit.dataset.square;
    const from = froms.has(sq) && S.selected === null;
    hit.classList.toggle("from", from);
    hit.classList.toggle("selected", sq === S.selected);
    hit.classList.toggle("target", targets.has(sq));
    const [x, y] = centre(sq);
    if (from) {
      el("circle", { cx: x, cy: y, r: 25, class: "movable" }, S.layers.movable);
      el("circle", { cx: x + 19, cy: y - 19, r: 5, class: "movable-dot" }, S.layers.movable);
    }
    if (targets.has(sq)) el("circle", { cx: x, cy: y, r: 8, class: "target-dot" }, S.layers.movable);
  }
}

export function hideChooser() {
  $("chooser").classList.add("hidden");
  $("chooser-buttons").textContent = "";
  if (S.layers.preview) S.layers.preview.textContent = "";
}

// A choice among the steps between the same two squares (events), in
// words; a throw names where the rock lands and whom it crushes.
export function describe(s) {
  if (s.type === "pull") return `pull the rock from ${s.rock[0]}`;
  if (s.type === "levitate") return `levitate the rock from ${s.rock[0]} to ${s.rock[1]}`;
  if (s.type === "throw") {
    if (!s.landing) return `throw ${DIR_NAME[s.throw]}`;
    const victim = s.crushed ? `, crushing ${pieceName(s.crushed)}` : "";
    return `throw ${DIR_NAME[s.throw]}: lands on ${s.landing}${victim}`;
  }
  return "just step";
}

// Draws where each offered throw would land (and what it would crush).
export function previewThrows(cands) {
  S.layers.preview.textContent = "";
  for (const c of cands) {
    if (c.type !== "throw" || !c.landing) continue;
    const g = el("g", { class: "throw-preview", "data-step": c.step, "data-landing": c.landing,
                        "data-crushed": c.crushed || "" }, S.layers.preview);
    path(g, [c.to, ...c.flight], "preview-flight");
    const [x, y] = centre(c.landing);
    el("circle", { cx: x, cy: y, r: 24, class: c.crushed ? "preview-victim" : "preview-land" }, g);
    const label = el("text", { x: x - 5, y: y + 5, class: "arrow-label" }, g);
    label.textContent = c.throw.toUpperCase();
  }
}

export function showChooser(cands) {
  $("chooser-title").textContent = `${S.selected}→${cands[0].to}: `;
  const box = $("chooser-buttons");
  box.textContent = "";
  for (const c of cands) {
    const b = document.createElement("button");
    b.textContent = describe(c);
    b.dataset.step = c.step;
    b.addEventListener("click", () => { hideChooser(); playStep(c.step); });
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "cancel";
  cancel.addEventListener("click", () => { hideChooser(); S.selected = null; highlight(); });
  box.appendChild(cancel);
  $("chooser").classList.remove("hidden");
  previewThrows(cands);
}

export function clickSquare(sq) {
  if (!personToMove()) return;
  const steps = legalSteps();
  if (S.selected) {
    const cands = steps.filter((s) => s.from === S.selected && s.to === sq);
    if (cands.length === 1) { hideChooser(); playStep(cands[0].step); return; }
    // Ambiguous: pull or not, throw direction, levitate or not / which rock.
    if (cands.length > 1) { showChooser(cands); return; }
  }
  hideChooser();
  S.selected = steps.some((s) => s.from === sq) && S.selected !== sq ? sq : null;
  highlight();
}

// Dragging a piece to its square works as two clicks (a tap is a click).
export function dragStart(ev, sq) {
  S.dragFrom = personToMove() && legalSteps().some((s) => s.from === sq) ? sq : null;
}
export function dragEnd(ev) {
  const from = S.dragFrom;
  S.dragFrom = null;
  if (!from) return;
  const target = document.elementFromPoint(ev.clientX, ev.clientY);
  const sq = target && target.dataset && target.dataset.square;
  if (!sq || sq === from) return;  // a click: the click handler has it
  S.selected = from;
  clickSquare(sq);
}
export async function playStep(text) {
  S.selected = null;
  window.splut.stepPosted = performance.now();
  try { render(await api("POST", `/api/games/${S.game.id}/step`, { step: text })); }
  catch (e) { showError(`Step refused: ${e.message}`, false); highlight(); }
}
