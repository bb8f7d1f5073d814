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
import { createInterface } from 'node:readline';

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
const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', line => engine.send(line));
input.on('close', async () => {
  await engine.end();
  process.exit(0);
});
