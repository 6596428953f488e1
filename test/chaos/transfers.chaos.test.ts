/**
 * Chaos: transfers through the SDK against real sandboxes while every kind of
 * fault the sandbox offers is injected at random, then the books are checked.
 *
 * - Every call settles, within an overall deadline, with a transfer or a
 *   `LunasError`.
 * - No Idempotency-Key is applied twice: one transfer at most per key, every
 *   attempt of a call carries the call's key, and retrying a failed call with
 *   the key its error carries never pays a second time.
 * - Nothing is lost: after that retry every valid transfer exists exactly once,
 *   and the balances add up to the cent.
 *
 * The run is split into lanes, each a sandbox of its own driven by one client,
 * one call at a time, so the faults armed before a call hit that call and a
 * lane's schedule depends only on the seed. Lanes run side by side.
 *
 *   LUNAS_CHAOS_OPS    operations in all (default 300; 2,000 in npm run test:slow; more by hand)
 *   LUNAS_CHAOS_SEED   replays a run: the seed is printed at the start
 *   LUNAS_CHAOS_LANES  lanes side by side (default: one per 8 operations, 4 to 128)
 *
 * Timing still varies from run to run (a 180 ms delay against a 200 ms
 * timeout may land either side), so a replay arms the same faults for the
 * same calls, not necessarily with the same outcomes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  Client,
  getResponseInfo,
  LunasError,
  RequestValidationError,
  type Transfer,
  type TransferCreateParams,
} from 'lunas-sdk';
import { type Fault, type Sandbox, startSandbox, type TransferRecord } from 'lunas-sdk/testing';
import { SeededRandom } from '../helpers/seeded-random.js';
import { sleep } from '../helpers/waiting.js';

const OPS = positiveIntFromEnv('LUNAS_CHAOS_OPS', 300);
const SEED = SeededRandom.seedFrom('LUNAS_CHAOS_SEED');
const LANES = Math.min(OPS, positiveIntFromEnv('LUNAS_CHAOS_LANES', Math.min(128, Math.max(4, Math.ceil(OPS / 8)))));

/** Per-attempt timeout of the clients: small, so hangs and long delays cost little. */
const TIMEOUT_MS = 200;
const MAX_RETRIES = 2;
/** Longest `delay` fault armed; the sandbox processes a delayed request even after the client gave up. */
const MAX_DELAY_MS = 600;
/** Slack on top of the computed worst case of a call before it counts as hung. */
const DEADLINE_SLACK_MS = 5_000;

const SOURCE = 'acc_source';
const DESTINATIONS = ['acc_north', 'acc_south'] as const;
const CLOSED = 'acc_closed';
/** Large enough that only the deliberate overdrafts are refused. */
const OPENING_CENTS = 100_000_000_000n; // 1,000,000,000.00
const TRANSFERS_PATH = '/v1/transfers';

type OpKind = 'transfer' | 'replay' | 'closed' | 'overdraft' | 'invalid';

type Outcome =
  { kind: 'transfer'; transfer: Transfer } | { kind: 'error'; error: unknown } | { kind: 'hung'; afterMs: number };

/** One call the chaos makes. */
interface Op {
  lane: number;
  index: number;
  kind: OpKind;
  params: TransferCreateParams;
  /** Amount in cents, for the checks (0 for invalid operations). */
  cents: bigint;
  destination: string;
  /** The client_reference_id that ties sandbox transfers back to their operation. */
  ref: string;
  /** The key passed as the idempotencyKey option, when one is. */
  ownKey: string | undefined;
  maxRetries: number;
  faults: Fault[];
  /** The key the call used, from its result or its error. */
  key?: string | undefined;
  outcome?: Outcome;
  /** The outcome of the retry with the error's key, for calls that failed. */
  reconciled?: Outcome;
  /** Whether a transfer for the key existed when that retry was made. */
  existedBeforeRetry?: boolean;
}

interface Lane {
  sandbox: Sandbox;
  ops: Op[];
  transfers: TransferRecord[];
  requests: Sandbox['requests'];
  balances: Map<string, bigint>;
}

const lanes: Lane[] = [];
let durationMs = 0;

beforeAll(
  async () => {
    console.log(
      `chaos: seed ${SEED}, ${OPS} operations in ${LANES} lanes ` +
        `(replay with LUNAS_CHAOS_SEED=${SEED} LUNAS_CHAOS_OPS=${OPS} LUNAS_CHAOS_LANES=${LANES})`,
    );
    const root = new SeededRandom(SEED);
    const started = performance.now();
    const sizes = Array.from({ length: LANES }, (_, lane) => Math.floor(OPS / LANES) + (lane < OPS % LANES ? 1 : 0));
    lanes.push(...(await Promise.all(sizes.map((size, lane) => runLane(lane, size, root.fork(lane))))));
    durationMs = performance.now() - started;
    console.log(summary());
  },
  60_000 + OPS * 60,
);

afterAll(async () => {
  await Promise.all(lanes.map((lane) => lane.sandbox.close()));
});

const allOps = () => lanes.flatMap((lane) => lane.ops);
const where = (op: Op) => `seed ${SEED}, lane ${op.lane}, operation ${op.index} (${op.kind})`;

describe(`chaos: ${OPS} transfers under random faults`, () => {
  it('ran every operation, and the faults of every kind', () => {
    expect(allOps()).toHaveLength(OPS);
    if (OPS < 200) return;
    const kinds = new Set(allOps().flatMap((op) => op.faults.map((fault) => fault.kind)));
    expect([...kinds].sort()).toEqual(['delay', 'drop', 'hang', 'html', 'lost-response', 'malformed', 'status']);
  });

  it('every call settled within its deadline, with a transfer or a LunasError', () => {
    for (const op of allOps()) {
      expect(op.outcome?.kind, where(op)).not.toBe('hung');
      if (op.outcome?.kind === 'error') {
        expect(op.outcome.error, where(op)).toBeInstanceOf(LunasError);
        const { name } = op.outcome.error as Error;
        expect(['TypeError', 'SyntaxError', 'RangeError', 'Error'], where(op)).not.toContain(name);
      }
      if (op.reconciled !== undefined) {
        expect(op.reconciled.kind, where(op)).not.toBe('hung');
        if (op.reconciled.kind === 'error') expect(op.reconciled.error, where(op)).toBeInstanceOf(LunasError);
      }
    }
  });

  it('invalid parameters are refused before sending, and valid ones never are', () => {
    for (const op of allOps()) {
      const error = op.outcome?.kind === 'error' ? op.outcome.error : undefined;
      if (op.kind === 'invalid') expect(error, where(op)).toBeInstanceOf(RequestValidationError);
      else expect(error, where(op)).not.toBeInstanceOf(RequestValidationError);
    }
    for (const lane of lanes) {
      const keys = new Set(lane.requests.map((request) => request.idempotencyKey));
      for (const op of lane.ops.filter((each) => each.kind === 'invalid'))
        expect(keys.has(op.ownKey), where(op)).toBe(false);
    }
  });

  it('every attempt of a call carries the call’s one Idempotency-Key, and no more attempts than allowed', () => {
    for (const lane of lanes) {
      const allowed = new Map<string, number>();
      for (const op of lane.ops) {
        if (op.kind === 'invalid') continue;
        // Every call that reached the transport knows its key, from its result or its error.
        expect(op.key, where(op)).toBeDefined();
        if (op.ownKey !== undefined) expect(op.key, where(op)).toBe(op.ownKey);
        const key = op.key!;
        allowed.set(key, (allowed.get(key) ?? 0) + op.maxRetries + 1 + (op.reconciled ? 3 : 0));
        if (op.outcome?.kind === 'transfer') {
          const info = getResponseInfo(op.outcome.transfer);
          expect(info?.idempotencyKey, where(op)).toBe(key);
          expect(info?.attempts, where(op)).toBeLessThanOrEqual(op.maxRetries + 1);
        }
      }
      const posts = lane.requests.filter((request) => request.method === 'POST' && request.path === TRANSFERS_PATH);
      const seen = new Map<string, number>();
      for (const request of posts) {
        expect(request.idempotencyKey, `seed ${SEED}: a transfer POST without an Idempotency-Key`).toBeDefined();
        seen.set(request.idempotencyKey!, (seen.get(request.idempotencyKey!) ?? 0) + 1);
      }
      for (const [key, count] of seen) {
        expect(allowed.has(key), `seed ${SEED}: key ${key} belongs to no call`).toBe(true);
        expect(count, `seed ${SEED}: requests with key ${key}`).toBeLessThanOrEqual(allowed.get(key)!);
      }
    }
  });

  it('no Idempotency-Key is applied twice: one transfer at most per key, and what a call returned is what was stored', () => {
    for (const lane of lanes) {
      const byRef = groupBy(lane.transfers, (transfer) => transfer.client_reference_id ?? '');
      for (const [ref, stored] of byRef) expect(stored, `seed ${SEED}: transfers for ${ref}`).toHaveLength(1);
      const byId = new Map(lane.transfers.map((transfer) => [transfer.id, transfer]));
      for (const op of lane.ops) {
        for (const outcome of [op.outcome, op.reconciled]) {
          if (outcome?.kind !== 'transfer') continue;
          expect(outcome.transfer, where(op)).toEqual(byId.get(outcome.transfer.id));
          expect(outcome.transfer.client_reference_id, where(op)).toBe(op.ref);
        }
      }
    }
  });

  it('nothing is lost: retrying a failed call with its error’s key yields its one transfer, or its one refusal', () => {
    for (const lane of lanes) {
      const byRef = groupBy(lane.transfers, (transfer) => transfer.client_reference_id ?? '');
      for (const op of lane.ops) {
        const stored = byRef.get(op.ref) ?? [];
        if (op.kind === 'transfer' || op.kind === 'replay') {
          expect(stored, where(op)).toHaveLength(1);
          expect(stored[0]?.amount, where(op)).toBe(formatCents(op.cents));
          expect(stored[0]?.destination_account_id, where(op)).toBe(op.destination);
        } else {
          expect(stored, where(op)).toHaveLength(0);
        }
        if (op.outcome?.kind !== 'error' || op.kind === 'invalid') {
          expect(op.reconciled, where(op)).toBeUndefined();
          continue;
        }
        const retried = op.reconciled;
        if (op.kind === 'closed' || op.kind === 'overdraft') {
          expect(retried?.kind, where(op)).toBe('error');
          const status = retried?.kind === 'error' ? (retried.error as APIError).status : undefined;
          expect(status, where(op)).toBe(op.kind === 'closed' ? 400 : 403);
          continue;
        }
        expect(retried?.kind, where(op)).toBe('transfer');
        if (retried?.kind !== 'transfer') continue;
        expect(retried.transfer.id, where(op)).toBe(stored[0]?.id);
        // A transfer the failed call had made is replayed, never made again. (One made by a
        // delayed request landing just after the look may be replayed too.)
        const replayed = getResponseInfo(retried.transfer)?.headers.get('idempotent-replayed') === 'true';
        if (op.existedBeforeRetry) expect(replayed, where(op)).toBe(true);
      }
    }
  });

  it('balances add up to the cent: the source’s debit is the sum of the transfers, and each destination’s credit its share', () => {
    for (const lane of lanes) {
      const total = lane.transfers.reduce((sum, transfer) => sum + cents(transfer.amount), 0n);
      expect(OPENING_CENTS - lane.balances.get(SOURCE)!, `seed ${SEED}: debit of the source`).toBe(total);
      for (const destination of [...DESTINATIONS, CLOSED]) {
        const credit = lane.transfers
          .filter((transfer) => transfer.destination_account_id === destination)
          .reduce((sum, transfer) => sum + cents(transfer.amount), 0n);
        expect(lane.balances.get(destination), `seed ${SEED}: credit of ${destination}`).toBe(credit);
      }
      // What the caller learned (first calls and retries) accounts for every stored transfer.
      const known = new Map<string, bigint>();
      for (const op of lane.ops) {
        for (const outcome of [op.outcome, op.reconciled]) {
          if (outcome?.kind === 'transfer') known.set(outcome.transfer.id, cents(outcome.transfer.amount));
        }
      }
      expect(
        [...known.values()].reduce((sum, amount) => sum + amount, 0n),
        `seed ${SEED}: known transfers`,
      ).toBe(total);
      expect(known.size).toBe(lane.transfers.length);
    }
  });
});

async function runLane(lane: number, size: number, random: SeededRandom): Promise<Lane> {
  const sandbox = await startSandbox({
    accounts: [
      { id: SOURCE, name: 'Source', balance: formatCents(OPENING_CENTS) },
      { id: DESTINATIONS[0], name: 'North', balance: '0.00' },
      { id: DESTINATIONS[1], name: 'South', balance: '0.00' },
      { id: CLOSED, name: 'Closed', balance: '0.00', active: false },
    ],
    account: SOURCE,
  });
  const client = new Client({
    apiKey: sandbox.apiKey,
    baseURL: sandbox.url,
    timeout: TIMEOUT_MS,
    maxRetries: MAX_RETRIES,
    logLevel: 'off',
  });
  const ops: Op[] = [];
  for (let index = 0; index < size; index++) {
    const op = planOp(lane, index, random, ops);
    ops.push(op);
    for (const fault of op.faults) sandbox.inject(fault);
    op.outcome = await settle(
      client.transfers.create(op.params, {
        maxRetries: op.maxRetries,
        ...(op.ownKey === undefined ? {} : { idempotencyKey: op.ownKey }),
      }),
      deadline(op.maxRetries),
    );
    op.key = keyOf(op.outcome) ?? op.ownKey;
    sandbox.clearFaults();
  }

  // A delayed request is processed after its client gave up: let the last ones land.
  await sleep(MAX_DELAY_MS + 400);

  // The caller's recovery: retry each failed call once more with its error's key, faults
  // cleared, with a patient client so a busy machine cannot fail the retry itself.
  const patient = client.withOptions({ timeout: 10_000, maxRetries: 2 });
  for (const op of ops) {
    if (op.outcome?.kind !== 'error' || op.kind === 'invalid' || op.key === undefined) continue;
    op.existedBeforeRetry = sandbox.transfers().some((transfer) => transfer.client_reference_id === op.ref);
    op.reconciled = await settle(patient.transfers.create(op.params, { idempotencyKey: op.key }), 40_000);
  }

  const balances = new Map(
    [SOURCE, ...DESTINATIONS, CLOSED].map((account) => [account, cents(sandbox.balance(account))]),
  );
  return { sandbox, ops, transfers: [...sandbox.transfers()], requests: sandbox.requests, balances };
}

function planOp(lane: number, index: number, random: SeededRandom, earlier: readonly Op[]): Op {
  const ref = `chaos-${lane}-${index}`;
  const ownKey = random.chance(0.5) ? `chaos-key-${SEED}-${lane}-${index}` : undefined;
  const maxRetries = random.weighted({ [MAX_RETRIES]: 8, 0: 1, 3: 1 } as Record<string, number>);
  const faults = random.chance(0.55) ? Array.from({ length: random.int(1, 3) }, () => randomFault(random)) : [];
  const base = { lane, index, ref, ownKey, maxRetries: Number(maxRetries), faults };
  const originals = earlier.filter((op) => op.kind === 'transfer' && op.key !== undefined);

  let kind = random.weighted({ transfer: 80, replay: 7, closed: 4, overdraft: 4, invalid: 5 });
  if (kind === 'replay' && originals.length === 0) kind = 'transfer';
  switch (kind) {
    case 'replay': {
      // The merchant repeats an earlier operation, with its key and its body.
      const original = random.pick(originals);
      const { params, cents: amountCents, destination } = original;
      return { ...base, kind, params, cents: amountCents, destination, ref: original.ref, ownKey: original.key };
    }
    case 'closed':
    case 'overdraft': {
      const amountCents = kind === 'overdraft' ? OPENING_CENTS + 1n : BigInt(random.int(1, 500_000));
      const destination = kind === 'closed' ? CLOSED : random.pick(DESTINATIONS);
      const params = transferParams(destination, wireAmount(amountCents, random), ref);
      return { ...base, kind, params, cents: amountCents, destination };
    }
    case 'invalid': {
      const valid = transferParams(random.pick(DESTINATIONS), '10.00', ref);
      const broken = random.pick<Record<string, unknown>>([
        { amount: 0 },
        { amount: '1.001' },
        { amount: -5 },
        { currency: 'usd' },
        { destination_account_id: '' },
        { unexpected: true },
      ]);
      const params = { ...valid, ...broken } as TransferCreateParams;
      // An invalid call always has its own key, so the checks can prove it never left.
      return { ...base, kind, params, cents: 0n, destination: '', ownKey: `chaos-invalid-${SEED}-${lane}-${index}` };
    }
    default: {
      const amountCents = BigInt(random.int(1, 500_000));
      const destination = random.pick(DESTINATIONS);
      return {
        ...base,
        kind: 'transfer',
        params: transferParams(destination, wireAmount(amountCents, random), ref),
        cents: amountCents,
        destination,
      };
    }
  }
}

function transferParams(destination: string, amount: number | string, ref: string): TransferCreateParams {
  return { destination_account_id: destination, amount, currency: 'idr', client_reference_id: ref };
}

/** The amount as a merchant might pass it: a number, a two-decimal string or a whole string. */
function wireAmount(amountCents: bigint, random: SeededRandom): number | string {
  const text = formatCents(amountCents);
  const form = random.int(0, 2);
  if (form === 0) return Number(text);
  if (form === 1 || !text.endsWith('.00')) return text;
  return text.slice(0, -3);
}

const RETRIED_STATUSES = [408, 409, 429, 500, 502, 503, 504];
const FINAL_STATUSES = [400, 401, 403, 404, 422];

function randomFault(random: SeededRandom): Fault {
  const target = { method: 'POST', path: TRANSFERS_PATH } as const;
  switch (
    random.weighted({ retried: 4, final: 1, bad200: 1, html: 2, delay: 2, hang: 1, drop: 2, lost: 3, malformed: 2 })
  ) {
    case 'retried':
      return { ...target, kind: 'status', status: random.pick(RETRIED_STATUSES), headers: waitHeaders(random) };
    case 'final': {
      const status = random.pick(FINAL_STATUSES);
      const body =
        status === 400
          ? { status: 'fail', data: { amount: ['Injected refusal'] } }
          : { status: 'error', message: 'Injected' };
      return { ...target, kind: 'status', status, body };
    }
    case 'bad200':
      return {
        ...target,
        kind: 'status',
        status: 200,
        body: random.pick<string | object>([
          '',
          'OK',
          '{"status":"success","data":{"id":5}}',
          { status: 'fail', data: { message: 'x' } },
        ]),
      };
    case 'html':
      return { ...target, kind: 'html', status: random.pick([500, 502, 503, 504]) };
    case 'delay':
      return { ...target, kind: 'delay', ms: random.int(0, MAX_DELAY_MS) };
    case 'hang':
      return { ...target, kind: 'hang' };
    case 'drop':
      return { ...target, kind: 'drop' };
    case 'lost':
      return { ...target, kind: 'lost-response' };
    default:
      return { ...target, kind: 'malformed', status: random.pick([200, 500, 503]) };
  }
}

/** The wait a retried status asks for; an absent or over-60 s value leaves the SDK's backoff in charge. */
function waitHeaders(random: SeededRandom): Record<string, string> {
  switch (random.int(0, 4)) {
    case 0:
      return { 'retry-after-ms': '0' };
    case 1:
      return { 'Retry-After': '0' };
    case 2:
      return { 'retry-after-ms': String(random.int(1, 50)) };
    case 3:
      return { 'Retry-After': '3600' };
    default:
      return {};
  }
}

/**
 * Worst case of one call: each attempt's timeout plus the longest wait before
 * each retry (backoff at most 0.5 s doubling; the faults ask for at most 50 ms).
 */
function deadline(maxRetries: number): number {
  let total = (maxRetries + 1) * TIMEOUT_MS;
  for (let retry = 1; retry <= maxRetries; retry++) total += Math.min(500 * 2 ** (retry - 1), 8_000);
  return total + DEADLINE_SLACK_MS;
}

async function settle(call: Promise<Transfer>, ms: number): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hung', afterMs: ms }), ms);
  });
  try {
    return await Promise.race([
      call.then(
        (transfer): Outcome => ({ kind: 'transfer', transfer }),
        (error: unknown): Outcome => ({ kind: 'error', error }),
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function keyOf(outcome: Outcome): string | undefined {
  if (outcome.kind === 'transfer') return getResponseInfo(outcome.transfer)?.idempotencyKey;
  if (outcome.kind === 'error' && outcome.error instanceof LunasError) return outcome.error.idempotencyKey;
  return undefined;
}

function summary(): string {
  const ops = allOps();
  const errors = new Map<string, number>();
  const faults = new Map<string, number>();
  for (const op of ops) {
    if (op.outcome?.kind === 'error') {
      const name = (op.outcome.error as Error)?.name ?? typeof op.outcome.error;
      errors.set(name, (errors.get(name) ?? 0) + 1);
    }
    for (const fault of op.faults) faults.set(fault.kind, (faults.get(fault.kind) ?? 0) + 1);
  }
  const count = (kind: Outcome['kind']) => ops.filter((op) => op.outcome?.kind === kind).length;
  const retried = ops.filter((op) => op.reconciled !== undefined);
  const recovered = retried.filter((op) => op.existedBeforeRetry).length;
  const transfers = lanes.reduce((sum, lane) => sum + lane.transfers.length, 0);
  const requests = lanes.reduce((sum, lane) => sum + lane.requests.length, 0);
  const moved = lanes.reduce((sum, lane) => sum + lane.transfers.reduce((total, t) => total + cents(t.amount), 0n), 0n);
  const sorted = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `${name} ${n}`)
      .join(', ') || 'none';
  return [
    `chaos summary (seed ${SEED}):`,
    `  operations ${ops.length} in ${LANES} lanes, ${(durationMs / 1000).toFixed(1)} s; ${requests} HTTP requests`,
    `  first calls: ${count('transfer')} transfers, ${count('error')} errors, ${count('hung')} hung`,
    `  errors by class: ${sorted(errors)}`,
    `  faults armed: ${sorted(faults)}`,
    `  retried with the error's key: ${retried.length} (${recovered} had already been applied: replayed, not repeated)`,
    `  transfers stored: ${transfers}, moving ${formatCents(moved)}`,
  ].join('\n');
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    groups.set(name, [...(groups.get(name) ?? []), item]);
  }
  return groups;
}

function cents(amount: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not a two-decimal amount: ${amount}`);
  const value = BigInt(match[2]!) * 100n + BigInt(match[3]!);
  return match[1] === '-' ? -value : value;
}

function formatCents(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

function positiveIntFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}
