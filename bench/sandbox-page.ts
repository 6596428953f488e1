// Measurement 11: the sandbox's root page (GET / through createSandbox's fetch)
// with 100,000 seeded charges, against the same page with 50. The page shows the
// newest 50 records of each kind and counts the rest, so its cost must not grow
// with what the sandbox holds: the ratio near 1 is the figure, the milliseconds
// and bytes are context (the contract asks under 200 ms and 300 KB at 100,000).
// The sandbox as npm ships it: dist/testing/, built from src/ when older.
import type * as Testing from 'lunas-sdk/testing';
import { ensureBuilt } from './bundle.js';
import { median, timeMs } from './stats.js';

export interface SandboxPageCost {
  /** Median time of one GET / with 100,000 charges, ms. */
  fullMs: number;
  /** Median time of one GET / with 50 charges, ms. */
  smallMs: number;
  ratio: number;
  fullBytes: number;
  smallBytes: number;
  /** How long seeding the 100,000 charges took, ms (context). */
  seedMs: number;
}

export async function sandboxPage(charges = 100_000, rounds = 21): Promise<SandboxPageCost> {
  ensureBuilt();
  const { createSandbox } = (await import(new URL('../dist/testing/index.js', import.meta.url).href)) as typeof Testing;
  const small = createSandbox();
  small.seedCharges(50);
  const full = createSandbox();
  const seedMs = await timeMs(async () => full.seedCharges(charges));
  const bytes = { small: 0, full: 0 };
  const page = async (sandbox: Testing.InProcessSandbox, side: 'small' | 'full') => {
    const response = await sandbox.fetch(`${sandbox.url}/`);
    bytes[side] = Buffer.byteLength(await response.text());
  };
  const times = { small: [] as number[], full: [] as number[] };
  try {
    for (let round = -1; round < rounds; round++) {
      // Alternate which side goes first, so neither always runs on a warmer heap.
      const sides = round % 2 === 0 ? (['small', 'full'] as const) : (['full', 'small'] as const);
      for (const side of sides) {
        const ms = await timeMs(() => page(side === 'small' ? small : full, side));
        if (round >= 0) times[side].push(ms); // round -1 warms up
      }
    }
  } finally {
    await Promise.all([small.close(), full.close()]);
  }
  const fullMs = median(times.full);
  const smallMs = median(times.small);
  return { fullMs, smallMs, ratio: fullMs / smallMs, fullBytes: bytes.full, smallBytes: bytes.small, seedMs };
}
