// Measurement 6: heap growth of walking a million charges. The walk runs in a
// child with --expose-gc; this process serves the lazily built pages.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.js';

export interface HeapResult {
  items: number;
  baselineMB: number;
  /** heapUsed after the walk and a full GC, minus before. */
  growthMB: number;
  /** The largest heapUsed after a full GC taken mid-walk (every 100k items), minus before. */
  retainedDuringWalkMB: number;
  /** The largest heapUsed sampled every 1000 items (garbage included), minus before. */
  peakMB: number;
  seconds: number;
}

const child = fileURLToPath(new URL('./heap-walk.ts', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

export async function heapWalk(total = 1_000_000, pageSize = 100): Promise<HeapResult> {
  const server = await startServer({ total });
  const started = performance.now();
  try {
    const args = ['--expose-gc', '--import', 'tsx', child, server.url, String(pageSize)];
    const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    proc.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve, reject) => {
      proc.on('error', reject).on('close', resolve);
    });
    if (code !== 0) throw new Error(`bench heap walk exited with ${code}`);
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as Omit<HeapResult, 'seconds'>;
    if (result.items !== total) throw new Error(`bench heap walk: ${result.items} items, expected ${total}`);
    return { ...result, seconds: (performance.now() - started) / 1000 };
  } finally {
    await server.close();
  }
}
