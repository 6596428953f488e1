// `npx tsx bench/redact.ts`: the cost of masking the key in every form
// (src/core/report/secrets.ts) against the literal-only masking it replaced, timed
// in the same rounds, on what the transport masks: a 100-charge list body
// (about 50 KB) and a URL label, each with and without `%` and `\`, which
// are what send a text through the regular expression.
import { performance } from 'node:perf_hooks';
import { Secret } from '../src/core/report/secrets.js';
import { listBody } from './fixtures.js';
import { median } from './stats.js';

const KEY = 'sk_live_Zm9v+YmFy/cXV4==';
const secret = new Secret(KEY);

/** The masking before: the literal key only. */
function literalOnly(text: string): string {
  return text.includes(KEY) ? text.replaceAll(KEY, '[REDACTED]') : text;
}

const body = listBody(1, 100, 1_000);
const cases: [string, string][] = [
  ['list body, no % or \\', body],
  ['list body, with \\/ escapes', body.replaceAll('"Order ', '"https:\\/\\/shop.test\\/Order ')],
  ['list body, with %XX', body.replaceAll('"Order ', '"https://shop.test/?q=a%20b&Order ')],
  ['URL label, no %', 'GET https://api.lunas.test/v1/payments/charges/ch_000000000000000000000001'],
  ['URL label, with %XX', 'GET https://api.lunas.test/v1/things?note=a%20b%2Fc&page=2'],
];

const ROUNDS = 21;
/** Calls per timed batch: about a millisecond of work on the cheaper side. */
function batchSize(text: string): number {
  return text.length > 1_000 ? 200 : 20_000;
}

function time(work: (text: string) => unknown, text: string, calls: number): number {
  let sink = 0;
  const start = performance.now();
  for (let i = 0; i < calls; i++) sink += work(text) === undefined ? 0 : 1;
  const elapsed = performance.now() - start;
  if (sink === 0) throw new Error('unreachable');
  return elapsed / calls;
}

/** A body's whole decoding before: literal masking, then JSON.parse with a masking reviver when it holds a `\`. */
function parsedBefore(text: string): unknown {
  const masked = literalOnly(text);
  return masked.includes('\\')
    ? JSON.parse(masked, (_key, item: unknown) => (typeof item === 'string' ? literalOnly(item) : item))
    : JSON.parse(masked);
}

/** And now: masking in every form, then JSON.parse alone. */
function parsedAfter(text: string): unknown {
  return JSON.parse(secret.mask(text));
}

// Masking must change nothing here, or the sides would not do the same work.
for (const [name, text] of cases) {
  if (secret.mask(text) !== text) throw new Error(`${name}: the fixture holds the key`);
}
console.log(`masking ${KEY.length}-character key; median of ${ROUNDS} rounds, alternating sides`);
compare('mask', cases, literalOnly, (text) => secret.mask(text));
compare('mask + JSON.parse', cases.slice(0, 3), parsedBefore, parsedAfter);

function compare(
  what: string,
  texts: [string, string][],
  was: (text: string) => unknown,
  now: (text: string) => unknown,
) {
  for (const [name, text] of texts) {
    const calls = batchSize(text) / (what === 'mask' ? 1 : 10);
    time(was, text, calls);
    time(now, text, calls); // Warm both up.
    const before: number[] = [];
    const after: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      before.push(time(was, text, calls));
      after.push(time(now, text, calls));
    }
    const [old, current] = [median(before), median(after)];
    console.log(
      `${`${what}, ${name}`.padEnd(48)} ${(current / old).toFixed(2)}x before (${(current * 1_000).toFixed(2)} µs vs ${(old * 1_000).toFixed(2)} µs, ${text.length} chars)`,
    );
  }
}
