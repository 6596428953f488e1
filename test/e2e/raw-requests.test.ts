/**
 * `client.get` / `client.post` against the sandbox over real HTTP: data
 * checked by Standard Schemas, one Idempotency-Key across retries and
 * replays, the service's refusals as typed errors, and paths that would take
 * the API key to another host refused before anything is sent.
 */
import { createServer } from 'node:http';
import * as zm from 'zod/mini';
import { z as zc } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  BadRequestError,
  getResponseInfo,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
  ResponseValidationError,
} from 'lunas-sdk';
import { listenForTest } from '../helpers/recorders.js';
import { start, transferTo } from './helpers.js';
import { REQUEST_ID, UUID_V4 } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

/** A server on 127.0.0.1 standing for another host: it counts what reaches it. */
async function otherHost(): Promise<{ origin: string; hits: { url: string; authorization: string | undefined }[] }> {
  const hits: { url: string; authorization: string | undefined }[] = [];
  const server = createServer((req, res) => {
    hits.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success","data":{}}');
  });
  return { origin: await listenForTest(server), hits };
}

describe('client.get', () => {
  it('reads a list endpoint’s data with a query, as unknown', async () => {
    const { sandbox, client } = await start();
    const data = await client.get('/v1/payouts', { query: { page: 1, pagesize: 2 } });
    expect(Array.isArray(data)).toBe(true);
    expect((data as { id: string }[]).map((payout) => payout.id)).toEqual([
      'po_3c1f0b7a9e2d4c6b8a0f1e2d',
      'po_2b0e9a6f8d1c3b5a7f9e0d1c',
    ]);
    expect(sandbox.requests.map((request) => [request.path, request.query])).toEqual([
      ['/v1/payouts', { page: '1', pagesize: '2' }],
    ]);
    expect(getResponseInfo(data as object)?.requestId).toMatch(REQUEST_ID);
  });

  it('zod/mini and classic zod schemas type and check a charge', async () => {
    const { client } = await start();
    const created = await client.charges.create({ payment_method: 'qris', amount: 12_345 });
    const mini = zm.object({ id: zm.string(), status: zm.string(), amount: zm.string() });
    const classic = zc.object({ id: zc.string(), amount: zc.string().transform(Number) });

    const viaMini = await client.get(`/v1/payments/charges/${created.id}`, { schema: mini });
    const viaClassic = await client.get(`/v1/payments/charges/${created.id}`, { schema: classic });

    expect(viaMini).toEqual({ id: created.id, status: 'pending', amount: '12345.00' });
    expect(viaClassic).toEqual({ id: created.id, amount: 12_345 });
  });

  it('a hand-written async Standard Schema works as well', async () => {
    const { client } = await start();
    const ids = {
      '~standard': {
        version: 1 as const,
        vendor: 'acme',
        validate: async (value: unknown) =>
          Array.isArray(value)
            ? { value: value.map((item) => String((item as { id: unknown }).id)) }
            : { issues: [{ message: 'expected a list' }] },
      },
    };
    expect(await client.get('/v1/payments/methods', { query: { pagesize: 2 }, schema: ids })).toEqual([
      'pm_qris',
      expect.stringMatching(/^pm_/) as string,
    ]);
  });

  it('a schema the real response does not match: ResponseValidationError at data.<field>, raw body kept', async () => {
    const { client } = await start();
    const created = await client.charges.create({ payment_method: 'qris', amount: 1_000 });
    const error = await rejection(
      client.get(`/v1/payments/charges/${created.id}`, { schema: zm.object({ amount: zm.number() }) }),
      ResponseValidationError,
    );
    expect(error.path).toBe('data.amount');
    expect(JSON.parse(error.body)).toMatchObject({ status: 'success', data: { id: created.id, amount: '1000.00' } });
  });

  it('the service’s 404 and 405 are APIErrors with their status', async () => {
    const { client } = await start();
    const missing = await rejection(client.get('/v1/payments/charges/ch_000000000000000000000000'), NotFoundError);
    expect(missing.requestId).toMatch(REQUEST_ID);
    const unknownPath = await rejection(client.get('/v1/refunds'), NotFoundError);
    expect(unknownPath.status).toBe(404);
    const wrongMethod = await rejection(client.post('/v1/payouts', { body: {} }), APIError);
    expect(wrongMethod.status).toBe(405);
  });

  it('retries a 503 and a malformed body is a ResponseValidationError', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 1 });
    sandbox.inject({ kind: 'status', status: 503, headers: { 'retry-after-ms': '0' } });
    const data = await client.get('/v1/payouts');
    expect(getResponseInfo(data as object)?.attempts).toBe(2);
    sandbox.inject({ kind: 'malformed' });
    await rejection(client.get('/v1/payouts'), ResponseValidationError);
  });
});

describe('client.post', () => {
  it('creates a transfer once, however often it is retried or replayed with its key', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 2 });
    sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    const body = transferTo('1500.00');

    const first = (await client.post('/v1/transfers', { body, idempotencyKey: 'raw-settle-1' })) as { id: string };
    const again = (await client.post('/v1/transfers', { body, idempotencyKey: 'raw-settle-1' })) as { id: string };

    expect(again.id).toBe(first.id);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('1500.00');
    const posts = sandbox.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.idempotencyKey)).toEqual(['raw-settle-1', 'raw-settle-1', 'raw-settle-1']);
    expect(getResponseInfo(again)?.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a generated key is a UUID, the same on the retry', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 1 });
    sandbox.inject({ kind: 'status', status: 500, method: 'POST', headers: { 'retry-after-ms': '0' } });
    await client.post('/v1/transfers', { body: transferTo(10) });
    const keys = sandbox.requests.map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toBe(keys[0]);
  });

  it('the service’s refusals are typed: fail envelope fields, insufficient balance', async () => {
    const { client } = await start();
    const bad = await rejection(
      client.post('/v1/transfers', { body: { destination_account_id: 'acc_partner', amount: 0, currency: 'idr' } }),
      BadRequestError,
    );
    expect(Object.keys(bad.fields)).toContain('amount');
    await rejection(client.post('/v1/transfers', { body: transferTo('99999999.00') }), PermissionDeniedError);
  });
});

describe('the API key never goes to another host', () => {
  it('absolute, protocol-relative and escaping paths are refused before sending', async () => {
    const { sandbox, client } = await start();
    const other = await otherHost();
    const hostPort = other.origin.slice('http://'.length);
    const paths = [
      `${other.origin}/steal`,
      `//${hostPort}/steal`,
      `localhost:${other.origin.split(':').at(-1)}/steal`,
      '../steal',
      '/v1/../../steal',
      '/v1/%2e%2e/steal',
      '/v1/payouts?redirect=1',
      '\\\\127.0.0.1\\steal',
    ];
    for (const path of paths) {
      await rejection(client.get(path), RequestValidationError);
      await rejection(client.post(path, { body: { amount: 1 } }), RequestValidationError);
    }
    expect(other.hits).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });

  it('a path that looks like a host stays a path under the base URL', async () => {
    const { sandbox, client } = await start();
    const other = await otherHost();
    const hostPort = other.origin.slice('http://'.length);
    // Neither is a URL with a host: the first starts with a digit, so it has no scheme.
    await rejection(client.get(`${hostPort}/steal`), NotFoundError);
    await rejection(client.get(`/@${hostPort}/steal`), NotFoundError);
    expect(other.hits).toEqual([]);
    expect(sandbox.requests.map((request) => [request.path, request.authorized])).toEqual([
      [`/${hostPort}/steal`, true],
      [`/@${hostPort}/steal`, true],
    ]);
  });
});
