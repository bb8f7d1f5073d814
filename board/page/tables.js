// Tables (splut gui): whose seats this page plays, the table's links and
// names, an invitation's link taken up, the game followed.

import { S, $ } from "./state.js";
import { seatOf } from "./board.js";
import { api, keepToken, showError, tokenFor } from "./api.js";
import { showView } from "./lobby.js";
import { render } from "./render.js";
import { poll, stopPolling } from "./keep.js";
import { SEAT_NAME } from "./narrate.js";

// A person's seat this page plays: the host plays the people at its
// screen, a guest their own seat, a spectator none. (The static board
// has no tables: every person is at its screen.)
export function mine(s, st) {
  if (!s || s.engine) return false;
  const you = (st || S.game || {}).you;
  if (!you || you.role === "host") return !s.invited;
  return you.role === "seat" && you.seat === s.seat;
}

// The table as this page sees it: the host, the links of the invited
// seats and the spectators'; a guest not yet named, the form to take the
// seat. Names are text, never markup.
export function drawTable(st) {
  const links = st.links;
  const invited = st.seats.filter((s) => s.invited);
  $("table-links").classList.toggle("hidden", !links || !invited.length);
  if (links && invited.length) {
    const base = `${location.origin}${location.pathname}#join=${st.id}.`;
    const rows = invited.map((s) => [s.seat, `${SEAT_NAME[s.seat]}${s.name ? ` (${s.name})` : ""}`, links.seats[s.seat]])
      .concat([["spectator", "Spectators", links.spectator]]);
    const ul = $("table-link-list");
    ul.replaceChildren(...rows.map(([key, label, token]) => {
      const li = document.createElement("li");
      li.dataset.seat = key;
      const text = document.createElement("span");
      text.textContent = `${label}: `;
      const input = document.createElement("input");
      input.readOnly = true; input.className = "link"; input.value = base + token;
      input.setAttribute("aria-label", `${label}'s link`);
      const copy = document.createElement("button");
      copy.type = "button"; copy.className = "copy"; copy.textContent = "Copy";
      copy.setAttribute("aria-label", `Copy ${label}'s link`);
      copy.addEventListener("click", () => copyText(input, copy));
      li.append(text, input, copy);
      return li;
    }));
  }
  const you = st.you;
  const seat = you && you.role === "seat" ? seatOf(you.seat) : null;
  const form = $("join");
  const unnamed = !!seat && !seat.name && !seat.left;
  const asked = unnamed && form.classList.contains("hidden");
  if (asked) $("join-text").textContent = `You are invited to play ${SEAT_NAME[you.seat]}.`;
  form.classList.toggle("hidden", !unnamed);
  // Focused once shown (a hidden field takes no focus), in view on a phone.
  if (asked) { $("join-name").focus(); form.scrollIntoView({ block: "nearest" }); }
  // A guest may leave for good once seated (not once they have, nor
  // after the end).
  $("seat-away").classList.toggle("hidden", !seat || unnamed || !!seat.left || st.gameover);
}

// The takeover time is asked for when a seat is a friend's.
// So is the lobby (a table listed there); the clock when any is a person's.
export function showTakeover() {
  const kinds = [...document.querySelectorAll("#seats select")].map((k) => k.value);
  const any = kinds.includes("invite");
  $("takeover-row").classList.toggle("hidden", !any);
  $("lobby-row").classList.toggle("hidden", !any);
  $("clock-row").classList.toggle("hidden", !kinds.some((k) => k !== "engine"));
}

export async function leaveSeat() {
  if (!S.game || !confirm("Leave the game? The engine plays your seat to the end.")) return;
  try { render(await api("POST", `/api/games/${S.game.id}/leave`)); }
  catch (e) { showError(`Leave: ${e.message}`, false); }
}

export async function takeSeat(ev) {
  ev.preventDefault();
  if (!S.game) return;
  try { render(await api("POST", `/api/games/${S.game.id}/join`, { name: $("join-name").value })); }
  catch (e) { showError(`Your name: ${e.message}`, false); }
}

// An invitation's (or a spectator's) link, `#join=<game>.<token>`: its
// token kept, and its game taken up, at the page's load or whenever the
// address becomes one (a link pasted into a tab already open). Whether
// the address was one.
export async function joinFromLink() {
  const m = linkInAddress();
  if (!m || window.splutBackend) return false;
  const same = S.game && String(S.game.id) === m[1] && tokenFor(m[1]) === m[2];
  keepToken(m[1], m[2]);
  if (!same) await openGame(m[1], "This link's game");
  return true;
}

export function linkInAddress() { return /^#join=(\d+)\.([0-9a-f]{32})$/.exec(location.hash); }

// The address changed: a link's table taken up, else the view it names.
export async function addressChanged() {
  showView();
  await joinFromLink();
}

// A table's link left in the address once the page follows another game
// (the person left it), so that opening that link again is a change.
export function forgetOtherLink(id) {
  const m = linkInAddress();
  if (m && m[1] !== String(id)) window.history.replaceState(null, "", location.pathname + location.search);
}

// Opens game `id` with the token kept for it (a link's, the lobby's), in
// place of the one followed; whether it could.
export async function openGame(id, what) {
  stopPolling();
  return follow(api("GET", `/api/games/${id}`), what);
}

// Follows the game whose state `request` answers with (one opened or
// started), its poll ended first by the caller; if the request fails,
// the game followed before is followed again. Whether it could.
export async function follow(request, what) {
  try {
    const st = await request;
    showError("", false);
    S.game = null;
    forgetOtherLink(st.id);
    render(st);
    // The new game's board in view (a phone scrolled down to Start).
    window.scrollTo(0, 0);
    S.pollToken++;
    poll(S.pollToken);
    return true;
  } catch (e) {
    showError(what ? `${what}: ${e.message}` : e.message, false);
    if (S.game) { S.pollToken++; poll(S.pollToken); }
    return false;
  }
}

// The text of `input` to the clipboard (selected and copied where the
// clipboard is refused); `button`, if given, says it was copied.
export async function copyText(input, button) {
  try { await navigator.clipboard.writeText(input.value); }
  catch (e) { input.select(); document.execCommand("copy"); }
  if (!button) return;
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 1500);
}
