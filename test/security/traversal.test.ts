/**
 * Path traversal against the real sandbox: however an id is built (`..`,
 * `%2F`, `?`, `#`, `%2e%2e`, a real id with traversal around it), a retrieve
 * reaches the retrieve handler of /v1/payments/charges with that id and no
 * other: the answer is the service's "Charge not found" (not the router's
 * "Not found" nor another endpoint's data), the sandbox records one segment
 * under the collection and no query, and only the exact id of a stored
 * charge returns it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Charge, Client, NotFoundError, RequestValidationError } from 'lunas-sdk';
import { type Sandbox, startSandbox } from 'lunas-sdk/testing';
import { hostileId } from '../helpers/hostile.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 120);
const COLLECTION = '/v1/payments/charges/';

let sandbox: Sandbox;
let client: Client;
let stored: Charge;

beforeAll(async () => {
  sandbox = await startSandbox();
  client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, maxRetries: 0, logLevel: 'off' });
  stored = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
  await client.transfers.create({ destination_account_id: 'acc_partner', amount: 1, currency: 'idr' });
});

afterAll(async () => {
  await sandbox.close();
});

/** Retrieves `id` and checks what the sandbox saw; returns the charge when one came back. */
async function retrieveChecked(id: string): Promise<Charge | undefined> {
  const before = sandbox.requests.length;
  let outcome: unknown;
  try {
    outcome = await client.charges.retrieve(id);
  } catch (error) {
    outcome = error;
  }
  const seen = sandbox.requests.slice(before);
  if (id === '' || id === '.' || id === '..') {
    expect(outcome).toBeInstanceOf(RequestValidationError);
    expect(seen).toHaveLength(0);
    return undefined;
  }
  expect(seen).toHaveLength(1);
  const [request] = seen;
  expect(request!.method).toBe('GET');
  expect(request!.query).toEqual({});
  expect(request!.path.startsWith(COLLECTION)).toBe(true);
  const segment = request!.path.slice(COLLECTION.length);
  expect(segment).not.toMatch(/[/?#]/);
  expect(decodeURIComponent(segment)).toBe(id);
  if (outcome instanceof NotFoundError) {
    // The retrieve handler's own answer: the id reached it, and nothing else did.
    expect(outcome.body).toEqual({ status: 'fail', data: { message: 'Charge not found' } });
    return undefined;
  }
  expect(id).toBe(stored.id);
  return outcome as Charge;
}

describe('retrieve with hostile ids, against the sandbox', () => {
  it.each([
    '..',
    '.',
    '',
    '%2F',
    '%2f',
    '?',
    '#',
    '%2e%2e',
    '%2E%2E',
    '..%2F',
    '../x',
    '..%2F..%2Fv1%2Ftransfers',
    '../../v1/transfers',
    '%2e%2e%2f%2e%2e%2fv1%2ftransfers',
    '?page=1',
    '#fragment',
    'x?y=z#w',
    '..\\..\\v1',
    '%00',
    '\u0000',
    '..;/transfers',
  ])('%j reaches the charge collection and nothing else', async (id) => {
    expect(await retrieveChecked(id)).toBeUndefined();
  });

  it('only the exact id of a stored charge returns it, whatever traversal surrounds it', async () => {
    expect((await retrieveChecked(stored.id))?.id).toBe(stored.id);
    for (const id of [
      `${stored.id}/..`,
      `./${stored.id}`,
      `../charges/${stored.id}`,
      `..%2Fcharges%2F${stored.id}`,
      `${stored.id}?x=1`,
      `${stored.id}#x`,
      `${stored.id}%2F`,
      `%2e%2e/${stored.id}`,
      `${stored.id}/.`,
      ` ${stored.id}`,
      `${stored.id}%00`,
    ]) {
      expect(await retrieveChecked(id), id).toBeUndefined();
    }
  });

  it('random ids glued from traversal pieces never leave the collection', async () => {
    const withStored = fc.oneof(
      hostileId,
      fc.tuple(hostileId, hostileId).map(([before, after]) => `${before}${stored.id}${after}`),
    );
    await fc.assert(
      fc.asyncProperty(withStored, async (id) => {
        await retrieveChecked(id);
      }),
      { numRuns: RUNS },
    );
    // Nothing but reads happened: no charge or transfer was made by any of those requests.
    expect((await client.charges.list()).total_items).toBe(1);
    expect(sandbox.transfers()).toHaveLength(1);
  });
});
