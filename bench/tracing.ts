// Measurements 1t and 3t: what the tracing channels cost per `charges.retrieve`,
// one at a time and 100 in flight, against a bare fetch of the same URL, all in
// the same rounds: lunas with no subscriber (the subject), a second client of the
// same build (the noise between two identical sides), lunas with a subscriber to
// both channels that does nothing (the cost of publishing), and lunas with
// `instrumentLunas()` recording through the OpenTelemetry SDK (spans processed
// and dropped, the histogram recorded, traceparent injected). With
// LUNAS_BENCH_BEFORE=<a dist/ directory> (a build of the commit before the
// channels), that build is timed too: the no-subscriber path against the code
// without channels.
//
//   git archive <before> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/ &&
//     (cd /tmp/before && npm run build) && LUNAS_BENCH_BEFORE=/tmp/before/dist npm run bench -- tracing
//
// Each side subscribes when its turn in a round starts and leaves when it ends:
// the channels are the process's, so a side's subscriber would otherwise be
// every side's.
import { tracingChannel } from 'node:diagnostics_channel';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type * as Lunas from 'lunas-sdk';
import type * as LunasOtel from 'lunas-sdk/otel';
import { bareGet, chargeUrl, sdkClient } from './clients.js';
import { API_KEY, chargeId, retrieveBody } from './fixtures.js';
import { median, seededRandom, shuffled } from './stats.js';
import { compareOn, type BenchServer, type ServedComparison } from './server.js';

// As rows 1 and 3 (retrieve.ts): single rounds range from 0.7 to 1.5 times their median.
const ROUNDS = 21;

type Retrieve = (id: string) => Promise<unknown>;

const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url).href;
const { instrumentLunas } = (await import(dist('otel/index.js'))) as typeof LunasOtel;
const { ATTEMPT_CHANNEL, OPERATION_CHANNEL } = (await import(dist('index.js'))) as typeof Lunas;

/** Spans handed to it are dropped: what is timed is lunas's recording and the SDK's processing, not an export. */
const dropping: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

/** A reader never collected from: the histogram's recording is timed, not its export. */
class IdleReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Runs `run` with a subscriber on both channels whose every handler does nothing. */
function withSubscriber(run: () => Promise<void>): () => Promise<void> {
  const nothing = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
  return async () => {
    const operation = tracingChannel(OPERATION_CHANNEL);
    const attempt = tracingChannel(ATTEMPT_CHANNEL);
    operation.subscribe(nothing);
    attempt.subscribe(nothing);
    try {
      await run();
    } finally {
      operation.unsubscribe(nothing);
      attempt.unsubscribe(nothing);
    }
  };
}

/**
 * Runs `run` with lunas instrumented into an OpenTelemetry SDK: a tracer provider
 * with a SimpleSpanProcessor, a meter provider, the W3C propagator. No context
 * manager: the AsyncLocalStorage one would slow every side's promises alike,
 * which is the application's choice, not lunas's cost.
 */
function withOpenTelemetry(run: () => Promise<void>): () => Promise<void> {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropping)] });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return async () => {
    const stop = instrumentLunas({ tracerProvider, meterProvider });
    try {
      await run();
    } finally {
      stop();
    }
  };
}

/** lunas as built before the channels, when LUNAS_BENCH_BEFORE names its dist/. */
async function beforeClient(baseURL: string, options: Lunas.ClientOptions = {}): Promise<Lunas.Client | undefined> {
  const before = process.env.LUNAS_BENCH_BEFORE;
  if (before === undefined || before === '') return undefined;
  const { Client } = (await import(new URL(`file://${before.replace(/\/?$/, '/')}index.js`).href)) as typeof Lunas;
  return new Client({ apiKey: API_KEY, baseURL, ...options });
}

async function tracingSides(server: BenchServer, shape: (retrieve: Retrieve) => () => Promise<void>) {
  const client = sdkClient(server.url);
  const again = sdkClient(server.url);
  const subscribed = sdkClient(server.url);
  const traced = sdkClient(server.url);
  const before = await beforeClient(server.url);
  const references: Record<string, () => Promise<unknown>> = {
    again: shape((id) => again.charges.retrieve(id)),
    subscribed: withSubscriber(shape((id) => subscribed.charges.retrieve(id))),
    otel: withOpenTelemetry(shape((id) => traced.charges.retrieve(id))),
  };
  if (before) references.before = shape((id) => before.charges.retrieve(id));
  return {
    subject: shape((id) => client.charges.retrieve(id)),
    baseline: shape((id) => bareGet(chargeUrl(server.url, id))),
    references,
  };
}

export async function sequentialTracing(server: BenchServer, calls = 2_000): Promise<ServedComparison> {
  const ids = Array.from({ length: calls }, (_, i) => chargeId(i + 1));
  const inTurn = (retrieve: Retrieve) => async () => {
    for (const id of ids) await retrieve(id);
  };
  const { subject, baseline, references } = await tracingSides(server, inTurn);
  try {
    return await compareOn(server, ROUNDS, subject, baseline, references);
  } finally {
    propagation.disable();
  }
}

export async function concurrentTracing(server: BenchServer, calls = 1_000, batch = 100): Promise<ServedComparison> {
  const batches: string[][] = [];
  for (let i = 0; i < calls; i += batch) {
    batches.push(Array.from({ length: Math.min(batch, calls - i) }, (_, j) => chargeId(i + j + 1)));
  }
  const inBatches = (retrieve: Retrieve) => async () => {
    for (const ids of batches) await Promise.all(ids.map(retrieve));
  };
  const { subject, baseline, references } = await tracingSides(server, inBatches);
  try {
    return await compareOn(server, ROUNDS, subject, baseline, references);
  } finally {
    propagation.disable();
  }
}

/** What {@link ownCost} reports: each side's CPU time per call, medians over the rounds, in µs. */
export interface OwnCost {
  calls: number;
  rounds: number;
  microseconds: Record<string, number>;
}

/**
 * Measurement 1u: lunas's own CPU per `charges.retrieve`, through a `fetch`
 * that answers from memory, so no socket, server or other process is in the
 * figure; measured as the process's CPU time (`process.cpuUsage`), which a busy
 * machine's other processes do not add to as they add to wall time. The sides
 * as in 1t, each round in a shuffled order.
 */
export async function ownCost(calls = 5_000, rounds = ROUNDS): Promise<OwnCost> {
  const baseURL = 'https://bench.lunas.invalid';
  const text = retrieveBody(chargeId(1));
  const headers = { 'content-type': 'application/json', 'x-request-id': 'req_bench' };
  const fetch = () => Promise.resolve(new Response(text, { status: 200, headers }));
  const options: Lunas.ClientOptions = { fetch };
  const make = () => sdkClient(baseURL, options);
  const [client, again, subscribed, traced] = [make(), make(), make(), make()];
  const before = await beforeClient(baseURL, options);
  const id = chargeId(1);
  const loop = (retrieve: Retrieve) => async () => {
    for (let i = 0; i < calls; i++) await retrieve(id);
  };
  const sides: Record<string, () => Promise<void>> = {
    lunas: loop((i) => client.charges.retrieve(i)),
    again: loop((i) => again.charges.retrieve(i)),
    subscribed: withSubscriber(loop((i) => subscribed.charges.retrieve(i))),
    otel: withOpenTelemetry(loop((i) => traced.charges.retrieve(i))),
  };
  if (before) sides.before = loop((i) => before.charges.retrieve(i));
  try {
    const entries = Object.entries(sides);
    for (const [, run] of entries) await run();
    const times = new Map<string, number[]>(entries.map(([name]) => [name, []]));
    const random = seededRandom(rounds * 104_729 + entries.length);
    for (let round = 0; round < rounds; round++) {
      for (const [name, run] of shuffled(entries, random)) {
        const start = process.cpuUsage();
        await run();
        const { user, system } = process.cpuUsage(start);
        times.get(name)!.push((user + system) / calls);
      }
    }
    return {
      calls,
      rounds,
      microseconds: Object.fromEntries([...times].map(([name, perCall]) => [name, median(perCall)])),
    };
  } finally {
    propagation.disable();
  }
}
