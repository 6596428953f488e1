/**
 * Count what was paid on one day (Jakarta time) by `paid_at`, not by `created_at`.
 *
 * The service lists charges newest first by `created_at` and has no filter on
 * `paid_at`. A charge is paid while it is pending, so one paid today may have
 * been created yesterday, as early as its expiry window allows: a virtual
 * account charge created at 23:30 and paid at 01:00. The walk goes back by
 * that window, and `paid_at` decides. Money is summed in integer cents.
 *
 * Run: LUNAS_API_KEY=... LUNAS_BASE_URL=... npx tsx examples/paid-today.ts
 * (DAY=2026-05-04 counts that day instead of today.)
 */
import { Client } from 'lunas-sdk';

/**
 * The longest a charge of yours can stay pending: the latest `expires_at` you
 * set, else the service's default per method (which it does not publish; the
 * sandbox uses 15 minutes for QRIS and 24 hours for a virtual account).
 */
const LONGEST_PENDING_MS = 24 * 60 * 60_000;
/** Clocks apart: the service's and yours may differ by seconds (the Pagination guide). */
const CLOCK_MARGIN_MS = 10 * 60_000;
/** Jakarta (WIB) is UTC+7 all year round: Indonesia has no daylight saving time. */
const JAKARTA = '+07:00';

const cents = (amount: string): bigint => BigInt(amount.replace('.', '')); // '150000.50' -> 15000050n
const decimal = (amountInCents: bigint): string =>
  `${amountInCents / 100n}.${(amountInCents % 100n).toString().padStart(2, '0')}`;

const client = new Client();

const day = process.env.DAY ?? new Date(Date.now() + 7 * 60 * 60_000).toISOString().slice(0, 10);
const start = Date.parse(`${day}T00:00:00${JAKARTA}`);
if (Number.isNaN(start)) throw new TypeError(`DAY must be a date such as 2026-05-04 (got ${JSON.stringify(day)})`);
const end = start + 24 * 60 * 60_000;

// Created up to LONGEST_PENDING_MS before midnight, a charge may still have been paid after it.
const createdSince = new Date(start - LONGEST_PENDING_MS - CLOCK_MARGIN_MS);
let count = 0;
let total = 0n;
for await (const charge of client.charges.list({ pagesize: 100 }).since(createdSince)) {
  // Rupiah only: an amount in another currency is summed apart, never added to these.
  if (charge.status !== 'success' || charge.paid_at === null || charge.currency !== 'idr') continue;
  const paidAt = Date.parse(charge.paid_at);
  if (paidAt < start || paidAt >= end) continue;
  count += 1;
  total += cents(charge.amount);
}
console.log(`Paid on ${day} (Jakarta): ${count} charge(s), ${decimal(total)} idr`);

// What a walk back to midnight by creation time counts: not what was created before midnight and paid after.
let createdToday = 0n;
for await (const charge of client.charges.list({ pagesize: 100 }).since(new Date(start))) {
  if (charge.status === 'success' && charge.paid_at !== null && charge.currency === 'idr') {
    createdToday += cents(charge.amount);
  }
}
console.log(`Created since midnight and paid: ${decimal(createdToday)} idr, which is not the day's takings`);
