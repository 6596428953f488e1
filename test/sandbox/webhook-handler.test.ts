/**
 * The `webhook` option: events delivered in process to a fetch-style handler,
 * with the retries, time limit and records a URL gets. Run against
 * createSandbox (no port at all) and startSandbox (the API over real HTTP,
 * the handler still in process).
 */
import { describe, expect, it } from 'vitest';
import { SandboxError, type InProcessSandboxOptions, type WebhookHandler } from '../../src/testing/index.js';
import { eventually } from '../helpers/waiting.js';
import { createCharge, inProcessSandbox, sandbox, type Json } from './helpers.js';

const ENTRIES = [
  ['createSandbox', async (options?: InProcessSandboxOptions) => inProcessSandbox(options)],
  ['startSandbox', (options?: InProcessSandboxOptions) => sandbox(options)],
] as const;

/** What a handler saw of each request it was given. */
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  event: Json;
  text: string;
}

/** A handler recording each request, answering `answer(index)` (a function may throw or return anything). */
function recordingHandler(answer: (index: number) => unknown = () => new Response(null, { status: 204 })) {
  const seen: Seen[] = [];
  const handler = (async (request: Request) => {
    const text = await request.text();
    seen.push({
      method: request.method,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      event: JSON.parse(text),
      text,
    });
    return answer(seen.length - 1);
  }) as WebhookHandler;
  return { handler, seen };
}

describe.each(ENTRIES)('%s({ webhook })', (_entry, open) => {
  it('hands each event to the handler as a POST with the JSON body and headers a URL gets', async () => {
    const { handler, seen } = recordingHandler();
    const box = await open({ webhook: handler });
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    await box.webhooksSettled();

    expect(seen.map(({ event }) => event)).toEqual(box.events);
    for (const request of seen) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe('https://sandbox.lunas.invalid/webhook');
      expect(request.headers).toEqual({ 'content-type': 'application/json', 'lunas-event-id': request.event.id });
      expect(request.text).toBe(JSON.stringify(request.event));
    }
    expect(
      box.deliveries.map(({ eventId, state, attempts }) => ({ eventId, state, attempts: attempts.length })),
    ).toEqual(box.events.map(({ id: eventId }) => ({ eventId, state: 'delivered', attempts: 1 })));
    expect(box.deliveries[0]?.attempts[0]).toMatchObject({ status: 204, error: null, ok: true });
  });

  it('retries a handler that answers a non-2xx on the schedule, and counts the failures', async () => {
    const { handler, seen } = recordingHandler((index) => new Response('not yet', { status: index < 2 ? 503 : 200 }));
    const box = await open({ webhook: handler, webhookRetryDelaysMs: [5, 5, 5] });
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries).toMatchObject([
      { state: 'delivered', attempts: [{ status: 503 }, { status: 503 }, { status: 200, ok: true }] },
    ]);
    expect(box.webhookFailures).toBe(2);
    expect(new Set(seen.map(({ text }) => text)).size).toBe(1);
  });

  it('records a throw, a rejection and an answer that is not a Response as failed attempts, and carries on', async () => {
    const answers: (() => unknown)[] = [
      () => {
        throw new RangeError('the database is down');
      },
      () => Promise.reject(new Error('no connection')),
      () => undefined,
      () => ({ ok: true }),
      () => 'OK',
      () => new Response(null, { status: 204 }),
    ];
    let calls = 0;
    const box = await open({
      webhook: (() => answers[calls++]!()) as WebhookHandler,
      webhookRetryDelaysMs: [1, 1, 1, 1, 1],
    });
    const created = await createCharge(box);
    expect(created.status).toBe(200);
    await box.webhooksSettled();
    expect(box.deliveries[0]?.attempts.map(({ status, error, ok }) => ({ status, error, ok }))).toEqual([
      { status: null, error: 'the webhook handler threw RangeError: the database is down', ok: false },
      { status: null, error: 'the webhook handler threw Error: no connection', ok: false },
      { status: null, error: 'the webhook handler returned undefined, not a Response', ok: false },
      { status: null, error: 'the webhook handler returned an object, not a Response', ok: false },
      { status: null, error: 'the webhook handler returned a string, not a Response', ok: false },
      { status: 204, error: null, ok: true },
    ]);
    expect(box.webhookFailures).toBe(5);
    // The API was never disturbed.
    expect(box.charges().map(({ id }) => id)).toEqual([created.body.data.id]);
  });

  it('ends an attempt the handler never answers at webhookTimeoutMs, aborting its request', async () => {
    const signals: AbortSignal[] = [];
    const box = await open({
      webhook: (request) => {
        signals.push(request.signal);
        return new Promise<Response>(() => {}); // ignores its signal: the time limit holds all the same
      },
      webhookTimeoutMs: 50,
      webhookRetryDelaysMs: [],
    });
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries).toMatchObject([
      { state: 'failed', attempts: [{ status: null, error: 'timed out after 50 ms', ok: false }] },
    ]);
    expect(signals.map(({ aborted }) => aborted)).toEqual([true]);
  });

  it('records a redirect answered by the handler with its Location, as a failed attempt', async () => {
    const box = await open({
      webhook: () => new Response(null, { status: 308, headers: { location: '/hooks/v2' } }),
      webhookRetryDelaysMs: [],
    });
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries[0]?.attempts).toMatchObject([{ status: 308, location: '/hooks/v2', ok: false }]);
  });

  it('redelivers, holds and releases with a handler as with a URL', async () => {
    const { handler, seen } = recordingHandler();
    const box = await open({ webhook: handler });
    box.holdWebhooks();
    const { id } = (await createCharge(box)).body.data;
    await box.payCharge(id);
    expect(seen).toHaveLength(0);
    box.releaseWebhooks({ order: 'reversed' });
    await box.webhooksSettled();
    expect(seen.map(({ event }) => event.type)).toEqual(['payment_charge.succeeded', 'payment_charge.created']);

    box.redeliver(box.events[0]!.id, { times: 2 });
    await box.webhooksSettled();
    expect(seen.slice(2).map(({ event }) => event.id)).toEqual([box.events[0]!.id, box.events[0]!.id]);
    expect(box.deliveries.map(({ redelivery }) => redelivery)).toEqual([false, false, true, true]);
  });

  it('abandons an attempt in flight at close(), with nothing recorded for it', async () => {
    const box = await open({ webhook: () => new Promise<Response>(() => {}) });
    await createCharge(box);
    await eventually(() => box.deliveries.length === 1);
    const settled = box.webhooksSettled();
    await box.close();
    await settled;
    expect(box.deliveries).toMatchObject([{ state: 'abandoned', attempts: [] }]);
  });
});

describe('the webhook option', () => {
  it('must be a function; a URL is pointed at webhookUrl', () => {
    expect(() => inProcessSandbox({ webhook: 'http://127.0.0.1:3000/hooks' as never })).toThrow(
      new TypeError(
        "webhook must be a function taking a Request and answering a Response (such as a Hono app's fetch), not a string: a URL goes in webhookUrl",
      ),
    );
    expect(() => inProcessSandbox({ webhook: { fetch: () => new Response() } as never })).toThrow(/not an object$/);
    expect(() => inProcessSandbox({ webhook: null as never })).toThrow(/not null$/);
  });

  it('and webhookUrl together are a TypeError, from either entry', async () => {
    const both = { webhook: () => new Response(), webhookUrl: 'http://127.0.0.1:3000/hooks' };
    const message = /^webhook and webhookUrl cannot both be given: a sandbox delivers to one receiver/;
    expect(() => inProcessSandbox(both)).toThrow(message);
    await expect(sandbox(both)).rejects.toThrow(message);
  });

  it('is suggested for a misspelt name', () => {
    expect(() => inProcessSandbox({ webhooks: () => new Response() } as never)).toThrow(/did you mean "webhook"/);
  });

  it('without it, or a URL, the delivery helpers say what they need', () => {
    const box = inProcessSandbox();
    expect(() => box.holdWebhooks()).toThrow(
      new SandboxError(
        'holdWebhooks() needs a webhook URL or handler: start the sandbox with the webhookUrl or webhook option',
      ),
    );
  });
});
