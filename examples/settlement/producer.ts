/**
 * The settlement's producer: walks the paid charges once and makes one payout
 * job per seller, its amount fixed in the job. The job's id names the
 * business operation (this seller, this day), so a second run of the producer
 * adds nothing BullMQ already holds, and the key the worker derives from it
 * is the same whoever runs the job and however often.
 */
import type { Queue } from 'bullmq';
import type { Client } from 'lunas-sdk';
import { cents, decimal, type PayoutJob, payoutJobId, sellerOf, sellerShare } from './shared.js';

/** What the producer queued: the jobs, and the money they owe in all, in cents. */
export interface Produced {
  jobs: number;
  owed: bigint;
}

/**
 * Queues the payouts of `day`: every paid charge whose reference names a
 * seller, summed per seller (in cents), and that seller's share of it.
 */
export async function queuePayouts(client: Client, queue: Queue<PayoutJob>, day: string): Promise<Produced> {
  const net = new Map<string, { cents: bigint; orders: number }>();
  for await (const charge of client.charges.list({ pagesize: 100 })) {
    const seller = sellerOf(charge.client_reference_id);
    if (charge.status !== 'success' || seller === undefined) continue;
    const sum = net.get(seller) ?? { cents: 0n, orders: 0 };
    sum.cents += cents(charge.amount) - cents(charge.fee);
    sum.orders += 1;
    net.set(seller, sum);
  }
  const jobs = [...net]
    .filter(([, sum]) => sellerShare(sum.cents) > 0n) // a transfer moves more than 0
    .map(([seller, sum]) => {
      const data: PayoutJob = { seller, amount: decimal(sellerShare(sum.cents)), orders: sum.orders, day };
      return { name: 'payout', data, opts: { jobId: payoutJobId(day, seller) } };
    });
  for (let start = 0; start < jobs.length; start += 500) await queue.addBulk(jobs.slice(start, start + 500));
  return { jobs: jobs.length, owed: jobs.reduce((sum, job) => sum + cents(job.data.amount), 0n) };
}
