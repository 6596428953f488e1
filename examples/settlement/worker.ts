/**
 * A settlement worker: one process of many, on any machine, taking jobs from
 * BullMQ on Redis. A payout job makes one transfer with the Idempotency-Key
 * derived from the job's id (never from the attempt), so a job run again,
 * after a crash between the transfer and the job's "done", moves no money
 * twice. A 429 or 503 pauses the whole queue, every worker, for what its
 * `Retry-After` asks. It also walks reconciliation windows and adds them up.
 *
 * Run (examples/settlement/run.ts starts several):
 *   REDIS_URL=redis://127.0.0.1:6379 LUNAS_BASE_URL=… LUNAS_API_KEY=sk_test_… npx tsx examples/settlement/worker.ts
 * CONCURRENCY: jobs in flight in this process (default 16), and so requests (maxConcurrentRequests).
 */
import { type Job, Queue, RateLimitError, UnrecoverableError, Worker } from 'bullmq';
import { APIError, Client, idempotencyKeyFor, LunasError } from 'lunas-sdk';
import { combine, type Totals, walkWindow, type Window } from './reconcile.js';
import { PAYOUTS_QUEUE, type PayoutJob, RECONCILE_QUEUE, redisConnection } from './shared.js';

const concurrency = Number(process.env.CONCURRENCY ?? 16);
/** The demo's crash point (run.ts --die-after-transfer): die right after this many transfers, before the job is done. */
const dieAfter = Number(process.env.DIE_AFTER_TRANSFERS ?? 0);
let transfersMade = 0;
// No retries inside a call: the queue is the retry loop, so a 429 pauses every
// worker at once, and an attempt is one job attempt, visible in BullMQ.
const client = new Client({ maxRetries: 0, maxConcurrentRequests: concurrency });
const connection = redisConnection();
const payouts = new Queue<PayoutJob>(PAYOUTS_QUEUE, { connection });

async function pay(job: Job<PayoutJob>): Promise<{ transfer: string }> {
  const { seller, amount, day } = job.data;
  if (job.id === undefined) throw new UnrecoverableError('a payout job needs its id: the key is made from it');
  // The business operation's key: the same on every attempt, on every worker, after any crash.
  const idempotencyKey = await idempotencyKeyFor(job.id);
  try {
    const transfer = await client.transfers.create(
      {
        destination_account_id: seller,
        amount,
        currency: 'idr',
        client_reference_id: job.id,
        description: `Settlement ${day}`,
      },
      { idempotencyKey },
    );
    if (++transfersMade === dieAfter) process.kill(process.pid, 'SIGKILL'); // the money moved; the job is not done
    return { transfer: transfer.id };
  } catch (error) {
    const wait = error instanceof APIError && [429, 503].includes(error.status) ? error.retryAfterMs : undefined;
    if (wait !== undefined) {
      // The service asked its clients to wait: the whole queue waits, on every
      // worker, and this job goes back to the queue without using an attempt.
      await payouts.rateLimit(wait);
      throw new RateLimitError();
    }
    // Refused (a 4xx other than 408, 409 and 429): nothing moved, and the same
    // request would be refused again. The job fails for a person to look at.
    if (error instanceof LunasError && !error.outcomeUnknown) throw new UnrecoverableError(error.message);
    // The outcome is unknown: BullMQ runs the job again after its backoff, and
    // the same key makes the transfer, or answers with the one already made.
    throw error;
  }
}

async function reconcile(job: Job<Window | { cutoff: string }>): Promise<Totals> {
  if (job.name === 'window') return walkWindow(client, job.data as Window);
  // The parent: its children's totals, added up once every window is done.
  return combine(Object.values(await job.getChildrenValues<Totals>()));
}

// BullMQ applies `rateLimit` only to workers with a limiter; this one is far
// above anything the service takes, so only the service's own 429s limit it.
const limiter = { max: 1_000_000, duration: 1000 };
// A killed worker's jobs return to the queue once their lock expires: 5 s here
// (30 s by default), checked every 2.5 s by the workers still running.
const locks = { lockDuration: 5000, stalledInterval: 2500, maxStalledCount: 5 };
const workers = [
  new Worker<PayoutJob>(PAYOUTS_QUEUE, pay, { connection, concurrency, limiter, ...locks }),
  new Worker<Window | { cutoff: string }>(RECONCILE_QUEUE, reconcile, { connection, concurrency: 2, ...locks }),
];
await Promise.all(workers.map((worker) => worker.waitUntilReady()));
console.log(`worker ${process.pid} ready`);

async function stop(): Promise<void> {
  await Promise.all(workers.map((worker) => worker.close()));
  await payouts.close();
  await connection.quit();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
