/**
 * `instrumentLunas`'s options, checked at run time as every lunas option is
 * (by name, with "did you mean", and by value), and a provider that fails
 * never failing a call, and what a subscriber to undici's `undici:request:create`
 * changes when the request does not go through undici (the documented limit).
 * The spans and metrics themselves are tested end to end (test/e2e/otel.test.ts).
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import {
  context,
  diag,
  type DiagLogger,
  DiagLogLevel,
  type MeterProvider,
  propagation,
  SpanKind,
  type TracerProvider,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { instrumentLunas } from 'lunas-sdk/otel';
import { ATTEMPT_CHANNEL, LunasError, OPERATION_CHANNEL } from '../../../src/index.js';
import { makeClient } from '../../helpers/msw.js';
import { CHARGE_PATH, jsonReply, route } from '../../helpers/requests.js';
import { CHARGE_ID, chargeJson, success } from '../../helpers/fixtures.js';
import { thrown } from '../../helpers/rejection.js';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  diag.disable();
});

describe('the options', () => {
  it.each([
    [{ tracerProviders: {} }, /^Unknown option "tracerProviders": did you mean "tracerProvider"\?$/],
    [{ meter: {} }, /^Unknown option "meter"; known options: tracerProvider, meterProvider$/],
    ['provider', /^The options of instrumentLunas must be an object \(got a string\)$/],
    [
      { tracerProvider: {} },
      /^tracerProvider must be an OpenTelemetry TracerProvider \(an object with getTracer\(\)\), got an object$/,
    ],
    [
      { meterProvider: 42 },
      /^meterProvider must be an OpenTelemetry MeterProvider \(an object with getMeter\(\)\), got a number$/,
    ],
    [{ tracerProvider: null }, /^tracerProvider must be an OpenTelemetry TracerProvider .*got null$/],
  ])('%j is refused with a LunasError that says why', (options, message) => {
    const error = thrown(() => instrumentLunas(options as never), LunasError);
    expect(error.message).toMatch(message);
  });

  it('every problem at once, and nothing subscribed', () => {
    const error = thrown(() => instrumentLunas({ tracerProvider: 'x', meterProviderr: {} } as never), LunasError);
    expect(error.message).toContain('Unknown option "meterProviderr": did you mean "meterProvider"?');
    expect(error.message).toContain('tracerProvider must be an OpenTelemetry TracerProvider');
    expect(tracingChannel(OPERATION_CHANNEL).hasSubscribers).toBe(false);
  });

  it.each([undefined, null, {}, { tracerProvider: undefined, meterProvider: undefined }])(
    '%j: the global providers, subscribed until stopped, and stopping twice is stopping once',
    (options) => {
      const stop = instrumentLunas(options as never);
      stops.push(stop);
      expect(tracingChannel(OPERATION_CHANNEL).hasSubscribers).toBe(true);
      expect(tracingChannel(ATTEMPT_CHANNEL).hasSubscribers).toBe(true);
      stop();
      stop();
      expect(tracingChannel(OPERATION_CHANNEL).hasSubscribers).toBe(false);
      expect(tracingChannel(ATTEMPT_CHANNEL).hasSubscribers).toBe(false);
    },
  );
});

describe('a provider that fails', () => {
  it('never fails the call: the failure goes to OpenTelemetry’s diag logger', async () => {
    const reported: unknown[] = [];
    const logger: DiagLogger = {
      error: (...args) => void reported.push(args),
      warn: () => undefined,
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    };
    diag.setLogger(logger, DiagLogLevel.ERROR);
    const broken = () => {
      throw new Error('exporter down');
    };
    const tracerProvider = {
      getTracer: () => ({ startSpan: broken, startActiveSpan: broken }),
    } as unknown as TracerProvider;
    const meterProvider = { getMeter: broken } as unknown as MeterProvider;
    stops.push(instrumentLunas({ tracerProvider, meterProvider }));
    const client = makeClient();
    route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));

    await expect(client.charges.retrieve(CHARGE_ID)).resolves.toMatchObject({ id: CHARGE_ID });
    expect(reported.length).toBeGreaterThan(0);
    expect(String((reported[0] as unknown[])[0])).toBe('lunas-sdk/otel could not record a call');
  });
});

describe('beside an instrumentation of undici', () => {
  it('a subscriber to undici:request:create makes the attempt INTERNAL, with no traceparent of lunas’s, even when the fetch is not undici', async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    onTestFinished(() => propagation.disable());
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    stops.push(instrumentLunas({ tracerProvider }));
    // msw answers global fetch itself: nothing reaches undici, so nobody adds a traceparent.
    const client = makeClient();
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const listener = () => undefined;
    subscribe('undici:request:create', listener);
    try {
      await client.charges.retrieve(CHARGE_ID);
    } finally {
      unsubscribe('undici:request:create', listener);
    }
    await client.charges.retrieve(CHARGE_ID);

    const attempts = exporter.getFinishedSpans().filter((span) => span.name === 'GET /v1/payments/charges/{id}');
    expect(attempts.map((span) => span.kind)).toEqual([SpanKind.INTERNAL, SpanKind.CLIENT]);
    expect(seen.map((request) => request.headers.get('traceparent') !== null)).toEqual([false, true]);
  });
});

describe('what goes to the service', () => {
  it('is traceparent and tracestate alone, whatever else the global propagator writes: no baggage', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    // NodeSDK's default: W3C trace context and W3C baggage, composed.
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    onTestFinished(() => {
      propagation.disable();
      context.disable();
    });
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    stops.push(instrumentLunas({ tracerProvider }));
    const seen = route('GET', CHARGE_PATH, () => jsonReply(200, success(chargeJson())));
    const baggage = propagation.createBaggage({ 'customer.email': { value: 'buyer@example.com' } });
    // The merchant's own baggage, meant for its own services, is active where the call is made.
    await context.with(propagation.setBaggage(context.active(), baggage), () =>
      makeClient().charges.retrieve(CHARGE_ID),
    );

    const [request] = seen;
    expect(request!.headers.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(request!.headers.get('baggage')).toBeNull();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('GET /v1/payments/charges/{id}');
  });
});
