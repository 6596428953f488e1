// Measurement 8: how long a fresh Node process spends importing the built
// package, against importing `openai` (a Stainless SDK) the same way.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './bundle.js';
import { median } from './stats.js';

export interface ColdImport {
  bareMs: number;
  lunasMs: number;
  openaiMs: number;
  lunasDeltaMs: number;
  openaiDeltaMs: number;
  /** (lunas - bare) / (openai - bare) */
  ratio: number;
}

// All three run as ESM eval, so the deltas hold the import and nothing else.
// lunas is imported by file URL from this repo's dist/, openai resolves from
// this repo's node_modules (eval code resolves from the cwd).
const lunasEntry = pathToFileURL(join(repoRoot, 'dist/index.js')).href;
const scripts = {
  bare: '0',
  lunas: `await import(${JSON.stringify(lunasEntry)})`,
  openai: `await import('openai')`,
} as const;
type Subject = keyof typeof scripts;

function spawnMs(subject: Subject): number {
  const start = performance.now();
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', scripts[subject]], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`bench cold import of ${subject} failed: ${run.stderr}`);
  return ms;
}

export function coldImport(spawns = 15): ColdImport {
  const order: Subject[] = ['bare', 'lunas', 'openai'];
  const times: Record<Subject, number[]> = { bare: [], lunas: [], openai: [] };
  for (const subject of order) spawnMs(subject); // warm the file system cache
  for (let i = 0; i < spawns; i++) {
    // Rotate who goes first so no subject always follows the same neighbour.
    for (let j = 0; j < order.length; j++) {
      const subject = order[(i + j) % order.length]!;
      times[subject].push(spawnMs(subject));
    }
  }
  const bareMs = median(times.bare);
  const lunasMs = median(times.lunas);
  const openaiMs = median(times.openai);
  return {
    bareMs,
    lunasMs,
    openaiMs,
    lunasDeltaMs: lunasMs - bareMs,
    openaiDeltaMs: openaiMs - bareMs,
    ratio: (lunasMs - bareMs) / (openaiMs - bareMs),
  };
}
