// Timing helpers shared by the measurements.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// `npm run bench` cannot pass --expose-gc through tsx, so enable it at runtime:
// collecting before each round keeps one side's garbage off the other's clock.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  gc();
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export interface Comparison {
  /** Median wall time of the side under test, ms. */
  subjectMs: number;
  /** Median wall time of the baseline measured in the same run, ms. */
  baselineMs: number;
  /** subjectMs / baselineMs: the figure the budget applies to. */
  ratio: number;
  rounds: { subject: number[]; baseline: number[] };
}

/**
 * Runs subject and baseline in alternating rounds, flipping which goes first,
 * so drift (thermal, JIT, other load) lands on both sides; one untimed round
 * each warms the JIT and the keep-alive connections.
 */
export async function compare(
  rounds: number,
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<Comparison> {
  await subject();
  await baseline();
  const s: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      s.push(await timeMs(subject));
      b.push(await timeMs(baseline));
    } else {
      b.push(await timeMs(baseline));
      s.push(await timeMs(subject));
    }
  }
  const subjectMs = median(s);
  const baselineMs = median(b);
  return { subjectMs, baselineMs, ratio: subjectMs / baselineMs, rounds: { subject: s, baseline: b } };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
