// Measurement 8: how long a fresh Node process spends importing the built
// package, against importing `openai` (a Stainless SDK) the same way.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './bundle.js';
import { API_KEY, chargeId } from './fixtures.js';
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

export interface ColdStart {
  bareMs: number;
  lunasMs: number;
  openaiMs: number;
  /** lunasMs / openaiMs: whole processes, import and first request. */
  ratio: number;
}

/** Runs one process to its exit, without blocking this one (the bench server answers it). */
function spawnAsyncMs(script: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - start;
      if (code === 0) resolve(ms);
      else reject(new Error(`bench cold start failed: ${stderr}`));
    });
  });
}

/**
 * Cold start as a merchant's short-lived process sees it: a fresh Node process
 * that imports the SDK, makes a client and sends one `charges.retrieve` to the
 * bench server, against openai-node doing the same GET with `client.get()`.
 */
export async function coldStart(baseURL: string, spawns = 15): Promise<ColdStart> {
  const path = `/v1/payments/charges/${chargeId(1)}`;
  const scripts = {
    bare: '0',
    lunas:
      `const { Client } = await import(${JSON.stringify(lunasEntry)});` +
      `await new Client({ apiKey: ${JSON.stringify(API_KEY)}, baseURL: ${JSON.stringify(baseURL)} })` +
      `.charges.retrieve(${JSON.stringify(chargeId(1))});`,
    openai:
      `const { default: OpenAI } = await import('openai');` +
      `await new OpenAI({ apiKey: ${JSON.stringify(API_KEY)}, baseURL: ${JSON.stringify(baseURL)} })` +
      `.get(${JSON.stringify(path)});`,
  };
  const order = ['bare', 'lunas', 'openai'] as const;
  const times: Record<(typeof order)[number], number[]> = { bare: [], lunas: [], openai: [] };
  for (const subject of order) await spawnAsyncMs(scripts[subject]);
  for (let i = 0; i < spawns; i++) {
    for (let j = 0; j < order.length; j++) {
      const subject = order[(i + j) % order.length]!;
      times[subject].push(await spawnAsyncMs(scripts[subject]));
    }
  }
  const lunasMs = median(times.lunas);
  const openaiMs = median(times.openai);
  return { bareMs: median(times.bare), lunasMs, openaiMs, ratio: lunasMs / openaiMs };
}
