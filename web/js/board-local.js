// The web board's back end without a server (docs/web.md): transport
// only. The game is `splut gui`'s own session machine compiled into
// splut.wasm (web/src/board_session.rs, splut_board::session): it checks
// every request, does its engine's handshake, reads the engine's lines
// and decides every step. Here the page's API calls go to it
// (`splut.session`), its commands go to the engine in a Web Worker
// (spawn: a new worker; send: a protocol line; quit: the worker ended),
// the worker's lines go back to it, and one timer wakes it when it asks. Loaded by the static board's
// host.js (web/js/host.js); the page (board/page/, its api.js) calls
// `window.splutBackend(method, path, body)` instead of `fetch`.
// Hints and reviews are the session's analysis machine
// (splut_board::session::analysis): its lines go to a second engine
// worker (the analyst), one analysis at a time, and the analyst's lines
// back to it, as `splut gui` carries them to its analyst process (a
// fresh analyst's handshake is the analysis's too).
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
      if (c.do === 'spawn') spawnEngine();
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

/** A fresh engine worker; its lines to the session (which does its
 *  handshake). */
function spawnEngine() {
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
}

/** Resolves at the game's next change, or after `ms`. */
function changed(ms) {
  return new Promise(resolve => {
    const t = setTimeout(resolve, ms);
    waiters.push(() => { clearTimeout(t); resolve(); });
  });
}

let analyst = null;               // the analyst worker, kept between analyses
let analysing = Promise.resolve(); // the analysis before this one

/** POST /api/games/<id>/hint or /review: the session's analysis, its
 *  lines carried to the analyst and the analyst's back until it answers. */
function analyse(kind, id, body) {
  const run = analysing.then(() => new Promise((resolve, reject) => {
    const next = (what, text) => {
      let a;
      try { a = raw(what, id, text); } catch (e) {
        // An analyst that failed (or did not start) is not kept.
        if (what !== kind && analyst) { analyst.terminate(); analyst = null; }
        return reject(e);
      }
      if (a.done) { if (analyst) analyst.onmessage = analyst.onerror = null; return resolve(a.answer); }
      if (!analyst) {
        try { analyst = new Worker(new URL('./splut-worker.js', import.meta.url), { type: 'module' }); }
        catch (e) { return next('analysis_gone', String(e.message)); }
      }
      if (what === kind) {
        analyst.onmessage = e => next('analysis_line', String(e.data));
        analyst.onerror = e => next('analysis_gone', e.message || 'the worker failed');
      }
      for (const line of a.commands) analyst.postMessage(line);
    };
    next(kind, body === undefined ? '' : JSON.stringify(body));
  }));
  analysing = run.catch(() => {});
  return run;
}

/** The page's API: `splut gui`'s routes (server/src/api.rs). */
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
  if (method === 'POST' && (action === 'hint' || action === 'review')) return analyse(action, id, body);
  const calls = { 'GET positions': 'positions', 'GET record': 'record', 'POST step': 'step', 'POST takeback': 'takeback', 'POST restart': 'restart', 'POST pace': 'pace', 'POST next': 'next', 'POST end': 'end' };
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
