/**
 * Nothing of an in-process sandbox left open keeps its process alive: not a
 * webhook retry's wait, not an attempt's time limit, not a charge's expiry
 * (each in a child process, which must exit by itself). Yet a process that
 * awaits webhooksSettled() stays until the retry has come.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NODE_WITH_TSX } from '../helpers/tsx.js';

const PROGRAM = 'test/sandbox/left-open.ts';
/** Far less than the 10-minute retry the program leaves pending, far more than tsx's start. */
const PATIENCE_MS = 12_000;

/** Runs the program; its exit code and output, or `exited: false` (and the child killed) after PATIENCE_MS. */
function run(mode: 'leave' | 'await'): Promise<{ exited: boolean; code: number | null; out: string; err: string }> {
  const [node, ...loader] = NODE_WITH_TSX;
  const child = spawn(node, [...loader, PROGRAM, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  return new Promise((resolve) => {
    const patience = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ exited: false, code: null, out, err });
    }, PATIENCE_MS);
    child.on('exit', (code) => {
      clearTimeout(patience);
      resolve({ exited: true, code, out, err });
    });
  });
}

describe('an in-process sandbox left open', () => {
  it('lets the process exit with a retry pending, after a failing handler and an unreachable URL', async () => {
    const { exited, code, out, err } = await run('leave');
    expect(exited, `still running after ${PATIENCE_MS} ms: a timer keeps it alive\n${out}${err}`).toBe(true);
    expect(err).toBe('');
    expect(code).toBe(0);
    // The first attempts were made and failed, each with a retry waiting when the process ended.
    expect(out).toContain('handler: attempt 1 pending, retry true');
    expect(out).toContain('url: attempt 1 pending, retry true');
  }, 20_000);

  it('keeps the process alive while webhooksSettled() is awaited, until the retry delivers', async () => {
    const { exited, code, out, err } = await run('await');
    expect(exited).toBe(true);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe('settled: delivered after 2\n');
  }, 20_000);
});
