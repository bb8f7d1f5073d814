// The API: `splut gui`'s server, or the back end the static board loaded
// into the page; each game's token; the notice over the board.

import { S, $ } from "./state.js";

// Each game's token, by id: the host's from its making, a guest's or a
// spectator's from the link they opened. Kept in the browser, so a reload
// or a phone that dropped the tab comes back to the same seat.
export const TOKENS = "splut.tokens";

export function tokens() {
  try { return JSON.parse(localStorage.getItem(TOKENS) || "{}") || {}; } catch (e) { return {}; }
}

export function tokenFor(id) { return tokens()[String(id)] || memoryTokens[String(id)] || null; }

// Where the browser keeps nothing (private mode), for this page's life.
export const memoryTokens = {};

export function keepToken(id, token) {
  memoryTokens[String(id)] = token;
  const all = tokens();
  all[String(id)] = token;
  // The newest 20 games' tokens at most.
  const ids = Object.keys(all).map(Number).sort((a, b) => b - a).slice(0, 20);
  const kept = Object.fromEntries(ids.map((i) => [String(i), all[String(i)]]));
  try { localStorage.setItem(TOKENS, JSON.stringify(kept)); } catch (e) { /* private mode */ }
}
// The API: `splut gui`'s server, or without one (the static board of
// `scripts/web`, docs/web.md) the back end it loaded into the page.
export async function api(method, path, body, signal) {
  if (window.splutBackend) return window.splutBackend(method, path, body);
  const opts = { method, headers: {}, signal };
  // A game's table knows us by the token its link (or its making) gave.
  // (A new game replacing one: that one's, the host's alone closing it.)
  const m = /^\/api\/games\/(\d+)/.exec(path);
  const about = m ? m[1] : path === "/api/games" && body && body.replace;
  const token = about && tokenFor(about);
  if (token) opts.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

// A notice over the board's top: an error in red, or (`calm`) news that
// is no one's fault (the server out of reach a moment, the table closed).
export function showError(msg, restart, calm) {
  $("error-text").textContent = msg;
  $("error").classList.toggle("hidden", !msg);
  $("error").classList.toggle("calm", !!calm);
  $("restart").classList.toggle("hidden", !restart);
}

// The game followed is gone from the server (`closed` by its host, or
// no longer there), said in words; the result stays on the board.
export function gameGone() {
  const you = S.game && S.game.you;
  const guest = you && you.role !== "host";
  const msg = !guest ? "This game is no longer on the server: start a new one."
    : S.game.gameover ? "The host closed this table; the result stands."
    : "The host closed this table before its end.";
  showError(msg, false, true);
}
