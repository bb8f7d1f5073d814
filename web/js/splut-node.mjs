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
// Lines end at '\n' only, one '\r' before it dropped, bytes that are not
// UTF-8 read as U+FFFD: as the native engine reads them (a '\r' inside a
// line is the line's error, not an end of line).
const decoder = new TextDecoder();
let pending = Buffer.alloc(0);
process.stdin.on('data', chunk => {
  pending = Buffer.concat([pending, chunk]);
  let end;
  while ((end = pending.indexOf(0x0a)) >= 0) {
    let line = pending.subarray(0, end);
    pending = pending.subarray(end + 1);
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    engine.send(decoder.decode(line));
  }
});
process.stdin.on('end', async () => {
  if (pending.length > 0) engine.send(decoder.decode(pending));
  await engine.end();
  process.exit(0);
});
