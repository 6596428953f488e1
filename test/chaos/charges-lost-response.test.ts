/**
 * POST /v1/payments/charges after a lost response. The service documents
 * idempotency for transfers only, and the sandbox does not apply the
 * Idempotency-Key to charges. lunas still sends one key per call, the same
 * on every attempt, and retries a charge like any POST, so against such a
 * service a lost response followed by the automatic retry leaves two pending
 * charges. These tests pin that down, and the two ways out that
 * docs/reliability.md describes: look the charge up by client_reference_id,
 * or create charges with maxRetries: 0 and decide yourself.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError, type Charge, Client, getResponseInfo } from 'lunas-sdk';
import { startSandbox } from 'lunas-sdk/testing';

async function setUp(onTestFinished: (fn: () => Promise<void>) => void) {
  const sandbox = await startSandbox();
  onTestFinished(() => sandbox.close());
  const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, timeout: 300, logLevel: 'off' });
  sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/payments/charges' });
  return { sandbox, client };
}

/** Every charge with this reference, walking the newest-first list. */
async function chargesFor(client: Client, reference: string): Promise<Charge[]> {
  const found: Charge[] = [];
  for await (const charge of client.charges.list({ pagesize: 100 })) {
    if (charge.client_reference_id === reference) found.push(charge);
  }
  return found;
}

describe('charges.create after a lost response', () => {
  it('the automatic retry carries the same key, and a service that ignores it for charges stores a second pending charge', async ({
    onTestFinished,
  }) => {
    const { sandbox, client } = await setUp(onTestFinished);
    const charge = await client.charges.create({
      payment_method: 'qris',
      amount: 25_000,
      client_reference_id: 'order-1042',
    });

    const info = getResponseInfo(charge);
    expect(info?.attempts).toBe(2);
    const posts = sandbox.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.idempotencyKey)).toEqual([info?.idempotencyKey, info?.idempotencyKey]);

    const stored = await chargesFor(client, 'order-1042');
    expect(stored).toHaveLength(2);
    expect(stored.every((each) => each.status === 'pending')).toBe(true);
    // The caller holds the newer one; the older, whose answer was lost, is the duplicate to let expire.
    expect(stored[0]!.id).toBe(charge.id);
    expect(stored[1]!.id).not.toBe(charge.id);
  });

  it('with maxRetries: 0 there is one charge at most, the error carries the key, and the reference finds the charge', async ({
    onTestFinished,
  }) => {
    const { client } = await setUp(onTestFinished);
    const error = await client.charges
      .create({ payment_method: 'qris', amount: 25_000, client_reference_id: 'order-1043' }, { maxRetries: 0 })
      .catch((reason: unknown) => reason);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await chargesFor(client, 'order-1043');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.status).toBe('pending');
  });
});
