// The Splut! rules and engine in WebAssembly: the module's JavaScript face,
// the same in a page, a Web Worker and Node (docs/web.md).
//
//   import { load } from './splut.mjs';
//   const splut = await load();                 // splut.wasm beside this file
//   splut.game('3', ['e2e3']);                  // the rules: position, legal steps, places
//   const engine = splut.engine(line => console.log(line));
//   engine.send('go movetime 1000');            // the protocol of protocol.md
//
// The engine runs on the calling thread: in a page, run it in a Worker
// (splut-worker.js) so that a search never blocks the page.

/** What `engine_line` and `engine_resume` answer. */
const THINKING = 1, QUIT = 2; // and 0: idle

const encoder = new TextEncoder();
// The module's answers as they are: a leading U+FEFF is kept, not taken
// for a byte-order mark.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Lets the event loop run (input, clicks) between two slices of a search. */
const yieldToHost = typeof setImmediate === 'function'
  ? () => new Promise(resolve => setImmediate(resolve))
  : () => new Promise(resolve => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/**
 * Loads the module: `source` is a URL, a path (Node), bytes or a compiled
 * `WebAssembly.Module`; by default `splut.wasm` beside this file.
 */
export async function load(source = new URL('splut.wasm', import.meta.url)) {
  const imports = { splut: { now_ms: () => performance.now() } };
  let module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    module = await WebAssembly.compile(source);
  } else if (typeof process === 'object' && process.versions?.node
    && (!(source instanceof URL) || source.protocol === 'file:')) {
    const { readFile } = await import('node:fs/promises');
    module = await WebAssembly.compile(await readFile(source));
  } else {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`${source}: HTTP ${response.status}`);
    // Streaming compilation needs the server to say application/wasm;
    // any other type is read whole, then compiled.
    module = (response.headers.get('Content-Type') || '').startsWith('application/wasm')
      ? await WebAssembly.compileStreaming(response)
      : await WebAssembly.compile(await response.arrayBuffer());
  }
  const instance = await WebAssembly.instantiate(module, imports);
  return new Splut(module, instance.exports);
}

/** One instance of the module: the rules, and one engine. */
export class Splut {
  #x;

  constructor(module, exports) {
    /** The compiled module, to start more instances (a Worker's) from. */
    this.module = module;
    this.#x = exports;
  }

  /** Calls export `name` with `text` (a string, or bytes as they are)
   *  as its input and `args` as its arguments; what it returns. */
  input(name, text = '', ...args) {
    const x = this.#x;
    const bytes = text instanceof Uint8Array ? text : encoder.encode(text);
    // `input` may grow the memory, which replaces its buffer: read after.
    const at = x.input(bytes.length);
    new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    return x[name](...args);
  }

  /** Calls export `name` with `text` as its input (and `args`); its
   *  answer as text. */
  call(name, text = '', ...args) {
    const n = this.input(name, text, ...args);
    return decoder.decode(new Uint8Array(this.#x.memory.buffer, this.#x.result(), n));
  }

  /**
   * The rules: the game from `start` ('2', '3', '4' or an SPN) after
   * `steps` (an array of step texts, or one string). Answers
   * { spn, side, turn, stepsLeft, seats, over, winner, places, legal, steps },
   * or { error, step } naming the refused step's index (null: the start).
   */
  game(start = '2', steps = []) {
    const list = Array.isArray(steps) ? steps.join(' ') : String(steps);
    return JSON.parse(this.call('rules_game', `${start}\n${list}`));
  }

  /**
   * The positions of the game from `start` after `steps`: { spns (the
   * start's and each step's after it), movers and turns (before each
   * step), out (the seats that went out, first out first) }, or { error, step }.
   */
  history(start = '2', steps = []) {
    const list = Array.isArray(steps) ? steps.join(' ') : String(steps);
    return JSON.parse(this.call('rules_history', `${start}\n${list}`));
  }

  /**
   * The match: the record of a game on the board, as `splut gui`
   * downloads it, from `start` ('2', '3', '4' or an SPN) after `steps`,
   * `seats` the board's seat configurations in seat order ({ seat, engine,
   * algorithm, movetime, level }). Answers { record } (the text), or
   * { error }.
   */
  record(start, steps, seats) {
    const input = { start: String(start), steps: Array.isArray(steps) ? steps : String(steps), seats };
    return JSON.parse(this.call('play_record', JSON.stringify(input)));
  }

  /**
   * The match: the game a records file's `text` gives the board (its first
   * game), read as `splut gui` reads it: { start ('2'..'4' for a standard
   * start, else the SPN), steps (not yet played) }, or { error } ('bad
   * record: …', the board's refusal).
   */
  gameOfRecord(text) {
    return JSON.parse(this.call('play_read_record', String(text)));
  }

  /**
   * The match: an engine's `line` as the board shows a search's report:
   * { info: { depth, score ('cp 14'), nodes, time, pv }, multipv, winprob
   * ({ r: 0.6, … } to three decimals, or null) }, or null for a line that
   * is no `info` line with a depth.
   */
  info(line) {
    return JSON.parse(this.call('play_info', String(line)));
  }

  /**
   * The static board's session (web/src/board_session.rs, `splut gui`'s
   * game machine): `what` ('new_game', 'step', 'engine_line', 'commands',
   * …) for the game `id` with `body` (a request's JSON, an engine line),
   * at `performance.now()`. Answers { ok: value } or { error }.
   */
  session(what, id = '', body = '') {
    return JSON.parse(this.call('board_session', `${what}\n${id}\n${body}`, performance.now()));
  }

  /** `splut bench`'s lines with `args` ('--depth 8 --eval nnue'). */
  bench(args = '') {
    return this.call('bench', args);
  }

  /** The network kernels checked against the portable ones: 'ok simd128'. */
  selftest() {
    return this.call('selftest');
  }

  /**
   * The engine of this instance, speaking the protocol: `send(line)` takes
   * one input line, `onLine(text)` gets each output line, `onQuit()` is
   * called after `quit`. A search runs in slices, and lines sent while it
   * thinks are read between them.
   */
  engine(onLine, onQuit = () => {}) {
    return new Engine(this, this.#x, onLine, onQuit);
  }
}

/** The protocol on one thread (see `Splut.engine`). */
class Engine {
  #splut; #x; #onLine; #onQuit;
  #queue = [];
  #running = false;
  #thinking = false;
  #quit = false;
  /** The end of input came: the run loop leaves the search to `end`. */
  #ending = false;

  constructor(splut, exports, onLine, onQuit) {
    this.#splut = splut;
    this.#x = exports;
    this.#onLine = onLine;
    this.#onQuit = onQuit;
  }

  /** One input line (a text with newlines in it is several lines; one
   *  '\r' at a line's end is dropped, one inside it is that line's error,
   *  as natively). */
  send(text) {
    if (this.#quit) return;
    this.#queue.push(...String(text).split('\n'));
    this.#run();
  }

  /** One input line as bytes (a Uint8Array, its '\n' taken off), read
   *  exactly as the native engine reads stdin: the length bound counted
   *  on them, one trailing '\r' dropped, bytes that are not UTF-8 read as
   *  U+FFFD, a byte-order mark kept as part of the line. */
  sendBytes(bytes) {
    if (this.#quit) return;
    this.#queue.push(Uint8Array.from(bytes));
    this.#run();
  }

  /** Whether a search is running. */
  get thinking() {
    return this.#thinking;
  }

  /**
   * The end of input: a running search gets what a native engine's gets
   * (at most 5 s, an infinite one none) and its last lines are written.
   * The lines sent before are read first; the run loop, which would run
   * an infinite search's slices for ever, stops after them.
   */
  async end() {
    this.#ending = true;
    while (this.#running) await yieldToHost();
    if (this.#quit) return;
    this.#x.engine_end();
    this.#flush();
  }

  #flush() {
    for (const line of this.#splut.call('engine_output').split('\n')) {
      if (line !== '') this.#onLine(line);
    }
  }

  #after(status) {
    this.#flush();
    this.#thinking = status === THINKING;
    if (status === QUIT && !this.#quit) {
      this.#quit = true;
      this.#onQuit();
    }
  }

  /** Reads the queued lines; while a search thinks, runs its next slice
   *  whenever no line is waiting, letting the host run in between. */
  async #run() {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        while (this.#queue.length > 0 && !this.#quit) {
          this.#after(this.#splut.input('engine_line', this.#queue.shift()));
        }
        if (this.#quit || !this.#thinking || this.#ending) break;
        await yieldToHost();
        if (this.#queue.length === 0) this.#after(this.#x.engine_resume());
      }
    } finally {
      this.#running = false;
    }
  }
}
