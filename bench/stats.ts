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
 * A fixed sequence of pseudo-random numbers in [0, 1) (mulberry32): every run
 * of the bench shuffles its rounds the same way.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The sides in a new order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * Runs subject, baseline and any references in the same rounds, each round
 * in a new order, so drift (thermal, JIT, other load) and whatever one side
 * leaves behind for the next land on every side alike; one untimed round each
 * warms the JIT and the keep-alive connections. A rotation (each side always
 * after the same neighbour) was not enough: two identical lunas clients,
 * one as the subject and one as a reference, came out 0.02 to 0.06 of a bare
 * fetch apart in four runs of four, always the same way round; shuffled, 0.01
 * either way.
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
  const random = seededRandom(rounds * 7919 + sides.length);
  for (let i = 0; i < rounds; i++) {
    for (const [name, run] of shuffled(sides, random)) times.get(name)!.push(await timeMs(run));
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
