/**
 * Against the sandbox over real HTTP: a base URL ending in /v1, errors that
 * name the URL reached, arguments a JavaScript caller may pass (null options,
 * an id cut inside an emoji), and one AbortSignal shared by many calls.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APIUserAbortError, type Logger, NotFoundError, RequestValidationError } from 'lunas-sdk';
import { start } from './helpers.js';
import { rejection } from '../helpers/rejection.js';
import { sleep } from '../helpers/waiting.js';

const qris = { payment_method: 'qris', amount: 10_000 } as const;

describe('a base URL that already ends in /v1', () => {
  it('works like the bare one: nothing goes to /v1/v1', async () => {
    const { sandbox, client } = await start();
    const versioned = client.withOptions({ baseURL: `${sandbox.url}/v1` });
    expect(versioned.baseURL).toBe(sandbox.url);
    const created = await versioned.charges.create(qris);
    const retrieved = await versioned.charges.retrieve(created.id);
    expect(retrieved.id).toBe(created.id);
    expect((await versioned.charges.list()).data.map((charge) => charge.id)).toEqual([created.id]);
    expect(sandbox.requests.map((request) => request.path)).toEqual([
      '/v1/payments/charges',
      `/v1/payments/charges/${created.id}`,
      '/v1/payments/charges',
    ]);
  });

  it('names the full URL reached in a 404 and in the debug line of each attempt', async () => {
    const lines: string[] = [];
    const write = (line: string) => void lines.push(line);
    const logger: Logger = { debug: write, info: write, warn: write, error: write };
    const { sandbox, client } = await start(undefined, { logger, logLevel: 'debug' });
    const error = await rejection(client.charges.retrieve('ch_nope'), NotFoundError);
    const url = `${sandbox.url}/v1/payments/charges/ch_nope`;
    expect(error.message).toMatch(new RegExp(`^GET ${url} failed with 404: `));
    expect(lines).toEqual([`lunas: GET ${url} attempt 1 of 3`]);
    expect(JSON.stringify(error)).not.toContain(sandbox.apiKey);
  });
});

describe('arguments a JavaScript caller may pass', () => {
  it('null options count as none; create(null) is refused and sends nothing', async () => {
    const { sandbox, client } = await start();
    const none = null as unknown as undefined;
    const created = await client.charges.create(qris, none);
    expect((await client.charges.retrieve(created.id, none)).id).toBe(created.id);
    expect(sandbox.requests).toHaveLength(2);

    const error = await rejection(client.charges.create(null as never), RequestValidationError);
    expect(error.fields).toEqual({ params: ['Parameters must be an object (got null)'] });
    await rejection(client.charges.retrieve(created.id, 'fast' as never), RequestValidationError);
    expect(sandbox.requests).toHaveLength(2);
  });

  it('an id cut inside an emoji is refused as a RequestValidationError, not a URIError', async () => {
    const { sandbox, client } = await start();
    const error = await rejection(client.charges.retrieve(`ch_${'😀'.slice(0, 1)}`), RequestValidationError);
    expect(Object.keys(error.fields)).toEqual(['id']);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('one AbortSignal shared by many parallel calls', () => {
  it('50 calls print no MaxListenersExceededWarning, abort together, and leave no listener', async () => {
    const { sandbox, client } = await start();
    sandbox.inject({ kind: 'hang', times: 50 });
    const controller = new AbortController();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const calls = Array.from({ length: 50 }, () =>
        rejection(client.charges.list({}, { signal: controller.signal }), APIUserAbortError),
      );
      await expect.poll(() => sandbox.requests.length).toBe(50);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      controller.abort();
      expect(await Promise.all(calls)).toHaveLength(50);
      await sleep(20);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(sandbox.requests).toHaveLength(50);
  });
});
