import { describe, expect, it } from 'vitest';
import type { Fault } from '../../src/testing/index.js';
import { call, createCharge, createTransfer, sandbox } from './helpers.js';
import { eventually } from '../helpers/waiting.js';

const chargeCount = async (box: Awaited<ReturnType<typeof sandbox>>) =>
  (await call(box, 'GET', '/v1/payments/charges')).body.total_items as number;

const transferBody = { destination_account_id: 'acc_partner', amount: 100, currency: 'idr' };

describe('status faults', () => {
  it('answers the status with an error envelope, without processing, once by default', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 503 });
    const faulted = await createCharge(box);
    expect(faulted.status).toBe(503);
    expect(faulted.body).toEqual({ status: 'error', message: 'Injected fault: HTTP 503' });
    expect(faulted.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(faulted.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await chargeCount(box)).toBe(0);
    expect((await createCharge(box)).status).toBe(200);
  });

  it('sends the given headers and body: 429 with Retry-After', async () => {
    const box = await sandbox();
    box.inject({
      kind: 'status',
      status: 429,
      headers: { 'Retry-After': '1' },
      body: { status: 'error', message: 'Slow down' },
    });
    const response = await call(box, 'GET', '/v1/payouts');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.body).toEqual({ status: 'error', message: 'Slow down' });
  });

  it('sends a string body as is, and lets headers override the content type', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 500, body: 'oops', headers: { 'content-type': 'text/plain' } });
    const response = await call(box, 'GET', '/v1/payouts');
    expect(response.status).toBe(500);
    expect(response.text).toBe('oops');
    expect(response.headers.get('content-type')).toBe('text/plain');
  });

  it('can fake a 200 with any body, for response-validation tests', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 200, body: { status: 'success', data: { id: 42 } } });
    expect((await call(box, 'GET', '/v1/payments/charges/ch_x')).body).toEqual({ status: 'success', data: { id: 42 } });
  });

  it('applies before authentication, like infrastructure in front of the service', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 503 });
    expect((await call(box, 'GET', '/v1/payouts', { key: null })).status).toBe(503);
  });
});

describe('html fault', () => {
  it('answers a 502 HTML proxy page by default', async () => {
    const box = await sandbox();
    box.inject({ kind: 'html' });
    const response = await createCharge(box);
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.text).toContain('<title>502 Bad Gateway</title>');
    expect(response.body).toBeUndefined();
    expect(await chargeCount(box)).toBe(0);
  });

  it('uses the given status', async () => {
    const box = await sandbox();
    box.inject({ kind: 'html', status: 504 });
    const response = await call(box, 'GET', '/v1/payouts');
    expect(response.status).toBe(504);
    expect(response.text).toContain('504 Gateway Timeout');
  });
});

describe('malformed fault', () => {
  it('answers truncated JSON with a JSON content type, 200 by default, without processing', async () => {
    const box = await sandbox();
    box.inject({ kind: 'malformed' });
    const response = await createCharge(box);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.text).toBe('{"status":"succ');
    expect(() => JSON.parse(response.text)).toThrow(SyntaxError);
    expect(await chargeCount(box)).toBe(0);
  });

  it('uses the given status', async () => {
    const box = await sandbox();
    box.inject({ kind: 'malformed', status: 500 });
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(500);
  });
});

describe('delay fault', () => {
  it('waits, then processes normally', async () => {
    const box = await sandbox();
    box.inject({ kind: 'delay', ms: 300 });
    const started = performance.now();
    const response = await createCharge(box);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(response.status).toBe(200);
    expect(await chargeCount(box)).toBe(1);
  });

  it('still processes a request whose client gave up waiting', async () => {
    const box = await sandbox();
    box.inject({ kind: 'delay', ms: 300 });
    const aborted = call(box, 'POST', '/v1/transfers', { body: transferBody, signal: AbortSignal.timeout(100) });
    await expect(aborted).rejects.toThrow();
    expect(box.transfers()).toHaveLength(0);
    await eventually(() => box.transfers().length === 1);
    expect(box.balance('acc_partner')).toBe('100.00');
  });
});

describe('hang fault', () => {
  it('never answers and never processes', async () => {
    const box = await sandbox();
    box.inject({ kind: 'hang' });
    const hung = call(box, 'POST', '/v1/payments/charges', {
      body: { payment_method: 'qris', amount: 1 },
      signal: AbortSignal.timeout(300),
    });
    await expect(hung).rejects.toThrow(/timeout|aborted/i);
    expect(await chargeCount(box)).toBe(0);
  });

  it('is cut by close(), which resolves quickly', async () => {
    const box = await sandbox();
    box.inject({ kind: 'hang', times: 3 });
    const hung = Array.from({ length: 3 }, () =>
      call(box, 'GET', '/v1/payouts').then(
        () => 'answered',
        () => 'failed',
      ),
    );
    await eventually(() => box.requests.length === 3);
    const started = performance.now();
    await box.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await Promise.all(hung)).toEqual(['failed', 'failed', 'failed']);
  });
});

describe('drop fault', () => {
  it('closes the connection before processing', async () => {
    const box = await sandbox();
    box.inject({ kind: 'drop' });
    await expect(createTransfer(box, transferBody)).rejects.toThrow(TypeError);
    expect(box.transfers()).toHaveLength(0);
    expect(box.balance('acc_merchant')).toBe('1000000.00');
  });
});

describe('lost-response fault', () => {
  it('processes the request, then closes the connection without an answer', async () => {
    const box = await sandbox();
    box.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    await expect(createTransfer(box, transferBody, 'invoice-9')).rejects.toThrow(TypeError);
    expect(box.transfers()).toHaveLength(1);
    expect(box.balance('acc_partner')).toBe('100.00');

    const retry = await createTransfer(box, transferBody, 'invoice-9');
    expect(retry.status).toBe(200);
    expect(retry.body.data.id).toBe(box.transfers()[0]?.id);
    expect(box.balance('acc_partner')).toBe('100.00');
  });
});

describe('matching', () => {
  it('hits only the given method, case-insensitively, and the exact path without query', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 500, method: 'post', path: '/v1/transfers' });
    expect((await call(box, 'GET', '/v1/transfers')).status).toBe(200);
    expect((await createCharge(box)).status).toBe(200);
    expect((await call(box, 'POST', '/v1/transfers?x=1', { body: transferBody })).status).toBe(500);
    expect((await createTransfer(box, transferBody)).status).toBe(200);
  });

  it('does not hit a longer path', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 500, path: '/v1/payments/charges' });
    expect((await call(box, 'GET', '/v1/payments/charges/ch_x')).status).toBe(404);
    expect((await call(box, 'GET', '/v1/payments/charges')).status).toBe(500);
  });

  it('matches faults in the order armed, each request using one hit', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 502, times: 2 });
    box.inject({ kind: 'status', status: 503 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(box, 'GET', '/v1/payouts')).status);
    expect(statuses).toEqual([502, 502, 503, 200]);
  });

  it('lets an earlier narrower fault pass requests on to a later one', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 502, path: '/v1/transfers' });
    box.inject({ kind: 'status', status: 503 });
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(503);
    expect((await call(box, 'GET', '/v1/transfers')).status).toBe(502);
    expect((await call(box, 'GET', '/v1/transfers')).status).toBe(200);
  });

  it('hits forever with times: Infinity until clearFaults()', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 503, times: Infinity });
    for (let i = 0; i < 5; i++) expect((await call(box, 'GET', '/v1/payouts')).status).toBe(503);
    box.clearFaults();
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
  });

  it('hits one in `every` matching requests, counted from when it was armed, and leaves the rest to later faults', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 429, path: '/v1/payouts', every: 3, times: Infinity });
    box.inject({ kind: 'status', status: 503, times: 2 });
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await call(box, 'GET', '/v1/payouts')).status);
    // Requests 1 and 2 pass the 429 by and use up the 503's two hits; then every third is a 429.
    expect(statuses).toEqual([503, 503, 429, 200, 200, 429, 200, 200, 429]);
    // Another path does not count: the fifth /v1/payouts request after these is the next 429.
    expect((await call(box, 'GET', '/v1/transfers')).status).toBe(200);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(429);
  });

  it('answers a tenth of transfers with 429 under concurrency, and processes the others once each', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 429, method: 'POST', path: '/v1/transfers', every: 10, times: Infinity });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => createTransfer(box, transferBody, `every-${index}`)),
    );
    expect(answers.filter(({ status }) => status === 429)).toHaveLength(10);
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(90);
    expect(box.transfers()).toHaveLength(90);
  });

  it('records faulted requests', async () => {
    const box = await sandbox();
    box.inject({ kind: 'status', status: 503 });
    await call(box, 'GET', '/v1/payouts', { headers: { 'idempotency-key': 'k' } });
    expect(box.requests).toEqual([
      expect.objectContaining({ method: 'GET', path: '/v1/payouts', idempotencyKey: 'k', authorized: true }),
    ]);
  });

  it.each<[string, unknown]>([
    ['unknown kind', { kind: 'explode' }],
    ['zero times', { kind: 'drop', times: 0 }],
    ['fractional times', { kind: 'drop', times: 1.5 }],
    ['status missing', { kind: 'status' }],
    ['status out of range', { kind: 'status', status: 99 }],
    ['html status out of range', { kind: 'html', status: 700 }],
    ['negative delay', { kind: 'delay', ms: -1 }],
    ['infinite delay', { kind: 'delay', ms: Infinity }],
    ['null times', { kind: 'drop', times: null }],
    ['zero every', { kind: 'drop', every: 0 }],
    ['fractional every', { kind: 'drop', every: 2.5 }],
    ['infinite every', { kind: 'drop', every: Infinity }],
    ['every as text', { kind: 'drop', every: '10' }],
    ['a method that is not text', { kind: 'drop', method: 5 }],
    ['a method with a space', { kind: 'drop', method: 'GET /' }],
    ['a path without its slash', { kind: 'drop', path: 'v1/payouts' }],
    ['headers that are not an object', { kind: 'status', status: 503, headers: ['Retry-After: 1'] }],
    ['a header value that is not text', { kind: 'status', status: 503, headers: { 'Retry-After': 1 } }],
    ['a header value with a line break', { kind: 'status', status: 503, headers: { 'X-A': 'a\r\nSet-Cookie: b' } }],
    ['a header name with a space', { kind: 'status', status: 503, headers: { 'Retry After': '1' } }],
    ['a body that is a number', { kind: 'status', status: 200, body: 42 }],
    ['a misspelt field', { kind: 'status', status: 503, time: 2 }],
    ["another kind's field", { kind: 'hang', ms: 100 }],
  ])('refuses to arm a fault with %s', async (_name, fault) => {
    const box = await sandbox();
    expect(() => box.inject(fault as Fault)).toThrow(TypeError);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
  });

  it('names the closest field of that kind for a misspelt one, and what is wrong with a target or headers', async () => {
    const box = await sandbox();
    const refusal = (fault: unknown) => {
      try {
        box.inject(fault as Fault);
      } catch (error) {
        return (error as Error).message;
      }
      return 'armed';
    };
    expect(refusal({ kind: 'status', stauts: 503 })).toBe(
      'Unknown status fault field "stauts": did you mean "status"?',
    );
    expect(refusal({ kind: 'delay', ms: 5, tims: 2 })).toBe('Unknown delay fault field "tims": did you mean "times"?');
    expect(refusal({ kind: 'drop', status: 503 })).toBe(
      'Unknown drop fault field "status"; known drop fault fields: kind, method, path, times, every',
    );
    expect(refusal({ kind: 'drop', method: 7 })).toBe('Fault method must be an HTTP method such as "POST"');
    expect(refusal({ kind: 'drop', every: -1 })).toBe(
      'Fault every must be a positive integer: 10 hits one in ten matching requests',
    );
    expect(refusal({ kind: 'drop', evry: 2 })).toBe('Unknown drop fault field "evry": did you mean "every"?');
    expect(refusal({ kind: 'drop', path: 'v1' })).toBe(
      'Fault path must be a string starting with "/", such as "/v1/transfers"',
    );
    expect(refusal({ kind: 'status', status: 503, headers: { 'X-A': 'a\nb' } })).toMatch(
      /^Fault status: headers must be an object of header names to Latin-1 text without control characters/,
    );
    // A fault armed with a bad target would otherwise throw on the next request, answered 500.
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
  });
});
