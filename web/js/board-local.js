// The web board's back end without a server: the routes of `splut gui`'s
// API (tools/src/gui/api.rs) answered in the page, the rules from
// splut.wasm in the page and the engine in a Web Worker (docs/web.md).
// Loaded by the static board's host.js (web/js/host.js); the page
// (board/page/app.js) calls `window.splutBackend(method, path, body)`
// instead of `fetch` when this is loaded, so the same page has two back
// ends. Threats, step marks and the review's judgement are the server's
// own code (the crate splut-board, in splut.wasm), and so are the record
// written and read and the engine's `info` lines read (splut-play and the
// engine's protocol words, in splut.wasm); hints and the review ask a
// second engine, in a worker of its own, as the server asks its analyst.
import { load } from './splut.mjs';

/** What the native server says in /api/config, for this back end. */
const STEP_PAUSE = 350;
const MOVETIME = { min: 10, max: 600000, default: 1000 };
const ALGORITHMS = ['auto', 'alphabeta', 'maxn', 'brs', 'brsplus', 'mcts', 'uct-plain', 'random', 'greedy'];
/** `splut gui`'s levels for this engine (src/gui/levels.rs): its
 *  UCI_Elo and Skill Level spins and its measured full strength. */
const LEVELS = {
  elo: { default: 1910, min: 930, max: 1910 },
  skill: { default: 20, min: 0, max: 20 },
  limit_strength: true,
  show_winprob: true,
  // Full strength was measured natively (docs/results/levels.md); this
  // engine searches 1.5-2.2 times slower, so no Elo is claimed for it.
  // The levels below full strength are node-capped: they play as natively.
  full_elo: null,
};

/** A refusal, as the server's: the page shows its message. */
class Refusal extends Error {}

const splutReady = load();
let splut = null;

/** The engine worker, its lines read by one listener at a time. */
class EngineWorker {
  constructor() {
    this.worker = new Worker(new URL('./splut-worker.js', import.meta.url), { type: 'module' });
    this.listener = null;
    this.options = new Map();
    this.worker.onmessage = e => { if (this.listener) this.listener(String(e.data)); };
    this.worker.onerror = e => { if (this.listener) this.listener(`info string error: ${e.message}`); };
  }

  send(line) { this.worker.postMessage(line); }

  /** Sends `line` and the lines up to one starting with `until`; fails
   *  if the worker could not load the engine. */
  request(line, until, onLine = () => {}) {
    return new Promise((resolve, reject) => {
      this.listener = l => {
        if (l.startsWith('info string error: the engine could not load')) {
          this.listener = null;
          reject(new Error(l.slice('info string error: '.length)));
          return;
        }
        onLine(l);
        if (l.startsWith(until)) { this.listener = null; resolve(l); }
      };
      if (line !== null) this.send(line);
    });
  }

  async setOption(name, value) {
    if (this.options.get(name) === value) return;
    this.options.set(name, value);
    this.send(`setoption name ${name} value ${value}`);
  }

  terminate() { this.worker.terminate(); }
}

/** The engine options of a seat's level (src/gui/levels.rs `options`). */
function levelOptions(level) {
  const out = [['UCI_LimitStrength', String(!!(level && level.elo !== undefined))]];
  if (level && level.elo !== undefined) out.push(['UCI_Elo', String(level.elo)]);
  else if (level && level.skill !== undefined) out.push(['Skill Level', String(level.skill)]);
  else out.push(['Skill Level', '20']);
  return out;
}

/** `steps` as turns ({ seat, steps }), by their `history`'s turn numbers. */
function turnsOf(steps, history) {
  const out = [];
  steps.forEach((s, i) => {
    if (i === 0 || history.turns[i] !== history.turns[i - 1]) out.push({ seat: history.movers[i], steps: [s] });
    else out[out.length - 1].steps.push(s);
  });
  return out;
}

let nextId = 1;

/** One game and its engine: session.rs in the page. */
class LocalGame {
  constructor(start, spn, steps, seats, pace) {
    this.id = nextId++;
    this.version = 1;
    this.generation = 0;
    this.start = start;      // '2'..'4' or an SPN, for the rules
    this.startSpn = spn;     // the start as an SPN, for the engine and the page
    this.steps = steps;
    this.seats = seats;
    this.pace = pace || 'normal';
    this.waiting = false;
    this.advance = false;
    this.busy = false;
    this.takingBack = false;
    this.thinking = null;
    this.evals = [];
    this.error = null;
    this.closed = false;
    this.lastStep = null;
    this.waiters = [];
    this.refresh();
    this.startEngine();
    this.run();
  }

  /** A new engine worker; the game shows why if it cannot start. */
  startEngine() {
    this.engine = new EngineWorker();
    this.ready = this.engine.request('ugi', 'ugiok')
      .then(() => this.engine.setOption('UCI_ShowWinProb', 'true'))
      .then(() => this.engine.request('isready', 'readyok'))
      .then(() => true, e => {
        this.error = `engine crashed: ${e.message}`;
        this.bump();
        return false;
      });
  }

  /** The rules' view of the game now. */
  refresh() {
    this.now = splut.game(this.start, this.steps);
    this.hist = splut.history(this.start, this.steps);
    // What each step did and what each legal one would do, as the
    // server's state gives them (splut-board's events).
    this.events = JSON.parse(splut.call('board_events', `${this.start}\n${this.steps.join(' ')}`));
  }

  bump() {
    this.version++;
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves at the next change, or after `ms`. */
  changed(ms) {
    return new Promise(resolve => {
      const t = setTimeout(resolve, ms);
      this.waiters.push(() => { clearTimeout(t); resolve(); });
    });
  }

  engineToMove() {
    // None while a take-back runs: run() starts no turn on the position
    // being taken back (issue 52's race: the engine played Red's turn).
    if (this.now.over || this.error || this.closed || this.takingBack) return null;
    return this.seats.find(s => s.engine && s.seat === this.now.side) || null;
  }

  /** The turns so far, as the page lists them, with their events. */
  turns() {
    const events = this.events.turns || [];
    return turnsOf(this.steps, this.hist).map((t, i) => ({ ...t, events: events[i] || [] }));
  }

  json() {
    const n = this.now;
    return {
      id: this.id, version: this.version, start: this.startSpn, seats: this.seats,
      spn: n.spn, side: n.side, steps_left: n.stepsLeft, gameover: n.over, winner: n.winner,
      legal: n.legal, legal_events: this.events.legal || [], step_count: this.steps.length, turn: n.turn, turns: this.turns(),
      places: n.places, last_step: this.lastStep, thinking: this.thinking, evals: this.evals, pace: this.pace,
      waiting: this.waiting, error: this.error, engine_running: !this.closed, closed: this.closed,
    };
  }

  /** Plays the engine's turns while the game lasts. */
  async run() {
    await this.ready;
    while (!this.closed) {
      const seat = this.engineToMove();
      if (seat && !this.busy) await this.playTurn(seat);
      else await this.changed(300);
    }
    this.engine.terminate();
  }

  async playTurn(seat) {
    const generation = this.generation;
    const stepsAt = this.steps.length;
    this.busy = true;
    // A restarted engine answers its handshake first.
    if (!(await this.ready) || this.generation !== generation) {
      this.busy = false;
      this.bump();
      return;
    }
    this.thinking = { seat: seat.seat, info: null, winprob: null };
    this.bump();
    await this.engine.setOption('Algorithm', seat.algorithm);
    for (const [name, value] of levelOptions(seat.level)) await this.engine.setOption(name, value);
    const moves = this.steps.length ? ` moves ${this.steps.join(' ')}` : '';
    this.engine.send(`position spn ${this.startSpn}${moves}`);
    let turn = [], stopped = false;
    await this.engine.request(`go movetime ${seat.movetime}`, 'bestmove ', line => {
      if (line.startsWith('bestturn ')) turn = line.slice(9).trim().split(/\s+/);
      else if (line.startsWith('bestmove ') && turn.length === 0) turn = [line.split(/\s+/)[1]];
      else if (line.startsWith('info string error: ')) { this.error = `the engine refused to play: ${line.slice(19)}`; this.bump(); }
      else if (this.generation === generation && this.thinking) {
        const read = splut.info(line);
        if (read) {
          this.thinking.info = read.info;
          if (read.winprob) this.thinking.winprob = read.winprob;
          this.bump();
        }
      }
      if (!stopped && this.generation !== generation) { stopped = true; this.engine.send('stop'); }
    });
    if (this.generation === generation && this.thinking && this.thinking.winprob) {
      this.evals = this.evals.filter(e => e.step < stepsAt);
      this.evals.push({ step: stepsAt, seat: this.thinking.seat, score: this.thinking.info && this.thinking.info.score, winprob: this.thinking.winprob });
    }
    this.thinking = null;
    this.busy = false;
    this.bump();
    if (stopped || this.generation !== generation || turn.length === 0 || turn[0] === '(none)') return;
    for (let i = 0; i < turn.length; i++) {
      if (!(await this.waitToShow(generation, i))) return;
      const next = splut.game(this.start, [...this.steps, turn[i]]);
      if (next.error) { this.error = `the engine played an illegal step: ${next.error}`; this.bump(); return; }
      this.steps.push(turn[i]);
      this.lastStep = turn[i];
      this.refresh();
      this.bump();
    }
  }

  /** Whether the last step was an engine seat's. */
  afterEngineStep() {
    const n = this.steps.length;
    return n > 0 && this.seats.some(s => s.engine && s.seat === this.hist.movers[n - 1]);
  }

  /** Waits as the pace asks before step `i` of an engine's turn; false if
   *  the game changed meanwhile (session.rs `wait_to_show`). */
  async waitToShow(generation, i) {
    const begun = performance.now();
    for (;;) {
      if (this.generation !== generation || this.closed) {
        if (this.waiting) { this.waiting = false; this.bump(); }
        return false;
      }
      const paused = i > 0 || this.afterEngineStep();
      let pause;
      if (this.pace === 'none' || (this.pace !== 'step' && !paused)) pause = 0;
      else if (this.pace === 'normal') pause = STEP_PAUSE;
      else if (this.pace === 'slow') pause = Math.max(4 * STEP_PAUSE, 1200);
      else {
        if (this.advance) { this.advance = false; this.waiting = false; this.bump(); return true; }
        if (!this.waiting) { this.waiting = true; this.bump(); }
        await this.changed(1000);
        continue;
      }
      const left = pause - (performance.now() - begun);
      if (left <= 0) {
        if (this.waiting) { this.waiting = false; this.bump(); }
        return true;
      }
      await this.changed(left);
    }
  }

  /** Stops a running engine turn (its result is dropped). */
  async idle() {
    this.generation++;
    // The engine's answer comes at once (its turn is then dropped).
    if (this.busy) this.engine.send('stop');
    this.bump();
    while (this.busy) await this.changed(50);
  }

  step(text) {
    if (this.busy || this.engineToMove()) throw new Refusal("it is not a person's turn");
    if (this.error) throw new Refusal(`${this.error} (restart the engine first)`);
    if (this.now.over) throw new Refusal('the game is over');
    if (!this.now.legal.includes(text)) throw new Refusal(`'${String(text).slice(0, 40)}' is not a legal step here`);
    this.steps.push(text);
    this.lastStep = text;
    this.refresh();
    this.bump();
    return this.json();
  }

  /** Takes back the current part-turn or the last turn, then engine turns
   *  until a person is to move (session.rs `take_back`). */
  async takeBack() {
    this.takingBack = true;
    try {
      return await this.undo();
    } finally {
      this.takingBack = false;
      this.bump();
    }
  }

  async undo() {
    await this.idle();
    if (this.steps.length === 0) throw new Refusal('nothing to take back');
    const anyPerson = this.seats.some(s => !s.engine);
    const undoTurn = () => {
      const t = this.hist.turns[this.steps.length - 1];
      while (this.steps.length > 0 && this.hist.turns[this.steps.length - 1] === t) this.steps.pop();
    };
    undoTurn();
    this.refresh();
    while (anyPerson && this.steps.length > 0 && this.seats.some(s => s.engine && s.seat === this.now.side)) {
      undoTurn();
      this.refresh();
    }
    this.evals = this.evals.filter(e => e.step <= this.steps.length);
    this.lastStep = null;
    this.error = null;
    this.bump();
    return this.json();
  }

  async restart() {
    await this.idle();
    this.engine.terminate();
    this.error = null;
    this.startEngine();
    if (!(await this.ready)) throw new Refusal(this.error);
    this.bump();
    return this.json();
  }

  setPace(pace) {
    if (!['none', 'normal', 'slow', 'step'].includes(pace)) throw new Refusal('pace: expected none, normal, slow or step');
    this.pace = pace;
    if (pace !== 'step') this.advance = false;
    this.bump();
    return this.json();
  }

  async next() {
    if (!this.waiting || this.advance) throw new Refusal('no engine step is waiting');
    this.advance = true;
    const n = this.steps.length;
    this.bump();
    const until = performance.now() + 2000;
    while (this.steps.length === n && !this.closed && performance.now() < until) await this.changed(100);
    return this.json();
  }

  close() {
    this.closed = true;
    this.generation++;
    this.bump();
  }

  /** The game in the records format, written by `splut gui`'s own code
   *  (splut-play's `board_record`, in splut.wasm): an unfinished game cut
   *  to its last whole turn, a draw by the turn limit there. */
  record() {
    const r = splut.record(this.start, this.steps, this.seats);
    if (r.error) throw new Refusal(r.error);
    return r.record;
  }
}

const games = new Map();

/** The engine for hints and reviews, started when first asked. */
let analyst = null;
let analystReady = null;
function theAnalyst() {
  if (!analyst) {
    analyst = new EngineWorker();
    analystReady = analyst.request('ugi', 'ugiok')
      .then(() => analyst.setOption('UCI_ShowWinProb', 'true'))
      .then(() => analyst.request('isready', 'readyok'));
    // A worker that could not start is not kept: the next asks again.
    analystReady.catch(() => { analyst.terminate(); analyst = null; });
  }
  return analystReady.then(() => analyst, e => { throw new Refusal(`the engine failed: ${e.message}`); });
}
let analysing = Promise.resolve();

/** What the analyst thinks after `steps` from `start` (review.rs
 *  `evaluate`): { score, winprob (every seat of the game), best }. */
async function evaluate(start, startSpn, steps, ms) {
  const at = splut.game(start, steps);
  const seats = splut.game(start, []).seats;
  if (at.over) {
    return { score: null, winprob: Object.fromEntries(seats.map(c => [c, c === at.winner ? 1 : 0])), best: [] };
  }
  const engine = await theAnalyst();
  engine.send(`position spn ${startSpn}${steps.length ? ` moves ${steps.join(' ')}` : ''}`);
  let last = null, best = [];
  await engine.request(`go movetime ${ms}`, 'bestmove ', line => {
    const read = splut.info(line);
    if (read && read.info.score) last = read;
    if (line.startsWith('bestturn ')) best = line.slice(9).trim().split(/\s+/).filter(s => s !== '(none)');
  });
  const probs = (last && last.winprob) || {};
  return {
    score: last ? last.info.score : null,
    winprob: Object.fromEntries(seats.map(c => [c, probs[c] || 0])),
    best,
  };
}

/** One analysis at a time: the analyst is one engine. */
function analyse(job) {
  const run = analysing.then(job, job);
  analysing = run.catch(() => {});
  return run;
}

function analysisMs(body, fallback) {
  const ms = body && body.movetime !== undefined ? body.movetime : fallback;
  if (!(Number.isInteger(ms) && ms >= 10 && ms <= 10000)) throw new Refusal('movetime must be 10 to 10000 ms');
  return ms;
}

/** POST /api/games/<id>/hint: the analyst's best turn, not played. */
function hint(g, body) {
  const ms = analysisMs(body, 500);
  if (g.now.over) throw new Refusal('the game is over');
  const steps = g.steps.slice();
  return analyse(async () => {
    const e = await evaluate(g.start, g.startSpn, steps, ms);
    const spn = splut.game(g.start, steps).spn;
    return {
      step_count: steps.length, seat: splut.game(g.start, steps).side,
      marks: JSON.parse(splut.call('board_marks', `${spn}\n${e.best.join(' ')}`)),
      steps: e.best, score: e.score, winprob: e.winprob,
    };
  });
}

/** POST /api/games/<id>/review: every turn judged (review.rs `review`). */
function review(g, body) {
  const ms = analysisMs(body, 100);
  const steps = g.steps.slice();
  const hist = splut.history(g.start, steps);
  // Each turn's start and the end, as the server's review::turn_bounds.
  const bounds = [0];
  for (const t of turnsOf(steps, hist)) bounds.push(bounds[bounds.length - 1] + t.steps.length);
  return analyse(async () => {
    const evals = [];
    for (const b of bounds) evals.push(await evaluate(g.start, g.startSpn, steps.slice(0, b), ms));
    const turns = JSON.parse(splut.call('board_review', JSON.stringify({ start: g.startSpn, steps, evals })));
    if (turns.error) throw new Refusal(turns.error);
    return { movetime: ms, mistake: 0.10, blunder: 0.20, turns };
  });
}

/** POST /api/games (api.rs `new_game`). */
function newGame(req) {
  let start, steps;
  if (req.record !== undefined && req.record !== null) {
    if (req.players || req.spn || req.moves) throw new Refusal('a record gives its own start and steps: no players, spn or moves with it');
    const read = splut.gameOfRecord(req.record);
    if (read.error) throw new Refusal(read.error);
    ({ start, steps } = read);
  } else if (req.spn && !req.players) {
    start = String(req.spn).trim();
    steps = String(req.moves || '').trim().split(/\s+/).filter(Boolean);
  } else if (req.players && !req.spn) {
    start = String(req.players);
    steps = String(req.moves || '').trim().split(/\s+/).filter(Boolean);
  } else throw new Refusal('give either players or spn');
  const first = splut.game(start, []);
  if (first.error) throw new Refusal(start.length > 1 ? `bad SPN: ${first.error}` : 'players: expected 2, 3 or 4');
  if (first.over) throw new Refusal('bad SPN: the game in it is already over');
  const now = splut.game(start, steps);
  if (now.error) throw new Refusal(`moves: ${now.error}`);
  let seats = req.seats || [];
  if (seats.length === 0 && req.record) seats = first.seats.map(() => ({ engine: false }));
  if (seats.length !== first.seats.length) throw new Refusal(`seats: the game has ${first.seats.length} seats (${first.seats.join('')}), ${seats.length} given`);
  const config = seats.map((s, i) => {
    const algorithm = s.algorithm || 'auto';
    if (s.engine && !ALGORITHMS.includes(algorithm)) throw new Refusal('seats: unknown algorithm');
    const movetime = s.movetime === undefined || s.movetime === null ? 1000 : s.movetime;
    if (!(movetime >= MOVETIME.min && movetime <= MOVETIME.max)) throw new Refusal(`seats: movetime must be ${MOVETIME.min} to ${MOVETIME.max} ms`);
    return { seat: first.seats[i], engine: !!s.engine, algorithm, movetime, level: s.level || null };
  });
  if (req.replace && games.has(req.replace)) { games.get(req.replace).close(); games.delete(req.replace); }
  for (const g of games.values()) g.close();
  games.clear();
  const game = new LocalGame(start, first.spn, steps, config, req.pace);
  games.set(game.id, game);
  return game.json();
}

function gameOf(id) {
  const g = games.get(Number(id));
  if (!g) throw new Refusal('no such game');
  return g;
}

async function route(method, url, body) {
  if (!splut) splut = await splutReady;
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  const parts = path.replace(/^\//, '').split('/');
  const key = `${method} ${parts.slice(0, 2).join('/')}`;
  if (key === 'GET api/config') {
    return {
      algorithms: ALGORITHMS, engine: 'splut (WebAssembly, in this page)', engine_error: null, max_games: 1,
      movetime: MOVETIME, step_pause: STEP_PAUSE, levels: LEVELS,
      review: { mistake: 0.10, blunder: 0.20, movetime: 100 }, hint_movetime: 500,
    };
  }
  if (key === 'GET api/preview') {
    const spn = params.get('spn'), players = params.get('players');
    const g = splut.game(spn !== null ? spn : players || '2', []);
    if (g.error) throw new Refusal(spn !== null ? `bad SPN: ${g.error}` : 'players: expected 2, 3 or 4');
    if (g.over) throw new Refusal('bad SPN: the game in it is already over');
    return { spn: g.spn, seats: g.seats, side: g.side };
  }
  if (key === 'GET api/threats') {
    const t = JSON.parse(splut.call('board_threats', `${params.get('spn') || ''}\n${params.get('seat') || ''}`));
    if (t.error) throw new Refusal(t.error);
    return t;
  }
  if (key === 'POST api/games' && parts.length === 2) return newGame(body || {});
  if (parts[0] === 'api' && parts[1] === 'games' && parts.length >= 3) {
    const g = gameOf(parts[2]);
    const action = parts[3];
    if (method === 'GET' && action === undefined) {
      const since = params.get('since');
      if (since !== null && Number(since) === g.version && !g.closed) await g.changed(25000);
      return g.json();
    }
    if (method === 'DELETE' && action === undefined) { g.close(); games.delete(g.id); return { closed: true }; }
    if (method === 'GET' && action === 'positions') return { spns: g.hist.spns };
    if (method === 'POST' && action === 'step') return g.step(body && body.step);
    if (method === 'POST' && action === 'takeback') return g.takeBack();
    if (method === 'POST' && action === 'restart') return g.restart();
    if (method === 'POST' && action === 'pace') return g.setPace(body && body.pace);
    if (method === 'POST' && action === 'next') return g.next();
    if (method === 'GET' && action === 'record') return g.record();
    if (method === 'POST' && action === 'hint') return hint(g, body);
    if (method === 'POST' && action === 'review') return review(g, body);
  }
  throw new Refusal('no such API route or method');
}

/** The page's API calls, answered here. */
window.splutBackend = async (method, url, body) => {
  try {
    return await route(method, url, body);
  } catch (e) {
    throw e instanceof Refusal ? e : new Error(`the board failed: ${e.message}`);
  }
};
