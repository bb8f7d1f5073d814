// The web board's back end without a server (docs/web.md): transport
// only. The game is `splut gui`'s own session machine compiled into
// splut.wasm (web/src/board_session.rs, splut_board::session): it checks
// every request, reads the engine's lines and decides every step. Here
// the page's API calls go to it (`splut.session`), its commands go to the
// engine in a Web Worker (start: a new worker and its handshake; send: a
// protocol line; quit: the worker ended), the worker's lines go back to
// it, and one timer wakes it when it asks. Loaded by the static board's
// host.js (web/js/host.js); the page (board/page/app.js) calls
// `window.splutBackend(method, path, body)` instead of `fetch`.
// Hints and reviews still run here: they ask a second engine, in a
// worker of its own, as the server asks its analyst, and splut.wasm
// judges what it says (splut.info, board_marks, board_review).
import { load } from './splut.mjs';

/** A refusal, as the server's: the page shows its message. */
class Refusal extends Error {}

const splutReady = load();
let splut = null;
let worker = null;   // the game's engine
let timer = null;    // the one wake-up the session asked for
let seen = null;     // the game and version the long polls saw
const waiters = [];  // long polls waiting for a change

/** The session's answer to `what`, without carrying out its commands. */
function raw(what, id = '', body = '') {
  const a = splut.session(what, String(id), body);
  if (a.error !== undefined) throw new Refusal(a.error);
  return a.ok;
}

/** The session's answer to `what`; then its commands carried out. */
function session(what, id = '', body = '') {
  try { return raw(what, id, body); } finally { pump(); }
}

/** Carries out the session's commands, sets its wake-up and wakes the
 *  long polls if the game changed. */
function pump() {
  for (let cs = raw('commands'); cs.length; cs = raw('commands')) {
    for (const c of cs) {
      if (c.do === 'start') startEngine();
      else if (c.do === 'send') { if (worker) worker.postMessage(c.line); }
      else stopEngine();
    }
  }
  clearTimeout(timer);
  const at = raw('wake_at');
  if (at !== null) timer = setTimeout(() => session('wake'), Math.max(0, at - performance.now()));
  const version = JSON.stringify(raw('version'));
  if (version !== seen) { seen = version; for (const w of waiters.splice(0)) w(); }
}

function stopEngine() {
  if (worker) worker.terminate();
  worker = null;
}

/** A fresh engine worker and its handshake; its lines to the session. */
function startEngine() {
  stopEngine();
  const gone = why => { stopEngine(); session('engine_gone', '', why); };
  let w;
  try {
    w = new Worker(new URL('./splut-worker.js', import.meta.url), { type: 'module' });
  } catch (e) {
    // Told once the commands being carried out are done.
    setTimeout(() => session('engine_gone', '', String(e.message)));
    return;
  }
  worker = w;
  w.onmessage = e => {
    if (w !== worker) return;
    const line = String(e.data);
    if (line.startsWith('info string error: the engine could not load')) gone(line.slice(19));
    else session('engine_line', '', line);
  };
  w.onerror = e => { if (w === worker) gone(e.message || 'the worker failed'); };
  for (const l of ['ugi', 'setoption name UCI_ShowWinProb value true', 'isready']) w.postMessage(l);
}

/** Resolves at the game's next change, or after `ms`. */
function changed(ms) {
  return new Promise(resolve => {
    const t = setTimeout(resolve, ms);
    waiters.push(() => { clearTimeout(t); resolve(); });
  });
}

/** The engine worker for hints and reviews, started when first asked. */
let analyst = null;
let analysing = Promise.resolve();

/** Sends `line` to the analyst and reads its lines up to `bestmove`. */
function think(w, line, onLine) {
  return new Promise((resolve, reject) => {
    w.onmessage = e => {
      const l = String(e.data);
      if (l.startsWith('info string error: the engine could not load')) reject(new Refusal(`the engine failed: ${l.slice(19)}`));
      else if (l.startsWith('bestmove ') || l === 'readyok') resolve();
      else onLine(l);
    };
    w.postMessage(line);
  });
}

async function theAnalyst() {
  if (!analyst) {
    const w = new Worker(new URL('./splut-worker.js', import.meta.url), { type: 'module' });
    w.postMessage('ugi');
    w.postMessage('setoption name UCI_ShowWinProb value true');
    // A worker that could not start is not kept: the next asks again.
    analyst = think(w, 'isready', () => {}).then(() => w, e => { w.terminate(); analyst = null; throw e; });
  }
  return analyst;
}

/** What the analyst thinks after `steps` from `start` (review.rs
 *  `evaluate`): { score, winprob (every seat of the game), best }. */
async function evaluate(start, steps, ms) {
  const at = splut.game(start, steps);
  const seats = splut.game(start, []).seats;
  if (at.over) return { score: null, winprob: Object.fromEntries(seats.map(c => [c, c === at.winner ? 1 : 0])), best: [] };
  const w = await theAnalyst();
  w.postMessage(`position spn ${start}${steps.length ? ` moves ${steps.join(' ')}` : ''}`);
  let last = null, best = [];
  await think(w, `go movetime ${ms}`, line => {
    const read = splut.info(line);
    if (read && read.info.score) last = read;
    if (line.startsWith('bestturn ')) best = line.slice(9).trim().split(/\s+/).filter(s => s !== '(none)');
  });
  const probs = (last && last.winprob) || {};
  return { score: last ? last.info.score : null, winprob: Object.fromEntries(seats.map(c => [c, probs[c] || 0])), best };
}

/** One analysis at a time (the analyst is one engine), on the game now. */
function analyse(id, body, fallback, job) {
  const ms = body && body.movetime !== undefined ? body.movetime : fallback;
  if (!(Number.isInteger(ms) && ms >= 10 && ms <= 10000)) throw new Refusal('movetime must be 10 to 10000 ms');
  const st = raw('state', id);
  const run = analysing.then(() => job(st, st.turns.flatMap(t => t.steps), ms));
  analysing = run.catch(() => {});
  return run;
}

/** POST /api/games/<id>/hint: the analyst's best turn, not played. */
function hint(id, body) {
  return analyse(id, body, raw('config').hint_movetime, async (st, steps, ms) => {
    if (st.gameover) throw new Refusal('the game is over');
    const e = await evaluate(st.start, steps, ms);
    const marks = JSON.parse(splut.call('board_marks', `${st.spn}\n${e.best.join(' ')}`));
    return { step_count: steps.length, seat: st.side, marks, steps: e.best, score: e.score, winprob: e.winprob };
  });
}

/** POST /api/games/<id>/review: every turn judged (review.rs `review`). */
function review(id, body) {
  const config = raw('config').review;
  return analyse(id, body, config.movetime, async (st, steps, ms) => {
    const evals = [];
    let n = 0;
    for (const t of [{ steps: [] }, ...st.turns]) {
      n += t.steps.length;
      evals.push(await evaluate(st.start, steps.slice(0, n), ms));
    }
    const turns = JSON.parse(splut.call('board_review', JSON.stringify({ start: st.start, steps, evals })));
    if (turns.error) throw new Refusal(turns.error);
    return { movetime: ms, mistake: config.mistake, blunder: config.blunder, turns };
  });
}

/** The page's API: `splut gui`'s routes (tools/src/gui/api.rs). */
async function route(method, url, body) {
  if (!splut) splut = await splutReady;
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  const [api, what, id, action] = path.replace(/^\//, '').split('/');
  if (api !== 'api') throw new Refusal('not found');
  if (method === 'GET' && what === 'config') return raw('config');
  if (method === 'GET' && what === 'preview') {
    return raw('preview', '', JSON.stringify({ players: params.get('players'), spn: params.get('spn') }));
  }
  if (method === 'GET' && what === 'threats') {
    const t = JSON.parse(splut.call('board_threats', `${params.get('spn') || ''}\n${params.get('seat') || ''}`));
    if (t.error) throw new Refusal(t.error);
    return t;
  }
  if (what !== 'games') throw new Refusal('no such API route or method');
  if (method === 'POST' && id === undefined) return session('new_game', '', JSON.stringify(body || {}));
  if (method === 'GET' && action === undefined) {
    const since = params.get('since');
    const st = raw('state', id);
    if (since !== null && Number(since) === st.version && !st.closed) await changed(25000);
    return raw('state', id);
  }
  if (method === 'DELETE' && action === undefined) return session('close', id);
  if (method === 'POST' && action === 'hint') return hint(id, body);
  if (method === 'POST' && action === 'review') return review(id, body);
  const calls = { 'GET positions': 'positions', 'GET record': 'record', 'POST step': 'step', 'POST takeback': 'takeback', 'POST restart': 'restart', 'POST pace': 'pace', 'POST next': 'next' };
  const call = calls[`${method} ${action}`];
  if (!call) throw new Refusal('no such API route or method');
  return session(call, id, body === undefined ? '' : JSON.stringify(body));
}

/** The page's API calls, answered here. */
window.splutBackend = async (method, url, body) => {
  try {
    return await route(method, url, body);
  } catch (e) {
    throw e instanceof Refusal ? e : new Error(`the board failed: ${e.message}`);
  }
};
