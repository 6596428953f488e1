/**
 * A small seeded pseudo-random generator for tests that must be replayable
 * from a printed seed (the chaos suite). Not for cryptography.
 *
 * The state is one 32-bit word advanced by a Weyl step (adding an odd
 * constant); each output mixes it with multiply-xorshift rounds.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A seed from the environment variable `name` (decimal or 0x hex), else a fresh random one. */
  static seedFrom(name: string): number {
    const raw = process.env[name];
    if (raw !== undefined && raw !== '') {
      const seed = Number(raw);
      if (!Number.isSafeInteger(seed) || seed < 0)
        throw new Error(`${name} must be a non-negative integer, got ${raw}`);
      return seed >>> 0;
    }
    return crypto.getRandomValues(new Uint32Array(1))[0]!;
  }

  /** A generator for sub-stream `index`, independent of this one's use. */
  fork(index: number): SeededRandom {
    return new SeededRandom(mix32((this.#state ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0));
  }

  /** Uniform in [0, 2^32). */
  nextUint32(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    return mix32(this.#state);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 2 ** 32;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** One key of `weights`, with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [key, weight] of entries) {
      roll -= weight;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }
}

function mix32(value: number): number {
  let z = value >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}
