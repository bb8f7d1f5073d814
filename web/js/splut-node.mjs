#!/usr/bin/env node
// The Splut! engine in WebAssembly as a command: speaks the protocol of
// protocol.md on stdin/stdout exactly as `splut` does, so any referee can
// run it (`splut tournament --engine 'cmd=node splut-node.mjs'`).
//
//   node splut-node.mjs                  the protocol
//   node splut-node.mjs bench [--depth d] [--eval auto|hand|nnue]
//                                        `splut bench` in WebAssembly
//   node splut-node.mjs selftest         the SIMD128 kernels against the portable ones
import { load } from './splut.mjs';

const splut = await load();
const [command, ...rest] = process.argv.slice(2);

if (command === 'bench') {
  const text = splut.bench(rest.join(' '));
  process.stdout.write(text);
  process.exit(text.startsWith('error') ? 1 : 0);
} else if (command === 'selftest') {
  const answer = splut.selftest();
  console.log(answer);
  process.exit(answer.startsWith('ok') ? 0 : 1);
} else if (command !== undefined) {
  console.error(`error: unknown command '${command}' (expected nothing, bench or selftest)`);
  process.exit(2);
}

const engine = splut.engine(
  line => process.stdout.write(line + '\n'),
  () => process.exit(0),
);
// Lines end at '\n' only, and each goes to the engine as the bytes before
// it, undecoded: the module reads them as the native engine reads stdin
// (the 1 MiB bound on the bytes, one trailing '\r' dropped, bytes that are
// not UTF-8 read as U+FFFD, a byte-order mark part of the first word; a
// '\r' inside a line is the line's error, not an end of line). Decoding
// here would differ: TextDecoder drops a leading byte-order mark.
let chunks = [];
process.stdin.on('data', chunk => {
  let start = 0, end;
  while ((end = chunk.indexOf(0x0a, start)) >= 0) {
    chunks.push(chunk.subarray(start, end));
    engine.sendBytes(Buffer.concat(chunks));
    chunks = [];
    start = end + 1;
  }
  if (start < chunk.length) chunks.push(chunk.subarray(start));
});
process.stdin.on('end', async () => {
  if (chunks.length > 0) engine.sendBytes(Buffer.concat(chunks));
  await engine.end();
  process.exit(0);
});
