/**
 * core/wire/send.ts: each attempt sent by ky over the process's `fetch`, ky
 * imported on the first request. A merchant's own test tools see lunas's
 * calls with no option, as they see any `fetch`: msw (`onUnhandledRequest:
 * 'error'`, set up before lunas is imported or after the client is built),
 * nock 14 with `disableNetConnect()`, and a wrapper put on global `fetch` (a
 * spy, an APM). Behind each mock, at the very origin the client is pointed
 * at, a real loopback server counts what got past it: a mock that missed a
 * call would let it reach the server (with the `Authorization` header), and
 * the count would show it. This file sets up msw itself, as a merchant does,
 * so it imports none of test/helpers' msw set-up.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import nock from 'nock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, Client } from '../../../../src/index.js';
import { chargeJson, BASE_URL, CHARGE_ID, success } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';

const run = promisify(execFile);
const API_KEY = 'sk_test_merchant_mocks';
const charge = chargeJson({ id: 'ch_1' });

/** A loopback server that answers 500 to whatever reaches it, and counts it. */
async function realOrigin(): Promise<{ url: string; reached: string[]; server: Server }> {
  const reached: string[] = [];
  const server = createServer((request, response) => {
    reached.push(`${request.method} ${request.url}`);
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end('{"status":"error","message":"a mock let this through"}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reached, server };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function origin() {
  const real = await realOrigin();
  cleanups.push(() => new Promise((resolve) => real.server.close(resolve)));
  return real;
}

const client = (baseURL: string) => new Client({ apiKey: API_KEY, baseURL, logLevel: 'off', maxRetries: 0 });

describe('msw, as a merchant’s test suite sets it up', () => {
  it('intercepts every call of a client built before server.listen(), and lets none reach the network', async () => {
    const real = await origin();
    const lunas = client(real.url);
    const seen: string[] = [];
    const server = setupServer(
      http.get(`${real.url}/v1/payments/charges/:id`, ({ request, params }) => {
        seen.push(`${request.headers.get('authorization')} ${String(params.id)}`);
        return HttpResponse.json({ status: 'success', data: chargeJson({ id: String(params.id) }) });
      }),
      http.post(`${real.url}/v1/transfers`, async ({ request }) => {
        seen.push(`${request.headers.get('idempotency-key')} ${await request.text()}`);
        return HttpResponse.json({ status: 'success', data: { id: 'tr_1' } }, { status: 201 });
      }),
    );
    const unhandled: string[] = [];
    server.events.on('request:unhandled', ({ request }) => unhandled.push(`${request.method} ${request.url}`));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => server.close());

    expect((await lunas.charges.retrieve('ch_1')).id).toBe('ch_1');
    expect((await lunas.charges.retrieve('ch_2')).id).toBe('ch_2');
    await lunas.post('/v1/transfers', { body: { amount: '10.00' }, idempotencyKey: 'key-1' });
    expect(seen).toEqual([`Bearer ${API_KEY} ch_1`, `Bearer ${API_KEY} ch_2`, 'key-1 {"amount":"10.00"}']);
    expect(unhandled).toEqual([]);
    expect(real.reached).toEqual([]);
  });

  it('fails an unhandled call as onUnhandledRequest: "error" says, and sends nothing', async () => {
    const real = await origin();
    const server = setupServer();
    const unhandled: string[] = [];
    server.events.on('request:unhandled', ({ request }) => unhandled.push(`${request.method} ${request.url}`));
    server.listen({ onUnhandledRequest: 'error' });
    cleanups.push(() => server.close());
    const error = await client(real.url)
      .charges.retrieve('ch_1')
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(unhandled).toEqual([`GET ${real.url}/v1/payments/charges/ch_1`]);
    expect(real.reached).toEqual([]);
  });

  it('intercepts a process that set msw up before it imported lunas', async () => {
    const real = await origin();
    const sdk = new URL('../../../../src/index.ts', import.meta.url).href;
    // The order a merchant's vitest setup file gives: msw listening first, lunas imported by the code under test.
    const script = `
      const { http, HttpResponse } = await import('msw');
      const { setupServer } = await import('msw/node');
      let hits = 0;
      const server = setupServer(http.get('${real.url}/v1/payments/charges/:id', ({ params }) => {
        hits++;
        return HttpResponse.json({ status: 'success', data: ${JSON.stringify(charge)} });
      }));
      server.listen({ onUnhandledRequest: 'error' });
      const { Client } = await import(${JSON.stringify(sdk)});
      const client = new Client({ apiKey: '${API_KEY}', baseURL: '${real.url}', logLevel: 'off', maxRetries: 0 });
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await client.charges.retrieve('ch_1')).id);
      server.close();
      console.log(JSON.stringify({ hits, ids }));`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: new URL('../../../..', import.meta.url).pathname,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ hits: 3, ids: ['ch_1', 'ch_1', 'ch_1'] });
    expect(real.reached).toEqual([]);
  });
});

describe('nock 14, with the network closed', () => {
  it('intercepts every call, and its scope is done', async () => {
    const real = await origin();
    nock.disableNetConnect();
    cleanups.push(() => {
      nock.cleanAll();
      nock.enableNetConnect();
    });
    const scope = nock(real.url, { reqheaders: { authorization: `Bearer ${API_KEY}` } })
      .get('/v1/payments/charges/ch_1')
      .times(2)
      .reply(200, { status: 'success', data: charge })
      .post('/v1/transfers', { amount: '10.00' })
      .matchHeader('idempotency-key', 'key-2')
      .reply(201, { status: 'success', data: { id: 'tr_2' } });
    const lunas = client(real.url);
    expect((await lunas.charges.retrieve('ch_1')).id).toBe('ch_1');
    expect((await lunas.charges.retrieve('ch_1')).id).toBe('ch_1');
    await lunas.post('/v1/transfers', { body: { amount: '10.00' }, idempotencyKey: 'key-2' });
    expect(scope.isDone()).toBe(true);
    // A call nock does not expect is refused before it leaves: a connection error, nothing sent.
    const error = await lunas.charges.retrieve('ch_9').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(real.reached).toEqual([]);
  });
});

describe('a wrapper put on global fetch', () => {
  it('sees every call, installed after the client was built', async () => {
    const real = await origin();
    const lunas = client(real.url);
    // What an APM or a spy does: global fetch wrapped, calls passed on. vitest's spy restores it.
    const spy = vi.spyOn(globalThis, 'fetch');
    cleanups.push(() => spy.mockRestore());
    for (const id of ['ch_1', 'ch_2', 'ch_3']) await lunas.charges.retrieve(id).catch(() => undefined);
    expect(spy).toHaveBeenCalledTimes(3);
    const urls = spy.mock.calls.map(([input]) => (input instanceof Request ? input.url : String(input)));
    expect(urls).toEqual(['ch_1', 'ch_2', 'ch_3'].map((id) => `${real.url}/v1/payments/charges/${id}`));
    expect(real.reached).toHaveLength(3);
  });
});

describe('loading ky', () => {
  afterEach(() => {
    vi.doUnmock('ky');
    vi.resetModules();
  });

  it('a failed import rejects the call with a LunasError, and a later call imports ky again', async () => {
    let failing = true;
    vi.resetModules();
    vi.doMock('ky', async (importOriginal) => {
      if (failing) throw new Error('Cannot find package ky');
      return importOriginal();
    });
    // A fresh copy of the SDK, whose first request imports the mocked ky.
    const sdk = await import('../../../../src/index.js');
    const sent: string[] = [];
    const client = new sdk.Client({
      apiKey: API_KEY,
      baseURL: BASE_URL,
      logLevel: 'off',
      fetch: async (request) => {
        sent.push((request as Request).url);
        return Response.json(success(chargeJson()));
      },
    });
    const failure = await rejection(client.charges.retrieve(CHARGE_ID));
    expect(failure).toBeInstanceOf(sdk.LunasError);
    expect((failure as Error).message).toMatch(/^lunas could not load ky, the HTTP client it sends requests with: /);
    expect(sent).toEqual([]);
    failing = false;
    await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
    expect(sent).toEqual([`${BASE_URL}/v1/payments/charges/${CHARGE_ID}`]);
  });
});
