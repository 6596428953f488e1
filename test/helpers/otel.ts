/**
 * The real OpenTelemetry SDK for the suites that check `lunas-sdk/otel`:
 * spans kept in memory, metrics collected on demand, the AsyncLocalStorage
 * context manager and the W3C propagator as a merchant's set-up installs them.
 */
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { instrumentLunas } from 'lunas-sdk/otel';

/** A reader the test collects from when it wants the metrics, with no timer. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One test's OpenTelemetry SDK: spans in memory, metrics on demand, lunas instrumented into both. */
export interface Telemetry {
  spans(): ReadableSpan[];
  collect(): Promise<ResourceMetrics>;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  stop: () => void;
}

/**
 * Installs OpenTelemetry's global context manager and propagator for the
 * calling file (or `describe`), and gives `telemetry()`, one test's SDK with
 * lunas instrumented into it (or not), and `stopAfterTest`: what either
 * started is stopped when the test ends, so no instrumentation outlives it.
 */
export function useOpenTelemetry(): {
  telemetry: (instrument?: boolean) => Telemetry;
  stopAfterTest: (stop: () => void) => void;
} {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });
  const stopAfterTest = (stop: () => void) => void stops.push(stop);
  const telemetry = (instrument = true): Telemetry => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const reader = new CollectingReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const stop = instrument ? instrumentLunas({ tracerProvider, meterProvider }) : () => undefined;
    stopAfterTest(stop);
    return {
      spans: () => exporter.getFinishedSpans(),
      collect: async () => (await reader.collect()).resourceMetrics,
      tracerProvider,
      meterProvider,
      stop,
    };
  };
  return { telemetry, stopAfterTest };
}
