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

/** A side timed in the same rounds as a comparison, for context: its own ratio to the same baseline. */
export interface Reference {
  ms: number;
  ratio: number;
  rounds: number[];
}

export interface Comparison {
  /** Median wall time of the side under test, ms. */
  subjectMs: number;
  /** Median wall time of the baseline measured in the same run, ms. */
  baselineMs: number;
  /** subjectMs / baselineMs: the figure the budget applies to. */
  ratio: number;
  rounds: { subject: number[]; baseline: number[] };
  /** Other sides timed in the same rounds (e.g. ky alone), each against the same baseline. */
  references: Record<string, Reference>;
}

/**
 * Runs subject, baseline and any references in the same rounds, rotating
 * which goes first, so drift (thermal, JIT, other load) lands on every side;
 * one untimed round each warms the JIT and the keep-alive connections.
 */
export async function compare(
  rounds: number,
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  references: Record<string, () => Promise<unknown>> = {},
): Promise<Comparison> {
  const sides = Object.entries({ ...references, subject, baseline });
  for (const [, run] of sides) await run();
  const times = new Map<string, number[]>(sides.map(([name]) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < sides.length; j++) {
      const [name, run] = sides[(i + j) % sides.length]!;
      times.get(name)!.push(await timeMs(run));
    }
  }
  const s = times.get('subject')!;
  const b = times.get('baseline')!;
  const baselineMs = median(b);
  const subjectMs = median(s);
  const referenceResults: Record<string, Reference> = {};
  for (const name of Object.keys(references)) {
    const r = times.get(name)!;
    referenceResults[name] = { ms: median(r), ratio: median(r) / baselineMs, rounds: r };
  }
  return {
    subjectMs,
    baselineMs,
    ratio: subjectMs / baselineMs,
    rounds: { subject: s, baseline: b },
    references: referenceResults,
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
