/**
 * examples/settlement as CI runs it (the measures): 2,000 payouts over 4
 * worker processes with two killed by SIGKILL mid-run and one dying right after a
 * transfer, before its job was done; the same with a tenth of the transfers
 * answered 429; and the reconciliation of 20,000 charges fanned out by time
 * window against one walk. Every figure is read from the sandbox's own records
 * by examples/settlement/run.ts, never from the workers.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** run.ts with `args` and --json: its last line, the summary. */
async function settlement(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/settlement/run.ts', ...args, '--json'], {
    timeout: 280_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`run.ts failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  const summary = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  console.log(`run.ts ${args.join(' ')}: ${JSON.stringify(summary)}`);
  return summary;
}

/** Every seller paid once, the sum exact, though two of the four workers were killed mid-run. */
const PAID_ONCE = {
  jobs: 2000,
  made: 2000,
  transfers: 2000,
  duplicates: 0,
  wrong: 0,
  exact: true,
  balancesRight: true,
  failedJobs: 0,
  killed: 2,
};

describe('payouts past one process', () => {
  it('2,000 payouts over 4 workers, 2 killed mid-run and 1 dead after a transfer: each transfer made once, the sum exact', async () => {
    const summary = await settlement(
      '--sellers',
      '2000',
      '--workers',
      '4',
      '--kill',
      '2',
      '--die-after-transfer',
      '100',
    );
    expect(summary).toMatchObject(PAID_ONCE);
    expect(summary.sent).toBe(summary.owed);
    // The worker that died between a transfer and its job's "done": its jobs ran again, with the same keys.
    expect(summary.died).toBeGreaterThanOrEqual(1);
    expect(summary.madeThenRunAgain).toBeGreaterThanOrEqual(1);
  });

  it('the same with a tenth of the transfers answered 429: the whole queue pauses as Retry-After says', async () => {
    const summary = await settlement('--rate-limit-every', '10', '--retry-after', '1', '--die-after-transfer', '100');
    expect(summary).toMatchObject({ ...PAID_ONCE, takenInPauses: 0 });
    // One transfer request in ten was answered 429, and sent again later with its job's key.
    const { requests, answered429 } = summary as { requests: number; answered429: number };
    expect(answered429).toBe(Math.floor(requests / 10));
    expect(answered429).toBeGreaterThanOrEqual(200);
    expect(requests).toBeGreaterThanOrEqual(2000 + answered429);
  });

  it('the reconciliation of 20,000 charges in time windows over 4 workers equals one walk', async () => {
    const summary = await settlement('--reconcile', '20000', '--workers', '4', '--pages-per-job', '10');
    expect(summary.equal).toBe(true);
    expect(summary.windows).toBe(20);
    expect(summary.fanned).toEqual(summary.single);
    expect((summary.single as { charges: number }).charges).toBe(20_000);
  });
});
