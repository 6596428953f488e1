/**
 * `lunas-sdk/otel` end to end: the real OpenTelemetry SDK (BasicTracerProvider
 * with an InMemorySpanExporter, a MeterProvider with a reader collected on
 * demand, the AsyncLocalStorage context manager and the W3C propagator)
 * recording lunas's calls against the sandbox over real HTTP. Operation spans
 * under the merchant's active span, an attempt span per HTTP attempt with the
 * HTTP client conventions, error statuses, the duration histogram, the
 * `traceparent` the sandbox received, the global providers, stopping, and
 * beside OpenTelemetry's undici instrumentation (the
 * merchant's HTTP client instrumentation): one traceparent per request, one
 * CLIENT span per attempt (the instrumentation's, under lunas's attempt
 * span), one trace. The API key in none of it: test/security/key-leaks/over-http.test.ts.
 */
import {
  context,
  createTraceState,
  metrics,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  ATTEMPT_CHANNEL,
  NotFoundError,
  OPERATION_CHANNEL,
} from 'lunas-sdk';
import { instrumentLunas } from 'lunas-sdk/otel';
import { undiciFetch } from 'lunas-sdk/undici';
import { start, transferTo } from './helpers.js';
import { type Telemetry, useOpenTelemetry } from '../helpers/otel.js';
import { REQUEST_ID, UUID_V4 } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

const { telemetry, stopAfterTest } = useOpenTelemetry();

const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The duration histogram's data points. */
function durationPoints(metricsIn: ResourceMetrics) {
  const metric = metricsIn.scopeMetrics
    .filter((scope) => scope.scope.name === 'lunas-sdk')
    .flatMap((scope) => scope.metrics)
    .find((m) => m.descriptor.name === 'http.client.request.duration');
  expect(metric, 'the http.client.request.duration histogram').toBeDefined();
  expect(metric!.descriptor.unit).toBe('s');
  return metric!.dataPoints as { attributes: Record<string, unknown>; value: { count: number; sum?: number } }[];
}

describe('spans', () => {
  it("a transfer retried after a 503, inside the merchant's span: an operation span, two CLIENT children", async () => {
    const { sandbox, client, requestIds } = await start(undefined, { maxRetries: 2 });
    sandbox.inject({
      kind: 'status',
      status: 503,
      method: 'POST',
      path: '/v1/transfers',
      headers: { 'retry-after-ms': '0' },
    });
    const otel = telemetry();
    const tracer = otel.tracerProvider.getTracer('merchant');

    await tracer.startActiveSpan('checkout', async (checkout) => {
      await client.transfers.create(transferTo(1_000));
      checkout.end();
    });

    const spans = otel.spans();
    const [merchant] = byName(spans, 'checkout');
    const [operation] = byName(spans, 'lunas transfers.create');
    const attempts = byName(spans, 'POST /v1/transfers');
    expect(spans).toHaveLength(4);
    expect(attempts).toHaveLength(2);
    const traceId = merchant!.spanContext().traceId;
    for (const span of spans) expect(span.spanContext().traceId).toBe(traceId);
    expect(parentOf(operation!)).toBe(merchant!.spanContext().spanId);
    for (const attempt of attempts) expect(parentOf(attempt)).toBe(operation!.spanContext().spanId);
    expect(operation!.kind).toBe(SpanKind.INTERNAL);
    expect(attempts.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);

    const key = sandbox.requests[0]!.idempotencyKey!;
    expect(key).toMatch(UUID_V4);
    const url = new URL(sandbox.url);
    const common = {
      'http.request.method': 'POST',
      'server.address': url.hostname,
      'server.port': Number(url.port),
      'url.scheme': 'http',
      'url.full': `${sandbox.url}/v1/transfers`,
      'url.template': '/v1/transfers',
      'lunas.idempotency_key': key,
    };
    expect(attempts[0]!.attributes).toEqual({
      ...common,
      'http.response.status_code': 503,
      'error.type': '503',
      'lunas.request_id': requestIds[0],
    });
    expect(attempts[1]!.attributes).toEqual({
      ...common,
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
      'lunas.request_id': requestIds[1],
    });
    expect(requestIds[1]).toMatch(REQUEST_ID);
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(operation!.attributes).toEqual({
      'lunas.operation': 'transfers.create',
      'url.template': '/v1/transfers',
      'lunas.idempotency_key': key,
      'http.response.status_code': 200,
      'lunas.request_id': requestIds[1],
    });
    expect(operation!.status.code).toBe(SpanStatusCode.UNSET);

    // Each attempt carried its own span as the parent the service saw.
    expect(sandbox.requests.map((request) => request.traceparent)).toEqual(
      attempts.map((span) => `00-${traceId}-${span.spanContext().spanId}-01`),
    );
  });

  it('the active span’s tracestate is sent beside traceparent', async () => {
    const { sandbox, client } = await start();
    telemetry();
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: createTraceState('vendor=opaque'),
    });

    // Awaited inside: a list's first page is fetched when awaited, in the context active then.
    await context.with(remote, async () => {
      await client.payouts.list();
    });

    const [request] = sandbox.requests;
    expect(request!.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/);
    expect(request!.tracestate).toBe('vendor=opaque');
  });

  it('a 404: the attempt and the operation fail with error.type 404, and the exception recorded', async () => {
    const { client } = await start();
    const otel = telemetry();

    const error = await rejection(client.charges.retrieve('ch_missing'), NotFoundError);

    const [operation] = byName(otel.spans(), 'lunas charges.retrieve');
    const [attempt] = byName(otel.spans(), 'GET /v1/payments/charges/{id}');
    for (const span of [operation!, attempt!]) {
      expect(span.attributes['http.response.status_code']).toBe(404);
      expect(span.attributes['error.type']).toBe('404');
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
      expect(span.events.map((event) => event.name)).toEqual(['exception']);
    }
    expect(attempt!.attributes['url.full']).toMatch(/\/v1\/payments\/charges\/ch_missing$/);
  });

  it('a timeout and a connection failure: an error status and the error class as error.type, no status code', async () => {
    const { sandbox, client } = await start(undefined, { timeout: 200, maxRetries: 0 });
    const otel = telemetry();
    sandbox.inject({ kind: 'hang' });
    await rejection(client.charges.list(), APIConnectionTimeoutError);
    sandbox.inject({ kind: 'drop' });
    await rejection(client.payouts.list(), APIConnectionError);

    const attempts = otel.spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(attempts.map((span) => [span.name, span.attributes['error.type'], span.status.code])).toEqual([
      ['GET /v1/payments/charges', 'APIConnectionTimeoutError', SpanStatusCode.ERROR],
      ['GET /v1/payouts', 'APIConnectionError', SpanStatusCode.ERROR],
    ]);
    for (const span of attempts) expect(span.attributes).not.toHaveProperty('http.response.status_code');
  });

  it('a walk: one operation span per page, each with its attempt', async () => {
    const { sandbox, client } = await start();
    sandbox.seedCharges(25);
    const otel = telemetry();

    await client.charges.list({ pagesize: 10 }).toArray({ limit: 100 });

    const operations = byName(otel.spans(), 'lunas charges.list');
    const attempts = byName(otel.spans(), 'GET /v1/payments/charges');
    expect(operations).toHaveLength(3);
    expect(attempts.map((span) => span.attributes['url.full'])).toEqual(
      [1, 2, 3].map((page) => `${sandbox.url}/v1/payments/charges?page=${page}&pagesize=10`),
    );
    expect(new Set(attempts.map(parentOf))).toEqual(new Set(operations.map((span) => span.spanContext().spanId)));
  });
});

describe('the duration histogram', () => {
  it('one measurement per attempt, in seconds, with low-cardinality attributes only', async () => {
    const { sandbox, client } = await start(undefined, { maxRetries: 1 });
    const otel = telemetry();
    const first = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const second = await client.charges.create({ payment_method: 'qris', amount: 20_000 });
    sandbox.inject({ kind: 'status', status: 503, method: 'GET', headers: { 'retry-after-ms': '0' } });
    await client.charges.retrieve(first.id);
    await client.charges.retrieve(second.id);

    const points = durationPoints(await otel.collect());
    const url = new URL(sandbox.url);
    const base = { 'server.address': url.hostname, 'server.port': Number(url.port), 'url.scheme': 'http' };
    const shown = points.map((point) => ({ attributes: point.attributes, count: point.value.count }));
    expect(shown).toEqual(
      expect.arrayContaining([
        {
          attributes: {
            ...base,
            'http.request.method': 'POST',
            'url.template': '/v1/payments/charges',
            'http.response.status_code': 200,
          },
          count: 2,
        },
        {
          attributes: {
            ...base,
            'http.request.method': 'GET',
            'url.template': '/v1/payments/charges/{id}',
            'http.response.status_code': 503,
            'error.type': '503',
          },
          count: 1,
        },
        {
          attributes: {
            ...base,
            'http.request.method': 'GET',
            'url.template': '/v1/payments/charges/{id}',
            'http.response.status_code': 200,
          },
          count: 2,
        },
      ]),
    );
    expect(points).toHaveLength(3);
    for (const point of points) {
      expect(point.value.sum).toBeGreaterThan(0);
      // Seconds: a loopback call takes far less than one.
      expect(point.value.sum! / point.value.count).toBeLessThan(1);
    }
  });
});

describe('the wait for a turn on the wire (maxConcurrentRequests)', () => {
  it("is in no attempt span and no measurement: a queued call's attempt lasts as long as its exchange", async () => {
    const { sandbox, client } = await start(undefined, { maxConcurrentRequests: 1 });
    const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000 });
    const otel = telemetry();
    // The first retrieve holds the client's one turn for 400 ms; the second is answered at once.
    sandbox.inject({ kind: 'delay', ms: 400, method: 'GET' });
    const started = performance.now();
    const first = client.charges.retrieve(charge.id);
    const second = client.charges.retrieve(charge.id).then(() => performance.now() - started);
    await first;
    const wall = await second;

    const seconds = ([s, ns]: [number, number]) => s + ns / 1e9;
    const attempts = byName(otel.spans(), 'GET /v1/payments/charges/{id}').map((span) => seconds(span.duration));
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toBeGreaterThanOrEqual(0.35);
    expect(wall).toBeGreaterThan(350);
    expect(attempts[1]).toBeLessThan(0.3);
    const [point] = durationPoints(await otel.collect()).filter((p) => p.attributes['http.request.method'] === 'GET');
    expect(point!.value.count).toBe(2);
    // The two measurements: the slow exchange, and a short one, not the wait for the turn on top of it.
    expect(point!.value.sum! - attempts[0]!).toBeLessThan(0.3);
  });
});

describe('providers and stopping', () => {
  it('the global providers by default, a meter provider registered after instrumenting included', async () => {
    const { client } = await start();
    const otel = telemetry(false);
    trace.setGlobalTracerProvider(otel.tracerProvider);
    stopAfterTest(instrumentLunas());
    metrics.setGlobalMeterProvider(otel.meterProvider);
    try {
      await client.payouts.list();
    } finally {
      trace.disable();
      metrics.disable();
    }

    expect(otel.spans().map((span) => span.name)).toEqual(['GET /v1/payouts', 'lunas payouts.list']);
    expect(durationPoints(await otel.collect())).toHaveLength(1);
  });

  it('stop: no span after it, a call in flight recorded to its end, then the channels left', async () => {
    const { sandbox, client } = await start();
    const otel = telemetry();
    const operations = tracingChannel(OPERATION_CHANNEL);
    const attempts = tracingChannel(ATTEMPT_CHANNEL);
    sandbox.inject({ kind: 'delay', ms: 200 });
    // Started now: a list's first page is fetched once asked for.
    const inFlight = client.payouts.list().then((page) => page.data);
    await new Promise((resolve) => setTimeout(resolve, 50));

    otel.stop();
    otel.stop();
    expect(attempts.hasSubscribers).toBe(true);
    await inFlight;
    await client.paymentMethods.list();
    await Promise.resolve();

    expect(otel.spans().map((span) => span.name)).toEqual(['GET /v1/payouts', 'lunas payouts.list']);
    expect(operations.hasSubscribers).toBe(false);
    expect(attempts.hasSubscribers).toBe(false);
    expect(sandbox.requests.map((request) => request.traceparent !== undefined)).toEqual([true, false]);
  });
});

/**
 * The `traceparent` lines of each request the server on `url` received, as it
 * read them off the wire (`rawHeaders`, one entry per header line), through
 * Node.js's `http.server.request.start` channel: the sandbox's own view,
 * before it keeps the first of a repeated header.
 */
function traceparentLines(url: string): string[][] {
  const port = Number(new URL(url).port);
  const seen: string[][] = [];
  const onRequest = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (request.socket.localPort !== port) return;
    const lines: string[] = [];
    const raw = request.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'traceparent') lines.push(raw[i + 1]!);
    seen.push(lines);
  };
  subscribe('http.server.request.start', onRequest);
  onTestFinished(() => void unsubscribe('http.server.request.start', onRequest));
  return seen;
}

/**
 * OpenTelemetry's undici instrumentation (on by default in
 * auto-instrumentations-node), recording into the test's providers, disabled
 * when the test ends: it subscribes to undici's channels, which Node.js's
 * global fetch and the undici package publish on.
 */
function instrumentUndici(otel: Telemetry): void {
  // Enabled as it is built, on undici's diagnostics channels; no module is patched.
  const undici = new UndiciInstrumentation();
  undici.setTracerProvider(otel.tracerProvider);
  undici.setMeterProvider(otel.meterProvider);
  onTestFinished(() => undici.disable());
}

const W3C_TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;
const byStart = (spans: ReadableSpan[]) =>
  [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

/** The duration points recorded under a scope, none when it recorded no histogram. */
async function durationCount(otel: Telemetry, scope: string): Promise<number> {
  const collected = await otel.collect();
  return collected.scopeMetrics
    .filter((entry) => entry.scope.name === scope)
    .flatMap((entry) => entry.metrics)
    .filter((metric) => metric.descriptor.name === 'http.client.request.duration')
    .flatMap((metric) => metric.dataPoints as { value: { count: number } }[])
    .reduce((sum, point) => sum + point.value.count, 0);
}

/** Both ways lunas sends on Node.js: global fetch (no `fetch` given), and lunas-sdk/undici's undiciFetch. */
const transports = [
  ['global fetch', { fetch: undefined }],
  ['undiciFetch', { fetch: undiciFetch }],
] as const;

describe.each(transports)("beside OpenTelemetry's undici instrumentation, through %s", (_, transport) => {
  it('a transfer retried after a 503: one traceparent per request, one CLIENT span per attempt, one trace', async () => {
    const { sandbox, client, requestIds } = await start(undefined, { ...transport, maxRetries: 2 });
    sandbox.inject({
      kind: 'status',
      status: 503,
      method: 'POST',
      path: '/v1/transfers',
      headers: { 'retry-after-ms': '0' },
    });
    const wire = traceparentLines(sandbox.url);
    const otel = telemetry();
    instrumentUndici(otel);
    const tracer = otel.tracerProvider.getTracer('merchant');

    await tracer.startActiveSpan('checkout', async (checkout) => {
      await client.transfers.create(transferTo(1_000));
      checkout.end();
    });

    const spans = otel.spans();
    const [merchant] = byName(spans, 'checkout');
    const [operation] = byName(spans, 'lunas transfers.create');
    const attempts = byStart(byName(spans, 'POST /v1/transfers'));
    const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
    // The merchant's span, the operation, two attempts and the instrumentation's two requests.
    expect(spans).toHaveLength(6);
    const traceId = merchant!.spanContext().traceId;
    for (const span of spans) expect(span.spanContext().traceId).toBe(traceId);
    expect(parentOf(operation!)).toBe(merchant!.spanContext().spanId);

    // lunas's attempt spans are INTERNAL under the operation, with lunas's attributes.
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.kind).toBe(SpanKind.INTERNAL);
      expect(parentOf(attempt)).toBe(operation!.spanContext().spanId);
    }
    const key = sandbox.requests[0]!.idempotencyKey!;
    expect(attempts[0]!.attributes).toMatchObject({
      'lunas.idempotency_key': key,
      'http.response.status_code': 503,
      'error.type': '503',
      'lunas.request_id': requestIds[0],
    });
    expect(attempts[0]!.attributes).not.toHaveProperty('http.request.resend_count');
    expect(attempts[1]!.attributes).toMatchObject({
      'lunas.idempotency_key': key,
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
      'lunas.request_id': requestIds[1],
    });
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.ERROR);

    // One CLIENT span per attempt, the instrumentation's, each a child of its attempt's span.
    expect(clients).toHaveLength(2);
    const clientOf = attempts.map((attempt) => {
      const children = clients.filter((span) => parentOf(span) === attempt.spanContext().spanId);
      expect(children).toHaveLength(1);
      return children[0]!;
    });
    expect(clientOf.map((span) => span.attributes['http.response.status_code'])).toEqual([503, 200]);

    // Each request carried one traceparent line, its CLIENT span's: the service joins the trace there.
    const expected = clientOf.map((span) => `00-${traceId}-${span.spanContext().spanId}-01`);
    expect(wire).toEqual(expected.map((line) => [line]));
    expect(sandbox.requests.map((request) => request.traceparent)).toEqual(expected);

    // The HTTP client's histogram is the instrumentation's: lunas records none for these attempts.
    expect(await durationCount(otel, 'lunas-sdk')).toBe(0);
    expect(await durationCount(otel, '@opentelemetry/instrumentation-undici')).toBe(2);
  });

  it('with no span active at the call: still one trace, rooted at the operation', async () => {
    const { sandbox, client } = await start(undefined, transport);
    const wire = traceparentLines(sandbox.url);
    const otel = telemetry();
    instrumentUndici(otel);

    await client.transfers.create(transferTo(1_000));
    await client.payouts.list();

    const spans = otel.spans();
    const operations = spans.filter((span) => span.name.startsWith('lunas '));
    expect(operations.map((span) => span.name).sort()).toEqual(['lunas payouts.list', 'lunas transfers.create']);
    for (const operation of operations) {
      expect(parentOf(operation)).toBeUndefined();
      const traceId = operation.spanContext().traceId;
      const inTrace = spans.filter((span) => span.spanContext().traceId === traceId);
      // The operation, its attempt and the instrumentation's request: nothing in a trace of its own.
      expect(inTrace).toHaveLength(3);
      const attempt = inTrace.find((span) => parentOf(span) === operation.spanContext().spanId)!;
      expect(attempt.kind).toBe(SpanKind.INTERNAL);
      const request = inTrace.find((span) => parentOf(span) === attempt.spanContext().spanId)!;
      expect(request.kind).toBe(SpanKind.CLIENT);
    }
    expect(spans).toHaveLength(6);
    expect(wire).toHaveLength(2);
    for (const lines of wire) {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(W3C_TRACEPARENT);
    }
    const clientIds = spans.filter((span) => span.kind === SpanKind.CLIENT).map((span) => span.spanContext().spanId);
    expect(wire.map((lines) => lines[0]!.split('-')[2]).sort()).toEqual(clientIds.sort());
  });

  it('without it, as before: one traceparent per request, lunas’s CLIENT span per attempt, its histogram', async () => {
    const { sandbox, client } = await start(undefined, { ...transport, maxRetries: 1 });
    sandbox.inject({ kind: 'status', status: 503, method: 'GET', headers: { 'retry-after-ms': '0' } });
    const wire = traceparentLines(sandbox.url);
    const otel = telemetry();

    await client.payouts.list();

    const spans = otel.spans();
    const attempts = byStart(byName(spans, 'GET /v1/payouts'));
    expect(spans).toHaveLength(3);
    expect(attempts.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    const traceId = attempts[0]!.spanContext().traceId;
    for (const span of spans) expect(span.spanContext().traceId).toBe(traceId);
    expect(wire).toEqual(attempts.map((span) => [`00-${traceId}-${span.spanContext().spanId}-01`]));
    expect(await durationCount(otel, 'lunas-sdk')).toBe(2);
  });
});
