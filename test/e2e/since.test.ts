/**
 * `list(...).since(time)` against the sandbox over real HTTP: the sandbox's
 * clock (`now`) places charges and transfers on either side of the time, and
 * the walk yields those at or after it, requesting no page past the one
 * holding the first older item.
 */
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from 'lunas-sdk';
import { start } from './helpers.js';
import { rejection } from '../helpers/rejection.js';
import { sleep } from '../helpers/waiting.js';

const DAY = 24 * 60 * 60 * 1000;
const TODAY = Date.parse('2026-11-23T09:00:00.000Z');

/** A sandbox clock the test sets; each reading moves it on 1 ms, so no two items share a created_at. */
function settableClock(): { now: () => Date; set: (time: number) => void } {
  let current = 0;
  return { now: () => new Date(current++), set: (time) => (current = time) };
}

const pagesOf = (requests: readonly { path: string; query: Record<string, string> }[], path: string) =>
  requests.filter((request) => request.path === path).map((request) => Number(request.query.page));

describe('since over HTTP', () => {
  it('charges: yields today’s charges, newest first, and stops at the first one from before yesterday', async () => {
    const clock = settableClock();
    const { sandbox, client } = await start({ now: clock.now });
    clock.set(TODAY - 2 * DAY);
    sandbox.seedCharges(5);
    clock.set(TODAY);
    const today = [];
    for (let i = 0; i < 7; i++) today.push(await client.charges.create({ payment_method: 'qris', amount: 10_000 + i }));
    const before = sandbox.requests.length;

    const walked = [];
    for await (const charge of client.charges.list({ pagesize: 3 }).since(new Date(TODAY - DAY))) walked.push(charge);
    // Give a look-ahead time to arrive, were one sent.
    await sleep(100);

    expect(walked.map((charge) => charge.id)).toEqual(today.map((charge) => charge.id).reverse());
    // Seven recent charges: pages 1 and 2 full, page 3 holds the seventh and the first older one.
    expect(pagesOf(sandbox.requests.slice(before), '/v1/payments/charges')).toEqual([1, 2, 3]);
  });

  it('transfers: toArray since an ISO time collects the recent ones only', async () => {
    const clock = settableClock();
    const { sandbox, client } = await start({ now: clock.now });
    const send = (amount: number) =>
      client.transfers.create({ destination_account_id: 'acc_partner', amount, currency: 'idr' });
    clock.set(TODAY - 2 * DAY);
    await send(1);
    await send(2);
    clock.set(TODAY);
    const recent = [await send(3), await send(4)];
    const before = sandbox.requests.length;

    const collected = await client.transfers
      .list({ pagesize: 100 })
      .since(new Date(TODAY - DAY).toISOString())
      .toArray({ limit: 100 });

    expect(collected.map((transfer) => transfer.id)).toEqual(recent.map((transfer) => transfer.id).reverse());
    expect(pagesOf(sandbox.requests.slice(before), '/v1/transfers')).toEqual([1]);
  });

  it('a time that is not one, and a list whose items document no created_at, are refused with nothing sent', async () => {
    const { sandbox, client } = await start();
    const before = sandbox.requests.length;
    await rejection(client.charges.list().since('yesterday').toArray({ limit: 1 }), RequestValidationError);
    const payouts = client.payouts.list() as unknown as { since(time: Date): { toArray(o: object): Promise<unknown> } };
    await rejection(payouts.since(new Date()).toArray({ limit: 1 }), RequestValidationError);
    expect(sandbox.requests.length).toBe(before);
  });
});
