/**
 * What the settlement's processes share: the queues' names, the Redis
 * connection, the payout job, the marketplace's share rule, and money as
 * integer cents (never floating point: the Charges guide).
 */
import { Redis } from 'ioredis';

/** The payout jobs: one per seller and settlement day. */
export const PAYOUTS_QUEUE = 'payouts';
/** The reconciliation's jobs: one per time window, and their parent, which adds them up. */
export const RECONCILE_QUEUE = 'reconcile';

/**
 * A connection to the Redis at `REDIS_URL`. `maxRetriesPerRequest: null` is
 * what BullMQ asks of a worker's connection: a command waits out a Redis
 * restart instead of failing the job.
 */
export function redisConnection(): Redis {
  const url = process.env.REDIS_URL;
  if (url === undefined) throw new Error('REDIS_URL is not set: the Redis of the queues, e.g. redis://127.0.0.1:6379');
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** A payout job's data, fixed when the job is made: a rerun pays exactly this, never a recomputed amount. */
export interface PayoutJob {
  /** The seller's account on the platform. */
  seller: string;
  /** What the seller is owed, a two-decimal string, e.g. `'221400.00'`. */
  amount: string;
  /** How many paid orders it covers. */
  orders: number;
  /** The settlement day, `2026-05-04`. */
  day: string;
}

/** A payout job's id: one per seller and day. BullMQ refuses `:` in an id, so `-` joins the parts. */
export const payoutJobId = (day: string, seller: string): string => `settle-${day}-${seller}`;

/** The seller an order's charge pays, from its reference `order-<seller>-<n>`; undefined for another charge. */
export function sellerOf(clientReferenceId: string | null | undefined): string | undefined {
  return /^order-(acc_\w+?)-\d+$/.exec(clientReferenceId ?? '')?.[1];
}

/** The seller's part of the orders' net (amount less the service's fee): 90 %, rounded down to the cent. */
export const sellerShare = (netCents: bigint): bigint => (netCents * 90n) / 100n;

/** `'25000.50'` → `2500050n`: money from a response, exactly. */
export function cents(amount: string): bigint {
  const match = /^(\d+)\.(\d{2})$/.exec(amount);
  if (!match) throw new Error(`not a two-decimal amount: ${amount}`);
  return BigInt(match[1]!) * 100n + BigInt(match[2]!);
}

/** `2500050n` → `'25000.50'`, as requests take money (not for negative amounts). */
export const decimal = (value: bigint): string => `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;

/** `2500050n` → `'Rp 25.000,50'`: rupiah as people in Indonesia read it. */
export function rupiah(value: bigint): string {
  const whole = (value / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const rest = value % 100n;
  return `Rp ${whole}${rest === 0n ? '' : `,${rest.toString().padStart(2, '0')}`}`;
}
