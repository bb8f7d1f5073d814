// The Splut! engine in a Web Worker: each message to it is a protocol line
// (protocol.md), each message from it an output line. Start it as a module
// worker:
//
//   const engine = new Worker('splut-worker.js', { type: 'module' });
//   engine.onmessage = e => console.log(e.data);    // 'ugiok', 'bestmove e2e3', …
//   engine.postMessage('ugi');
//
// It loads splut.wasm from beside itself. Lines sent before it has loaded
// wait and are read in order; a search runs in slices and lines sent
// while it thinks (stop, isready) are read between them. After `quit` it
// reads nothing more (terminate it). If the module cannot be loaded, the
// one message is 'info string error: …'.
import { load } from './splut.mjs';

const waiting = [];
let engine = null;

self.onmessage = event => {
  if (engine) engine.send(event.data);
  else waiting.push(event.data);
};

load().then(splut => {
  engine = splut.engine(line => self.postMessage(line));
  for (const line of waiting.splice(0)) engine.send(line);
}, error => {
  self.postMessage(`info string error: the engine could not load: ${error}`);
});
