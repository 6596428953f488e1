/**
 * What an attempt reads of a body: at most MAX_RESPONSE_BODY_BYTES, chunk by
 * chunk, whatever shape the body has (a web stream, a Node.js stream, only a
 * text()); past it a ResponseBodyError, not retried. A
 * body that breaks off is a ResponseBodyError too, never a connection error.
 */
import { Readable } from 'node:stream';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, LunasError, ResponseBodyError, type ResponseEvent } from '../../../../src/index.js';
import { MAX_RESPONSE_BODY_BYTES } from '../../../../src/core/call/attempt.js';
import { makeClient } from '../../../helpers/msw.js';
import { CHARGE_PATH, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../../../helpers/requests.js';
import { API_KEY, chargeJson, success, transferJson } from '../../../helpers/fixtures.js';
import { rejection } from '../../../helpers/rejection.js';
import { sleep } from '../../../helpers/waiting.js';

const MiB = 1024 * 1024;
const NO_WAIT = { 'retry-after-ms': '0', 'x-request-id': 'req_big' };

/** An endless body of 64 KiB chunks; `pulled()` says how many bytes were asked for. */
function endless() {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('the cap', () => {
  it('is 8 MiB', () => {
    expect(MAX_RESPONSE_BODY_BYTES).toBe(8 * MiB);
  });

  it('a body past it: ResponseBodyError too-large with status, headers, requestId, limit; not retried', async () => {
    const bodies: ReturnType<typeof endless>[] = [];
    const seen = route('POST', TRANSFERS_PATH, () => {
      const body = endless();
      bodies.push(body);
      return new HttpResponse(body.stream, { status: 200, headers: NO_WAIT });
    });
    const client = makeClient({ maxRetries: 2 });
    const events: ResponseEvent[] = [];
    client.on('response', (event) => events.push(event));
    const error = await rejection(client.transfers.create(TRANSFER_PARAMS), ResponseBodyError);
    expect(error).toBeInstanceOf(LunasError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ reason: 'too-large', status: 200, requestId: 'req_big', limit: 8 * MiB });
    expect(error.headers.get('x-request-id')).toBe('req_big');
    expect(error.message).toMatch(
      /^POST https:\/\/api\.lunas\.test\/v1\/transfers answered 200 with a body over 8 MiB/,
    );
    expect(error.message).not.toContain('retry with idempotencyKey');
    expect(error.idempotencyKey).toEqual(expect.any(String));
    expect(seen).toHaveLength(1);
    expect(events).toEqual([expect.objectContaining({ status: 200, requestId: 'req_big', error, willRetry: false })]);
    // Read no further than the cap (and the chunks a stream queues ahead), and no more after.
    const pulled = bodies[0]!.pulled();
    expect(pulled).toBeLessThan(8 * MiB + 1 * MiB);
    await sleep(50);
    expect(bodies[0]!.pulled()).toBe(pulled);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'ResponseBodyError',
      reason: 'too-large',
      headers: { 'x-request-id': 'req_big' },
    });
  });

  it('a body of exactly the cap is read; one byte more is refused', async () => {
    const padded = (size: number) => {
      const text = JSON.stringify(success(chargeJson({ metadata: { pad: '' } })));
      return text.replace('"pad":""', `"pad":"${' '.repeat(size - text.length)}"`);
    };
    route('GET', CHARGE_PATH, (attempt) => new HttpResponse(padded(8 * MiB + (attempt - 1)), { status: 200 }));
    const client = makeClient({ maxRetries: 0 });
    expect((await client.charges.retrieve('ch_123')).id).toBe('ch_123');
    const error = await rejection(client.charges.retrieve('ch_123'), ResponseBodyError);
    expect(error.reason).toBe('too-large');
  });

  it('an error status with a body past it is refused the same way', async () => {
    const seen = route('GET', CHARGE_PATH, () => new HttpResponse(endless().stream, { status: 503, headers: NO_WAIT }));
    const error = await rejection(makeClient({ maxRetries: 2 }).charges.retrieve('ch_123'), ResponseBodyError);
    expect(error).toMatchObject({ reason: 'too-large', status: 503 });
    expect(seen).toHaveLength(1);
  });
});

describe('a body that breaks off', () => {
  const broken = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":"succ'));
        controller.error(new Error(`connection reset for ${API_KEY}`));
      },
    });

  it('is a ResponseBodyError unreadable, retried with the same key, then a good answer is used', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1
        ? new HttpResponse(broken(), { status: 200, headers: NO_WAIT })
        : HttpResponse.json(success(transferJson())),
    );
    const transfer = await makeClient({ maxRetries: 2 }).transfers.create(TRANSFER_PARAMS);
    expect(transfer.id).toBe(transferJson().id);
    expect(seen).toHaveLength(2);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toEqual(expect.any(String));
    expect(keys[1]).toBe(keys[0]);
  });

  it('every attempt broken: ResponseBodyError unreadable, key masked, the advice to retry with the key', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => new HttpResponse(broken(), { status: 200, headers: NO_WAIT }));
    const error = await rejection(makeClient({ maxRetries: 1 }).transfers.create(TRANSFER_PARAMS), ResponseBodyError);
    expect(error).not.toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ reason: 'unreadable', status: 200, requestId: 'req_big' });
    expect(error.message).toContain('answered 200, but its body could not be read: connection reset for [REDACTED]');
    expect(error.message).toContain('(after 2 attempts); retry with idempotencyKey');
    expect(seen).toHaveLength(2);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });
});

describe('bodies that are not web streams (a custom fetch)', () => {
  /** A node-fetch-style response: `body` a Node.js stream, `text()` beside it. */
  function nodeStyle(body: Readable | undefined, text: () => Promise<string>, status = 200): typeof fetch {
    return (async () => ({
      status,
      ok: status < 300,
      headers: new Headers({ 'x-request-id': 'req_node' }),
      body,
      text,
      clone() {
        return this;
      },
    })) as unknown as typeof fetch;
  }

  it('a Node.js stream is read chunk by chunk and destroyed past the cap', async () => {
    let produced = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const body = Readable.from(
      (function* () {
        for (;;) {
          produced += chunk.byteLength;
          yield chunk;
        }
      })(),
    );
    const text = () => Promise.reject(new Error('text() must not be called on a stream lunas can read'));
    const error = await rejection(
      makeClient({ fetch: nodeStyle(body, text) }).charges.retrieve('ch_123'),
      ResponseBodyError,
    );
    expect(error).toMatchObject({ reason: 'too-large', requestId: 'req_node' });
    expect(produced).toBeLessThan(8 * MiB + 1 * MiB);
    expect(body.destroyed).toBe(true);
  });

  it('a Node.js stream under the cap is the body', async () => {
    const json = JSON.stringify(success(chargeJson()));
    const body = Readable.from([Buffer.from(json.slice(0, 10)), Buffer.from(json.slice(10))]);
    const charge = await makeClient({ fetch: nodeStyle(body, () => Promise.reject(new Error('no'))) }).charges.retrieve(
      'ch_123',
    );
    expect(charge.id).toBe('ch_123');
  });

  it('with nothing but text(), the text is measured once read', async () => {
    const big = () => Promise.resolve(' '.repeat(8 * MiB + 1));
    const error = await rejection(
      makeClient({ fetch: nodeStyle(undefined, big) }).charges.retrieve('ch_123'),
      ResponseBodyError,
    );
    expect(error.reason).toBe('too-large');
    // Multi-byte characters count as the bytes they take: 3 MiB of 'é' is 6 MiB, under the cap; 5 MiB is 10.
    const accented = (size: number) => () =>
      Promise.resolve(JSON.stringify(success(chargeJson({ metadata: { t: 'é'.repeat(size) } }))));
    expect((await makeClient({ fetch: nodeStyle(undefined, accented(3 * MiB)) }).charges.retrieve('ch_123')).id).toBe(
      'ch_123',
    );
    const over = await rejection(
      makeClient({ fetch: nodeStyle(undefined, accented(5 * MiB)) }).charges.retrieve('ch_123'),
      ResponseBodyError,
    );
    expect(over.reason).toBe('too-large');
  });
});
