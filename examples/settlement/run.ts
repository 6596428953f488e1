/**
 * A marketplace's daily settlement on BullMQ, across worker processes,
 * against the embedded sandbox over real HTTP: `npm run demo:settlement`.
 *
 * It starts its own Redis (Debian's redis-server, on a free port) and a
 * sandbox with a seller account per seller and their paid orders; the
 * producer turns the paid charges into one payout job per seller; K worker
 * processes make the transfers. Mid-run two workers are killed with SIGKILL,
 * jobs in flight and all, and started again. The last line compares what the
 * sandbox itself recorded with what was owed: transfers made, duplicates
 * (by the job's reference), money sent against money owed, to the cent.
 *
 *   npm run demo:settlement                                   # 2,000 sellers, 4 workers, 2 killed
 *   npx tsx examples/settlement/run.ts --rate-limit-every 10  # a tenth of transfers answered 429
 *   npx tsx examples/settlement/run.ts --reconcile 20000      # the reconciliation fan-out instead
 *
 * Options: --sellers N, --workers K, --kill N (0: none), --concurrency C (jobs
 * in flight per worker), --die-after-transfer N (the first worker kills itself
 * right after its N-th transfer, before the job is done: the crash point that
 * matters), --rate-limit-every N with --retry-after SECONDS,
 * --reconcile CHARGES with --pages-per-job N, --json (the summary as JSON).
 * It exits 1 when a check fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { FlowProducer, Job, Queue } from 'bullmq';
import { Client, idempotencyKeyFor } from 'lunas-sdk';
import { type Sandbox, startSandbox } from 'lunas-sdk/testing';
import { queuePayouts } from './producer.js';
import { planWindows, type Totals, walkAlone } from './reconcile.js';
import { startRedis } from './redis.js';
import {
  cents,
  PAYOUTS_QUEUE,
  type PayoutJob,
  payoutJobId,
  RECONCILE_QUEUE,
  redisConnection,
  rupiah,
  sellerOf,
  sellerShare,
} from './shared.js';

const { values: flags } = parseArgs({
  options: {
    sellers: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '4' },
    kill: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '16' },
    'rate-limit-every': { type: 'string', default: '0' },
    'retry-after': { type: 'string', default: '1' },
    'die-after-transfer': { type: 'string', default: '100' },
    reconcile: { type: 'string' },
    'pages-per-job': { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
  },
});
const count = (name: keyof typeof flags, least: number): number => {
  const value = Number(flags[name]);
  if (!Number.isSafeInteger(value) || value < least) throw new Error(`--${name} must be a whole number from ${least}`);
  return value;
};
const workerCount = count('workers', 1);
const killCount = count('kill', 0);
if (killCount > workerCount) throw new Error('--kill must be at most --workers');

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;

const redis = await startRedis();
process.env.REDIS_URL = redis.url;
const sandbox = await startSandbox();
const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url });
const running = new Set<ChildProcess>();

/** A worker process, and when it says it is ready (it rejects should the worker exit first). */
function startWorker(extraEnv: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void> } {
  const env = {
    ...process.env,
    ...extraEnv,
    REDIS_URL: redis.url,
    LUNAS_BASE_URL: sandbox.url,
    LUNAS_API_KEY: sandbox.apiKey,
    CONCURRENCY: flags.concurrency,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let said = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
      if (said.includes('ready')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`a worker exited before it was ready (${code ?? signal})`)));
  });
  ready.catch(() => {}); // a restarted worker is not awaited; one that dies is restarted again
  return { child, ready };
}

/** `count` workers, once every one is ready; `env` for the first. */
async function startWorkers(count: number, env: Record<string, string> = {}): Promise<ChildProcess[]> {
  const started = Array.from({ length: count }, (_, index) => startWorker(index === 0 ? env : {}));
  await Promise.all(started.map(({ ready }) => ready));
  return started.map(({ child }) => child);
}

let failed = false;
try {
  const summary = flags.reconcile === undefined ? await settle() : await reconcile(count('reconcile', 1));
  console.log(flags.json ? JSON.stringify(summary.json) : summary.line);
  failed = !summary.ok;
} finally {
  await Promise.all(
    [...running].map(async (child) => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }),
  );
  await sandbox.close();
  await redis.stop();
}
process.exitCode = failed ? 1 : 0;

interface Summary {
  ok: boolean;
  line: string;
  json: Record<string, unknown>;
}

/** The sellers, their paid orders (and some that were not paid), on the sandbox. */
async function seedMarketplace(sandbox: Sandbox, sellers: number): Promise<void> {
  const orders: { reference: string; paid: boolean }[] = [];
  for (let i = 1; i <= sellers; i++) {
    const seller = `acc_s${String(i).padStart(5, '0')}`;
    sandbox.addAccount({ id: seller, name: `Seller ${i}` });
    for (let j = 1; j <= 1 + (i % 3) + (i % 5 === 0 ? 1 : 0); j++) {
      const whole = 10_000 + ((i * 7919 + j * 104_729) % 490_000);
      const amount = `${whole}.${String((i * 37 + j * 11) % 100).padStart(2, '0')}`;
      const reference = `order-${seller}-${j}`;
      const payment_method = (i + j) % 4 === 0 ? 'virtual_account' : 'qris';
      sandbox.seedCharges(1, { payment_method, amount, client_reference_id: reference });
      // Every fifth seller's last order is never paid: it is owed nothing.
      orders.push({ reference, paid: !(i % 5 === 0 && j === 2 + (i % 3)) });
    }
  }
  const idByReference = new Map(sandbox.charges().map((charge) => [charge.client_reference_id, charge.id]));
  for (const { reference, paid } of orders) {
    if (paid) await sandbox.payCharge(idByReference.get(reference)!);
  }
}

/** What each seller is owed, from the sandbox's own record of the charges (not the producer's walk). */
function owedBySeller(sandbox: Sandbox): Map<string, bigint> {
  const net = new Map<string, bigint>();
  for (const charge of sandbox.charges()) {
    const seller = sellerOf(charge.client_reference_id);
    if (charge.status !== 'success' || seller === undefined) continue;
    net.set(seller, (net.get(seller) ?? 0n) + cents(charge.amount) - cents(charge.fee));
  }
  const owed = new Map<string, bigint>();
  for (const [seller, sum] of net) if (sellerShare(sum) > 0n) owed.set(seller, sellerShare(sum));
  return owed;
}

async function settle(): Promise<Summary> {
  const sellers = count('sellers', 1);
  const every = count('rate-limit-every', 0);
  await seedMarketplace(sandbox, sellers);
  const day = sandbox.now().slice(0, 10);
  const owed = owedBySeller(sandbox);
  // The first worker dies by itself at the crash point that matters: right after a transfer
  // was made, before its job is marked done. The loop below starts it again.
  const dieAfter = count('die-after-transfer', 0);
  let workers = await startWorkers(workerCount, dieAfter > 0 ? { DIE_AFTER_TRANSFERS: String(dieAfter) } : {});
  if (every > 0) {
    const headers = { 'Retry-After': flags['retry-after']! };
    sandbox.inject({
      kind: 'status',
      status: 429,
      method: 'POST',
      path: '/v1/transfers',
      every,
      times: Infinity,
      headers,
    });
  }
  const connection = redisConnection();
  const queue = new Queue<PayoutJob>(PAYOUTS_QUEUE, {
    connection,
    // An attempt ends in an unknown outcome (no answer, a 5xx): run the job again later, with the same key.
    defaultJobOptions: { attempts: 10, backoff: { type: 'exponential', delay: 250 } },
  });
  const begun = performance.now();
  const produced = await queuePayouts(client, queue, day);
  console.log(`Queued ${produced.jobs} payout jobs owing ${rupiah(produced.owed)} to ${workerCount} workers`);

  let killed = 0;
  let died = 0;
  for (const deadline = performance.now() + 300_000; ; await sleep(100)) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if (counts.completed! + counts.failed! >= produced.jobs) break;
    if (performance.now() > deadline) throw new Error(`not done after 5 minutes: ${JSON.stringify(counts)}`);
    const dead = workers.filter((worker) => worker.exitCode !== null || worker.signalCode !== null);
    if (dead.length > 0) {
      died += dead.length;
      console.log(
        `${dead.length} worker(s) died (${dead.map((worker) => worker.signalCode).join(', ')}); starting again`,
      );
      workers = [...workers.filter((worker) => !dead.includes(worker)), ...dead.map(() => startWorker().child)];
    }
    if (killed === 0 && killCount > 0 && counts.completed! >= produced.jobs * 0.3) {
      // Jobs in flight there may have moved money already: their locks expire, another worker runs them again.
      const victims = workers.slice(0, killCount);
      for (const victim of victims) victim.kill('SIGKILL');
      killed = victims.length;
      console.log(`Killed ${killed} workers with SIGKILL after ${counts.completed} jobs; starting them again`);
      workers = [...workers.slice(killCount), ...victims.map(() => startWorker().child)];
    }
  }
  const wallMs = performance.now() - begun;
  const failedJobs = await queue.getJobCounts('failed');
  // When each job's last attempt began: a worker took it from the queue then.
  const taken = (await queue.getJobs(['completed'])).flatMap((job) => (job.processedOn ? [job.processedOn] : []));
  await queue.close();
  await connection.quit();

  // The sandbox's own record, not the workers' say-so.
  const transfers = sandbox.transfers();
  const byReference = new Map<string, number>();
  for (const { client_reference_id: reference } of transfers) {
    byReference.set(reference ?? '', (byReference.get(reference ?? '') ?? 0) + 1);
  }
  const duplicates = transfers.length - byReference.size;
  const wrong = transfers.filter(
    (transfer) =>
      transfer.client_reference_id !== payoutJobId(day, transfer.destination_account_id) ||
      owed.get(transfer.destination_account_id) !== cents(transfer.amount),
  ).length;
  const made = [...owed.keys()].filter((seller) => byReference.has(payoutJobId(day, seller))).length;
  const sent = transfers.reduce((sum, transfer) => sum + cents(transfer.amount), 0n);
  const owedSum = [...owed.values()].reduce((sum, value) => sum + value, 0n);
  const balancesRight = [...owed].every(([seller, value]) => cents(sandbox.balance(seller)) === value);
  // Each key's requests, as the sandbox received them (the newest 10,000 requests are kept).
  const sends = new Map<string, number[]>();
  const arrivals: number[] = [];
  for (const { method, path, idempotencyKey, at } of sandbox.requests) {
    if (method !== 'POST' || path !== '/v1/transfers' || !idempotencyKey) continue;
    sends.set(idempotencyKey, [...(sends.get(idempotencyKey) ?? []), at.getTime()]);
    arrivals.push(at.getTime());
  }
  // The fault answered every `every`-th transfer request with 429, and the worker that met it
  // paused the queue for Retry-After: from 0.4 to 0.9 of that time after a 429, no worker takes a
  // job. (Jobs taken before it may still send then, on a busy machine: those are not counted.)
  const pauseMs = Number(flags['retry-after']) * 1000;
  const limitedAt = every > 0 ? arrivals.filter((_, index) => (index + 1) % every === 0) : [];
  const takenInPauses = taken.filter((time) =>
    limitedAt.some((limited) => time > limited + 0.4 * pauseMs && time < limited + 0.9 * pauseMs),
  ).length;
  const requests = [...sends.values()].reduce((sum, times) => sum + times.length, 0);
  const sentAgain = [...sends.values()].filter((times) => times.length > 1).length;
  // The crash point that matters: a transfer made, then its job run again (its worker died before
  // marking it done), and the same key sent after it was made: answered with that transfer.
  let madeThenRunAgain = 0;
  for (const transfer of transfers) {
    const times = sends.get(await idempotencyKeyFor(transfer.client_reference_id ?? '-')) ?? [];
    if (times.some((time) => time > Date.parse(transfer.created_at))) madeThenRunAgain++;
  }
  const answered429 = every > 0 ? Math.floor(requests / every) : 0;
  const ok =
    produced.jobs === owed.size &&
    made === owed.size &&
    transfers.length === owed.size &&
    duplicates === 0 &&
    wrong === 0 &&
    sent === owedSum &&
    balancesRight &&
    takenInPauses === 0 &&
    failedJobs.failed === 0;
  const perSecond = (transfers.length / wallMs) * 1000;
  const line =
    `settlement: ${produced.jobs} jobs, ${made} transfers made, ${duplicates} duplicates, ` +
    `sent ${rupiah(sent)} of ${rupiah(owedSum)} owed (${sent === owedSum ? 'exact' : 'MISMATCH'}), ` +
    `${workerCount} workers${killed + died > 0 ? ` (${killed} killed, ${died} died, all restarted)` : ''}, ${requests} transfer requests ` +
    `(${answered429} answered 429${every > 0 ? `, ${takenInPauses} jobs taken while paused` : ''}, ` +
    `${sentAgain} keys sent again, ${madeThenRunAgain} after their transfer was made), ` +
    `${seconds(wallMs)}, ` +
    `${perSecond.toLocaleString('en', { maximumFractionDigits: 0 })} transfers/s${ok ? '' : ' — CHECK FAILED'}`;
  const json = {
    jobs: produced.jobs,
    made,
    transfers: transfers.length,
    duplicates,
    wrong,
    sent: rupiah(sent),
    owed: rupiah(owedSum),
    exact: sent === owedSum,
    balancesRight,
    failedJobs: failedJobs.failed,
    workers: workerCount,
    killed,
    died,
    requests,
    answered429,
    sentAgain,
    madeThenRunAgain,
    takenInPauses,
    wallMs: Math.round(wallMs),
    totalMs: Math.round(performance.now() - started),
  };
  return { ok, line, json };
}

/** `charges` charges, 300 a minute of sandbox time (a window's bounds fall inside a minute), each third paid and each third failed; the rest expire. */
async function seedCharges(sandbox: Sandbox, charges: number): Promise<void> {
  for (let seeded = 0, batch = 0; seeded < charges; batch++) {
    const size = Math.min(300, charges - seeded);
    const whole = 5_000 + ((batch * 7919) % 95_000);
    const payment_method = batch % 3 === 0 ? 'virtual_account' : 'qris';
    sandbox.seedCharges(size, { payment_method, amount: `${whole}.${String(batch % 100).padStart(2, '0')}` });
    const made = sandbox.charges().slice(-size);
    for (const [index, charge] of made.entries()) {
      if ((seeded + index) % 3 === 0) await sandbox.payCharge(charge.id);
      else if ((seeded + index) % 3 === 1) await sandbox.failCharge(charge.id);
    }
    seeded += size;
    await sandbox.advanceClock(60_000);
  }
  await sandbox.advanceClock(2 * 24 * 60 * 60_000); // every charge still pending expires: nothing changes during the walks
}

async function reconcile(charges: number): Promise<Summary> {
  await seedCharges(sandbox, charges);
  await startWorkers(workerCount);
  const connection = redisConnection();
  const begun = performance.now();
  const { cutoff, windows } = await planWindows(client, count('pages-per-job', 1));
  const flow = new FlowProducer({ connection });
  const attempts = { attempts: 5, backoff: { type: 'exponential', delay: 250 } };
  const tree = await flow.add({
    name: 'total',
    queueName: RECONCILE_QUEUE,
    data: { cutoff },
    opts: attempts,
    children: windows.map((window) => ({ name: 'window', queueName: RECONCILE_QUEUE, data: window, opts: attempts })),
  });
  const queue = new Queue(RECONCILE_QUEUE, { connection });
  let fanned: Totals | undefined;
  for (const deadline = performance.now() + 300_000; fanned === undefined; await sleep(50)) {
    const parent = await Job.fromId<unknown, Totals>(queue, tree.job.id!);
    const state = await parent?.getState();
    if (state === 'completed') fanned = parent!.returnvalue;
    else if (state === 'failed' || performance.now() > deadline) throw new Error(`the fan-out ended ${state}`);
  }
  const fanOutMs = performance.now() - begun;
  await Promise.all([flow.close(), queue.close()]);
  await connection.quit();
  const alone = performance.now();
  const single = await walkAlone(client, cutoff);
  const aloneMs = performance.now() - alone;
  const ok = JSON.stringify(fanned) === JSON.stringify(single) && single.charges === charges;
  const statuses = Object.entries(single.byStatus)
    .map(([status, { count, amount }]) => `${count} ${status} ${rupiah(cents(amount))}`)
    .join(', ');
  const line =
    `reconciliation: ${fanned.charges} charges in ${windows.length} windows over ${workerCount} workers ` +
    `${ok ? 'equal' : 'DIFFER FROM'} one walk of ${single.charges} (${statuses}; fees ${rupiah(cents(single.fees))}); ` +
    `fan-out ${seconds(fanOutMs)}, one process ${seconds(aloneMs)}${ok ? '' : ' — CHECK FAILED'}`;
  const json = {
    charges,
    windows: windows.length,
    workers: workerCount,
    equal: JSON.stringify(fanned) === JSON.stringify(single),
    fanned,
    single,
    fanOutMs: Math.round(fanOutMs),
    aloneMs: Math.round(aloneMs),
  };
  return { ok, line, json };
}
