/**
 * `list(...).toArray({ limit })` against the sandbox over real HTTP: the
 * requests it sends (none past what the limit needs), the order, and the
 * same de-duplication as `for await` while charges are created mid-walk.
 */
import { describe, expect, it } from 'vitest';
import { type Charge, RequestValidationError } from 'lunas-sdk';
import type { SandboxOptions } from 'lunas-sdk/testing';
import { start } from './helpers.js';
import { rejection } from '../helpers/rejection.js';
import { sleep } from '../helpers/waiting.js';

/** A clock that moves forward 1 ms per reading, so every charge has its own created_at. */
function tickingClock(): Pick<SandboxOptions, 'now'> {
  let tick = Date.parse('2025-01-01T00:00:00.000Z');
  return { now: () => new Date(tick++) };
}

const pagesOf = (requests: readonly { query: Record<string, string> }[]) =>
  requests.map((request) => Number(request.query.page));

describe('toArray over HTTP', () => {
  it('limit = page size: one request; page size + 1: two; and each returns the newest first', async () => {
    const { sandbox, client } = await start(tickingClock());
    sandbox.seedCharges(30);
    const everything: Charge[] = [];
    for await (const charge of client.charges.list({ pagesize: 100 })) everything.push(charge);
    const before = sandbox.requests.length;

    const ten = await client.charges.list({ pagesize: 10 }).toArray({ limit: 10 });
    // Give any look-ahead time to arrive, were one sent.
    await sleep(100);
    expect(pagesOf(sandbox.requests.slice(before))).toEqual([1]);
    expect(ten.map((charge) => charge.id)).toEqual(everything.slice(0, 10).map((charge) => charge.id));

    const afterTen = sandbox.requests.length;
    const eleven = await client.charges.list({ pagesize: 10 }).toArray({ limit: 11 });
    await sleep(100);
    expect(pagesOf(sandbox.requests.slice(afterTen))).toEqual([1, 2]);
    expect(eleven.map((charge) => charge.id)).toEqual(everything.slice(0, 11).map((charge) => charge.id));
  });

  it('a limit past the end returns every item, stopping at the short page', async () => {
    const { sandbox, client } = await start(tickingClock());
    sandbox.seedCharges(25);
    const all = await client.charges.list({ pagesize: 10 }).toArray({ limit: 10_000 });
    expect(all).toHaveLength(25);
    expect(new Set(all.map((charge) => charge.id)).size).toBe(25);
    expect(pagesOf(sandbox.requests)).toEqual([1, 2, 3]);
  });

  it('charges created during the walk neither repeat an item nor count toward the limit', async () => {
    const { sandbox, client } = await start(tickingClock());
    sandbox.seedCharges(30);
    const original = (await client.charges.list({ pagesize: 100 })).data.map((charge) => charge.id);
    // Each new charge pushes the oldest of every page onto the next.
    let created = 0;
    client.on('response', () => {
      if (created++ < 2) sandbox.seedCharges(3);
    });
    const collected = await client.charges.list({ pagesize: 10 }).toArray({ limit: 25 });
    expect(collected.map((charge) => charge.id)).toEqual(original.slice(0, 25));
  });

  it('transfers, payouts and payment methods collect the same way', async () => {
    const { client } = await start();
    await client.transfers.create({ destination_account_id: 'acc_partner', amount: 10, currency: 'idr' });
    expect(await client.transfers.list().toArray({ limit: 5 })).toHaveLength(1);
    expect(await client.payouts.list({ pagesize: 1 }).toArray({ limit: 2 })).toEqual(
      (await client.payouts.list()).data.slice(0, 2),
    );
    expect((await client.paymentMethods.list({ pagesize: 2 }).toArray({ limit: 3 })).length).toBe(3);
  });

  it('a bad limit sends nothing', async () => {
    const { sandbox, client } = await start();
    for (const limit of [0, 10_001, 1.5, '5', undefined]) {
      await rejection(client.charges.list().toArray({ limit } as { limit: number }), RequestValidationError);
    }
    expect(sandbox.requests).toEqual([]);
  });
});
