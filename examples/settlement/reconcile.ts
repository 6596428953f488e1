/**
 * A reconciliation of every charge, split into time windows that workers on
 * any machine walk at once, and the same walk in one process to check it.
 *
 * The list has no filters and is newest first, so a window is found by page
 * and bounded by time: a survey reads every n-th page once, and window i
 * starts at surveyed page p(i) and holds the charges created in
 * [first time on page p(i+1), first time on page p(i)). Charges created after
 * the survey only push older ones onto later pages, never earlier, so each
 * window still finds all of its own from its first page on, and none twice:
 * the bounds are times, which new charges do not move.
 */
import { createHash } from 'node:crypto';
import type { Charge, Client } from 'lunas-sdk';
import { cents, decimal } from './shared.js';

/** The most items a page holds: the fewest requests per walk. */
const PAGE_SIZE = 100;

/** One window's job: where its walk starts, and the times it holds, `from` inclusive, `to` exclusive. */
export interface Window {
  startPage: number;
  /** ISO time; `null` for the oldest window, which walks to the end of the list. */
  from: string | null;
  to: string;
}

/** What a walk adds up, in JSON (money as decimal strings), so a job can return it. */
export interface Totals {
  charges: number;
  byStatus: Record<string, { count: number; amount: string }>;
  fees: string;
  /** The sum of the charges' ids' hashes (48 bits each), mod 2^64: equal sets of ids give equal sums. */
  fingerprint: string;
}

/** Adds charges up, in cents. */
class Tally {
  charges = 0;
  fees = 0n;
  fingerprint = 0n;
  readonly byStatus = new Map<string, { count: number; amount: bigint }>();

  add(charge: Charge): void {
    this.charges += 1;
    this.fees += cents(charge.fee);
    const digest = createHash('sha256').update(charge.id).digest('hex').slice(0, 12);
    this.fingerprint = BigInt.asUintN(64, this.fingerprint + BigInt(`0x${digest}`));
    const status = this.byStatus.get(charge.status) ?? { count: 0, amount: 0n };
    status.count += 1;
    status.amount += cents(charge.amount);
    this.byStatus.set(charge.status, status);
  }

  merge(totals: Totals): void {
    this.charges += totals.charges;
    this.fees += cents(totals.fees);
    this.fingerprint = BigInt.asUintN(64, this.fingerprint + BigInt(totals.fingerprint));
    for (const [name, { count, amount }] of Object.entries(totals.byStatus)) {
      const status = this.byStatus.get(name) ?? { count: 0, amount: 0n };
      status.count += count;
      status.amount += cents(amount);
      this.byStatus.set(name, status);
    }
  }

  toJSON(): Totals {
    const statuses = [...this.byStatus].sort(([a], [b]) => a.localeCompare(b));
    return {
      charges: this.charges,
      byStatus: Object.fromEntries(
        statuses.map(([name, { count, amount }]) => [name, { count, amount: decimal(amount) }]),
      ),
      fees: decimal(this.fees),
      fingerprint: this.fingerprint.toString(),
    };
  }
}

/**
 * Surveys the list (one page in every `pagesPerJob`) and cuts it into
 * windows. `cutoff` is just after the newest charge then: the reconciliation
 * covers every charge created before it.
 */
export async function planWindows(client: Client, pagesPerJob: number): Promise<{ cutoff: string; windows: Window[] }> {
  const firsts: { page: number; time: string }[] = [];
  for (let page = 1; ; page += pagesPerJob) {
    const { data } = await client.charges.list({ page, pagesize: PAGE_SIZE });
    if (data.length === 0) break;
    firsts.push({ page, time: data[0]!.created_at });
  }
  const cutoff = new Date(Date.parse(firsts[0]?.time ?? new Date().toISOString()) + 1).toISOString();
  const windows = firsts.map(({ page }, index) => ({
    startPage: page,
    from: firsts[index + 1]?.time ?? null,
    to: index === 0 ? cutoff : firsts[index]!.time,
  }));
  return { cutoff, windows };
}

/** One window's job: the charges created in `[from, to)`, walked from its first page. */
export async function walkWindow(client: Client, window: Window): Promise<Totals> {
  const list = client.charges.list({ page: window.startPage, pagesize: PAGE_SIZE });
  const to = Date.parse(window.to);
  const tally = new Tally();
  for await (const charge of window.from === null ? list : list.since(window.from)) {
    if (Date.parse(charge.created_at) < to) tally.add(charge);
  }
  return tally.toJSON();
}

/** The windows' totals as one: what the parent job of the fan-out returns. */
export function combine(parts: Totals[]): Totals {
  const tally = new Tally();
  for (const part of parts) tally.merge(part);
  return tally.toJSON();
}

/** The same reconciliation in one process: every charge created before `cutoff`, one walk. */
export async function walkAlone(client: Client, cutoff: string): Promise<Totals> {
  const before = Date.parse(cutoff);
  const tally = new Tally();
  for await (const charge of client.charges.list({ pagesize: PAGE_SIZE })) {
    if (Date.parse(charge.created_at) < before) tally.add(charge);
  }
  return tally.toJSON();
}
