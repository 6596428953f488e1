import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandbox, SandboxError } from '../../src/testing/index.js';
import { rejection } from '../helpers/rejection.js';
import { call, createCharge, inProcessSandbox, validCharge } from './helpers.js';

const URL_IN_PROCESS = 'https://sandbox.lunas.invalid';

afterEach(() => {
  vi.useRealTimers();
});

describe('createSandbox: the handle', () => {
  it('is served at a URL that can never reach a host, which payment_url starts with', async () => {
    const box = inProcessSandbox();
    expect(box.url).toBe(URL_IN_PROCESS);
    const charge = await createCharge(box);
    expect(charge.status).toBe(200);
    expect(charge.body.data.payment_url).toBe(`${URL_IN_PROCESS}/pay/${charge.body.data.id}`);
  });

  it('answers with platform Responses carrying the service headers', async () => {
    const box = inProcessSandbox();
    const response = await box.fetch(`${box.url}/v1/payouts?pagesize=1`, {
      headers: { authorization: `Bearer ${box.apiKey}` },
    });
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    expect((await response.json()).data).toHaveLength(1);
  });

  it('takes a Request as msw hands it, body included', async () => {
    const box = inProcessSandbox();
    const request = new Request(`${box.url}/v1/payments/charges`, {
      method: 'POST',
      headers: { authorization: `Bearer ${box.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payment_method: 'qris', amount: 25_000 }),
    });
    const response = await box.fetch(request);
    expect(response.status).toBe(200);
    expect((await response.json()).data.amount).toBe('25000.00');
    expect(box.events.map(({ type }) => type)).toEqual(['payment_charge.created']);
  });

  it('records requests and refuses a wrong key as over HTTP', async () => {
    const box = inProcessSandbox({ apiKey: 'sk_test_in_process' });
    expect((await call(box, 'GET', '/v1/payouts', { key: 'sk_test_wrong' })).status).toBe(401);
    expect(box.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/payouts', authorized: false })]);
  });

  it('refuses another origin clearly, naming only the origin, and records nothing', async () => {
    const box = inProcessSandbox();
    const error = await rejection(box.fetch('https://api.example.com/v1/payouts?secret=sk_live_x'), SandboxError);
    expect(error.message).toContain('https://api.example.com');
    expect(error.message).toContain(URL_IN_PROCESS);
    expect(error.message).not.toContain('secret');
    expect(await rejection(box.fetch('http://sandbox.lunas.invalid/v1/payouts'), SandboxError)).toBeInstanceOf(Error);
    expect(box.requests).toEqual([]);
  });

  it('rejects what fetch itself rejects (an invalid URL) with a TypeError', async () => {
    const box = inProcessSandbox();
    await expect(box.fetch('not a url')).rejects.toThrow(TypeError);
  });

  it('answers 413 past the 1 MiB body limit, without processing', async () => {
    const box = inProcessSandbox();
    const raw = JSON.stringify({ ...validCharge, description: 'x'.repeat(1024 * 1024) });
    const response = await call(box, 'POST', '/v1/payments/charges', { raw });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ status: 'error', message: 'Request body must be at most 1 MiB' });
    expect(box.events).toEqual([]);
  });

  it('refuses port by name, saying why', () => {
    expect(() => createSandbox({ port: 0 } as never)).toThrow(
      /createSandbox\(\) takes no port.*startSandbox\(\{ port \}\)/,
    );
    expect(() => createSandbox({ port: undefined } as never)).toThrow(TypeError);
  });

  it('checks the other options by name and value, as startSandbox does', () => {
    expect(() => createSandbox({ apikey: 'sk_x' } as never)).toThrow(
      /Unknown sandbox option "apikey": did you mean "apiKey"/,
    );
    expect(() => createSandbox({ apiKey: 'with space' })).toThrow(TypeError);
    expect(() => createSandbox('sk_x' as never)).toThrow('options must be an object');
  });
});

describe('createSandbox: faults', () => {
  it('answers status, html and malformed faults without processing', async () => {
    const box = inProcessSandbox();
    box.inject({ kind: 'status', status: 429, headers: { 'Retry-After': '1' } });
    box.inject({ kind: 'html', status: 503 });
    box.inject({ kind: 'malformed' });
    const limited = await createCharge(box);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    const html = await createCharge(box);
    expect([html.status, html.headers.get('content-type')]).toEqual([503, 'text/html']);
    expect(html.text).toContain('<title>503 Service Unavailable</title>');
    expect((await createCharge(box)).text).toBe('{"status":"succ');
    expect(box.events).toEqual([]);
  });

  it('answers a status fault of 204 with no body (a Response cannot carry one)', async () => {
    const box = inProcessSandbox();
    box.inject({ kind: 'status', status: 204 });
    const response = await call(box, 'GET', '/v1/payouts');
    expect([response.status, response.text]).toEqual([204, '']);
  });

  it('drop rejects like a network failure, before processing', async () => {
    const box = inProcessSandbox();
    box.inject({ kind: 'drop' });
    const error = await rejection(createCharge(box), TypeError);
    expect(error.message).toBe('fetch failed');
    expect(String((error.cause as Error).message)).toContain('closed the connection');
    expect(box.events).toEqual([]);
    expect(box.requests).toHaveLength(1);
  });

  it('lost-response rejects like a network failure, after processing', async () => {
    const box = inProcessSandbox();
    box.inject({ kind: 'lost-response' });
    await rejection(createCharge(box), TypeError);
    expect(box.events.map(({ type }) => type)).toEqual(['payment_charge.created']);
  });

  it('hang settles only when the signal aborts, with its reason', async () => {
    const box = inProcessSandbox();
    box.inject({ kind: 'hang' });
    const controller = new AbortController();
    const pending = call(box, 'GET', '/v1/payouts', { signal: controller.signal });
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.waitFor(() => expect(box.requests).toHaveLength(1));
    expect(settled).toBe(false);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
  });

  it('hang, then close: the request rejects as a cut connection, and later ones too', async () => {
    const box = createSandbox();
    box.inject({ kind: 'hang' });
    const pending = call(box, 'GET', '/v1/payouts');
    await vi.waitFor(() => expect(box.requests).toHaveLength(1));
    await box.close();
    expect((await rejection(pending, TypeError)).message).toBe('fetch failed');
    expect((await rejection(call(box, 'GET', '/v1/payouts'), TypeError)).message).toBe('fetch failed');
    expect(() => box.balance('acc_partner')).toThrow(SandboxError);
    expect(() => box.inject({ kind: 'drop' })).toThrow('start a new one with createSandbox()');
  });

  it('an aborted signal rejects at once and sends nothing', async () => {
    const box = inProcessSandbox();
    const reason = new Error('already gone');
    expect(await rejection(call(box, 'GET', '/v1/payouts', { signal: AbortSignal.abort(reason) }))).toBe(reason);
    expect(box.requests).toEqual([]);
  });

  it('delay waits on a timer, which fake timers move, then processes', async () => {
    vi.useFakeTimers();
    const box = inProcessSandbox();
    box.inject({ kind: 'delay', ms: 5_000 });
    let answered = false;
    const pending = createCharge(box).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
    expect(box.events).toHaveLength(1);
  });

  it('delay, then abort: the caller gets the reason; the request is still processed, as over HTTP', async () => {
    vi.useFakeTimers();
    const box = inProcessSandbox();
    box.inject({ kind: 'delay', ms: 1_000 });
    const controller = new AbortController();
    const aborted = call(box, 'POST', '/v1/payments/charges', { body: validCharge, signal: controller.signal });
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error('timeout'));
    expect(((await rejection(aborted)) as Error).message).toBe('timeout');
    expect(box.events).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(box.events.map(({ type }) => type)).toEqual(['payment_charge.created']);
  });
});
