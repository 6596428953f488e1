/**
 * Misbehaving plug-ins against the sandbox over real HTTP: a logger without
 * the level `LUNAS_LOG` asks for, listeners and a logger that throw what
 * `String()` cannot print, a Standard Schema whose answer is no result, a
 * custom fetch that answers with no Response; and the last event of a call
 * aborted while waiting to retry, and the key of a POST aborted before it was
 * sent. Each call settles with a value or a LunasError, its events paired.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIUserAbortError, Client, LunasError, type Logger, ResponseValidationError } from 'lunas-sdk';
import { expectPairedEvents, recordEvents, responseEvents } from '../helpers/recorders.js';
import { start, transferTo } from './helpers.js';
import { rejection } from '../helpers/rejection.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('plug-ins against the sandbox', () => {
  it('LUNAS_LOG=debug with a logger lacking debug, and listeners and a logger that throw odd values', async () => {
    vi.stubEnv('LUNAS_LOG', 'debug');
    const info: string[] = [];
    const logger = {
      info: (line: string) => void info.push(line),
      warn: () => {
        throw Object.create(null);
      },
    } as unknown as Logger;
    const { sandbox, client } = await start(undefined, { logger, logLevel: undefined, maxRetries: 1 });
    sandbox.inject({ kind: 'status', status: 503, headers: { 'retry-after-ms': '10' } });
    const seen = recordEvents(client);
    client.on('request', () => {
      throw Symbol('listener');
    });
    client.on('response', () => Promise.reject(Object.create(null)));
    const transfer = await client.transfers.create(transferTo(1_000));
    expect(sandbox.transfers().map((stored) => stored.id)).toEqual([transfer.id]);
    expectPairedEvents(seen);
    expect(seen).toHaveLength(4);
    expect(info).toEqual([expect.stringMatching(/^lunas: POST .* retrying in \d+ ms after: .*503/)]);
  });

  it('a Standard Schema that answers nothing: ResponseValidationError with the body, and its response event', async () => {
    const { sandbox, client } = await start();
    const seen = recordEvents(client);
    const schema = { '~standard': { version: 1 as const, vendor: 'broken', validate: () => undefined as never } };
    const error = await rejection(client.get('/v1/payouts', { schema }), ResponseValidationError);
    expect(error.body).toContain('"status":"success"');
    expect(error.path).toBe('data');
    expect(sandbox.requests).toHaveLength(1);
    expectPairedEvents(seen);
    expect(responseEvents(seen)[0]).toMatchObject({ status: 200, error, willRetry: false });
  });

  it('a custom fetch that answers the retry with no Response: a LunasError, every attempt paired', async () => {
    const { sandbox } = await start();
    sandbox.inject({ kind: 'status', status: 503, headers: { 'retry-after-ms': '10' } });
    let calls = 0;
    const client = new Client({
      apiKey: sandbox.apiKey,
      baseURL: sandbox.url,
      logLevel: 'off',
      maxRetries: 1,
      fetch: ((input: RequestInfo, init?: RequestInit) =>
        ++calls === 1 ? fetch(input, init) : Promise.reject(Object.create(null))) as typeof fetch,
    });
    const seen = recordEvents(client);
    const error = await rejection(client.transfers.create(transferTo(1_000)), LunasError);
    expect(error.idempotencyKey).toBe(sandbox.requests[0]!.idempotencyKey);
    expectPairedEvents(seen);
    expect(seen).toHaveLength(4);
  });
});

describe('aborts and their last event', () => {
  it('an abort while waiting to retry: the retry ends unsent with a final response event', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 2 });
    sandbox.inject({ kind: 'status', status: 503, headers: { 'Retry-After': '5' } });
    const seen = recordEvents(client);
    const controller = new AbortController();
    client.on('response', (event) => {
      if (event.willRetry) setTimeout(() => controller.abort(), 50);
    });
    const error = await rejection(
      client.transfers.create(transferTo(1_000), { signal: controller.signal }),
      APIUserAbortError,
    );
    expect(sandbox.requests).toHaveLength(1);
    expect(error.idempotencyKey).toBe(sandbox.requests[0]!.idempotencyKey);
    expectPairedEvents(seen);
    expect(responseEvents(seen).map((event) => [event.attempt, event.status, event.willRetry])).toEqual([
      [1, 503, true],
      [2, undefined, false],
    ]);
  });

  it('a POST aborted before it is sent: nothing reaches the sandbox, and the error carries no key', async () => {
    const { sandbox, client } = await start();
    const seen = recordEvents(client);
    const error = await rejection(
      client.transfers.create(transferTo(1_000), { signal: AbortSignal.abort(), idempotencyKey: 'settle-9' }),
      APIUserAbortError,
    );
    expect(error.idempotencyKey).toBeUndefined();
    expect(sandbox.requests).toHaveLength(0);
    expect(seen).toEqual([]);
  });
});
