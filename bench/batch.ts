// Measurement 10: 5,000 `charges.retrieve` calls started at once with
// Promise.all, the way a merchant's job fans out over a list of ids. Each side
// (lunas as built by default and with `fetch: undiciFetch`, bare fetch +
// JSON.parse, openai-node's `client.get()`, stripe-node's `rawRequest`) runs in a fresh `node --expose-gc` child of its
// own (batch-child.ts), so no side's heap, JIT or sockets touch another's; this
// process serves. Two variants: the batch right after the client's first call,
// and after 20. Each round runs every side and variant once, in a new order.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BatchChildResult, BatchSide } from './batch-child.js';
import { ensureBuilt, repoRoot } from './bundle.js';
import type { BenchServer } from './server.js';
import { median, seededRandom, shuffled } from './stats.js';

export type { BatchSide } from './batch-child.js';
export const BATCH_SIDES: readonly BatchSide[] = ['lunas', 'lunasUndici', 'fetch', 'openai', 'stripe'];

/** One side in one variant, over the rounds. */
export interface BatchFigures {
  /** Median wall time of the batch, ms (context: the verdict is the ratio). */
  wallMs: number;
  /** wallMs / bare fetch's wallMs in the same variant of the same run. */
  ratio: number;
  /** Median of the peak heapUsed over the baseline, divided by the calls, in KB (1,024 B). */
  peakKBPerCall: number;
  rounds: BatchChildResult[];
}

export interface BatchVariant {
  warmups: number;
  calls: number;
  sides: Record<BatchSide, BatchFigures>;
}

export interface BatchResult {
  variants: BatchVariant[];
  /**
   * Connections the kernel refused while the batches ran (TcpExtListenOverflows
   * + ListenDrops over the whole measurement, null where /proc/net/netstat is
   * not readable). Above 0, some client waited about a second to retry a
   * connection and the wall times mean little.
   */
  listenDrops: number | null;
  seconds: number;
}

const child = fileURLToPath(new URL('./batch-child.ts', import.meta.url));
const KB = 1024;

/** The kernel's count of connections dropped at a full listen queue, on Linux. */
function listenDrops(): number | null {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const names = lines.find((l) => l.startsWith('TcpExt:'))?.split(/\s+/);
    const values = lines.filter((l) => l.startsWith('TcpExt:'))[1]?.split(/\s+/);
    if (!names || !values) return null;
    const at = (name: string) => Number(values[names.indexOf(name)] ?? 0);
    return at('ListenOverflows') + at('ListenDrops');
  } catch {
    return null;
  }
}

function runChild(server: BenchServer, side: BatchSide, warmups: number, calls: number): Promise<BatchChildResult> {
  const before = server.requests();
  const args = ['--expose-gc', '--import', 'tsx', child, server.url, side, String(warmups), String(calls)];
  const proc = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  // A hung child (a stalled connection) fails the measurement rather than the clock.
  const deadline = setTimeout(() => proc.kill(), 60_000);
  return new Promise<BatchChildResult>((resolve, reject) => {
    proc.on('error', reject).on('close', (code) => {
      clearTimeout(deadline);
      if (code !== 0)
        return reject(new Error(`bench batch child (${side}, ${warmups} warm-up calls) exited with ${code}`));
      const result = JSON.parse(stdout.trim().split('\n').pop()!) as BatchChildResult;
      // Every side must have sent exactly its calls: a retry or an extra request would show here.
      const served = server.requests() - before;
      if (served !== warmups + calls) {
        return reject(new Error(`bench batch ${side}: the server saw ${served} requests, expected ${warmups + calls}`));
      }
      resolve(result);
    });
  });
}

export async function batchRetrieve(
  server: BenchServer,
  { calls = 5_000, rounds = 3, warmups = [1, 20] }: { calls?: number; rounds?: number; warmups?: number[] } = {},
): Promise<BatchResult> {
  ensureBuilt();
  const started = performance.now();
  const dropsBefore = listenDrops();
  const jobs = warmups.flatMap((w) => BATCH_SIDES.map((side) => ({ side, warmups: w })));
  const runs = new Map<string, BatchChildResult[]>(jobs.map((j) => [`${j.side}/${j.warmups}`, []]));
  const random = seededRandom(rounds * 7919 + jobs.length);
  for (let round = 0; round < rounds; round++) {
    console.error(`bench batch: round ${round + 1} of ${rounds}, ${jobs.length} processes`);
    for (const job of shuffled(jobs, random)) {
      runs.get(`${job.side}/${job.warmups}`)!.push(await runChild(server, job.side, job.warmups, calls));
    }
  }
  const dropsAfter = listenDrops();

  const variants = warmups.map((w): BatchVariant => {
    const of = (side: BatchSide) => runs.get(`${side}/${w}`)!;
    const bareMs = median(of('fetch').map((r) => r.wallMs));
    const sides = Object.fromEntries(
      BATCH_SIDES.map((side) => {
        const results = of(side);
        const wallMs = median(results.map((r) => r.wallMs));
        const peakKBPerCall = median(results.map((r) => (r.peakBytes - r.baselineBytes) / calls / KB));
        return [side, { wallMs, ratio: wallMs / bareMs, peakKBPerCall, rounds: results }];
      }),
    ) as Record<BatchSide, BatchFigures>;
    return { warmups: w, calls, sides };
  });
  return {
    variants,
    listenDrops: dropsBefore === null || dropsAfter === null ? null : dropsAfter - dropsBefore,
    seconds: (performance.now() - started) / 1000,
  };
}
