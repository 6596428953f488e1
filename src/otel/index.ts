/**
 * `lunas-sdk/otel`: lunas's calls as OpenTelemetry spans and metrics, from
 * the tracing channels every call is published on (`lunas:operation`,
 * `lunas:attempt`), through `@opentelemetry/api` alone (an optional peer
 * dependency). No patching: whatever loads lunas (ESM, CommonJS, a bundler,
 * both builds in one process), its calls are on the same channels.
 *
 * @example
 * ```ts
 * import { instrumentLunas } from 'lunas-sdk/otel';
 *
 * // After the OpenTelemetry SDK has registered its providers (NodeSDK.start()).
 * const stop = instrumentLunas();
 * ```
 *
 * @see [Tracing and metrics](../../docs/tracing.md), the guide
 * @module lunas-sdk/otel
 */
import {
  type Attributes,
  type Context,
  context,
  diag,
  type Histogram,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { describeKind } from '../core/report/describe-value.js';
import { LunasError } from '../core/report/errors.js';
import { optionNames, readOptionsObject } from '../core/checks/options.js';
import {
  ATTEMPT_CHANNEL,
  type AttemptContext,
  channelHasSubscribers,
  type ChannelSubscribers,
  OPERATION_CHANNEL,
  type OperationContext,
  type SubscribableChannel,
  subscribableChannel,
} from '../core/report/tracing.js';
import { VERSION } from '../version.js';

/**
 * Options of {@link instrumentLunas}. Any other name is refused.
 * @category OpenTelemetry
 */
export interface InstrumentLunasOptions {
  /**
   * Where the spans go: the global provider by default (`trace.getTracerProvider()`,
   * which the OpenTelemetry SDK registers, even after this call).
   */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Where the `http.client.request.duration` histogram goes: the global provider
   * by default, as registered when lunas records its first attempt.
   */
  meterProvider?: MeterProvider | undefined;
}

/** The options' names, tied to the interface by the compiler. */
const OPTION_NAMES = optionNames<InstrumentLunasOptions>({ tracerProvider: 0, meterProvider: 0 });

/** The headers of W3C trace context, the only ones lunas sends of what the propagator writes. */
const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate'] as const;

/** The instrumentation scope of lunas's spans and metrics. */
const SCOPE = 'lunas-sdk';

/**
 * The channel undici (and Node.js's global `fetch`, which is undici) publishes
 * each request's creation on: OpenTelemetry's undici instrumentation starts
 * its CLIENT span and adds its `traceparent` there. A subscriber means the
 * HTTP client below lunas is instrumented.
 */
const WIRE_CHANNEL = 'undici:request:create';

/**
 * The buckets OpenTelemetry's HTTP semantic conventions advise for
 * `http.client.request.duration`, in seconds.
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Records every lunas call through OpenTelemetry until the returned function
 * is called:
 * - per operation (a method call, each page a list fetches, a raw call) a span
 *   `lunas transfers.create`, a child of the span active where the call was made;
 * - per HTTP attempt a child span of kind CLIENT, `POST /v1/transfers` (the
 *   route, never the id), with the stable HTTP client semantic conventions
 *   (`http.request.method`, `server.address`, `server.port`, `url.full`,
 *   `url.template`, `http.response.status_code`, `http.request.resend_count`
 *   on retries, `error.type`) and `lunas.idempotency_key`, `lunas.request_id`;
 *   a 4xx or 5xx, a timeout or a connection failure sets its status to error;
 * - the `http.client.request.duration` histogram (seconds) per attempt, with
 *   low-cardinality attributes only (`url.template`, never the URL);
 * - the active trace context (`traceparent`, `tracestate`, nothing else the
 *   global propagator writes: no `baggage`) sent on every attempt.
 *
 * Beside an instrumentation of the HTTP client below lunas (OpenTelemetry's
 * undici instrumentation, on in auto-instrumentations-node, which records
 * Node.js's global `fetch` and undici), seen as a subscriber to undici's
 * `undici:request:create` channel when an attempt starts, that
 * instrumentation records the request: lunas's attempt span is then of kind
 * INTERNAL (same name and attributes), lunas sends no trace context and
 * records no `http.client.request.duration` for it, and it starts the request
 * with its attempt span active ({@link lunas-sdk!AttemptContext.runExchange}),
 * so the instrumentation's CLIENT span is the attempt span's child and its
 * `traceparent` the only one sent: one trace, one CLIENT span per attempt.
 *
 * The API key is never in a span, an attribute or a metric. Where the runtime
 * has no `node:diagnostics_channel` (a browser, a Worker without
 * `nodejs_compat`), it throws: there is nothing to record.
 *
 * Stopping ends nothing in flight: a call already started is recorded to its
 * end, and the channels are left once the last has ended. Each call of
 * `instrumentLunas` records on its own, so instrument once per process.
 *
 * @returns A function that stops recording; calling it again does nothing.
 * @throws {@link lunas-sdk!LunasError} when `options` are not an object, name an unknown
 *   option, or a provider is not one; or where the runtime has no tracing channels.
 *
 * @example
 * ```ts
 * import { instrumentLunas } from 'lunas-sdk/otel';
 *
 * const stop = instrumentLunas({ tracerProvider, meterProvider });
 * // ...
 * stop();
 * ```
 * @category OpenTelemetry
 */
export function instrumentLunas(options?: InstrumentLunasOptions): () => void {
  const { tracerProvider, meterProvider } = readInstrumentOptions(options);
  const operationChannel = subscribableChannel<OperationContext>(OPERATION_CHANNEL);
  const attemptChannel = subscribableChannel<AttemptContext>(ATTEMPT_CHANNEL);
  if (operationChannel === undefined || attemptChannel === undefined) {
    throw new LunasError(
      'lunas-sdk/otel records through node:diagnostics_channel, which this runtime does not offer ' +
        '(Node.js 20.16 or later, Bun, Deno, or Workers with nodejs_compat)',
    );
  }
  const recorder = new Recorder(
    (tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION),
    () => meterProvider ?? metrics.getMeterProvider(),
    { operation: operationChannel, attempt: attemptChannel },
  );
  return () => recorder.stop();
}

/** The options, checked by name and by value: JavaScript callers get no compiler. */
function readInstrumentOptions(given: unknown): InstrumentLunasOptions {
  const { values, problems } = readOptionsObject(given, OPTION_NAMES, 'The options of instrumentLunas');
  const messages = Object.values(problems).flat();
  const check = (name: keyof InstrumentLunasOptions, method: string, kind: string) => {
    const value = values[name] as Record<string, unknown> | undefined | null;
    if (value === undefined) return;
    if (typeof value !== 'object' || value === null || typeof value[method] !== 'function') {
      messages.push(
        `${name} must be an OpenTelemetry ${kind} (an object with ${method}()), got ${describeKind(value)}`,
      );
    }
  };
  check('tracerProvider', 'getTracer', 'TracerProvider');
  check('meterProvider', 'getMeter', 'MeterProvider');
  if (messages.length > 0) throw new LunasError(messages.join('; '));
  return values as InstrumentLunasOptions;
}

/** An operation's span, and the context its attempts' spans are children in. */
interface OpenOperation {
  span: Span;
  context: Context;
}

/**
 * An attempt's span, when it started, and the attributes its duration is
 * recorded with; none when an instrumentation of the HTTP client records the
 * request (its span is the CLIENT one, its histogram the HTTP client's).
 */
interface OpenAttempt {
  span: Span;
  started: number;
  metric: Attributes | undefined;
}

/** The two channels a recorder subscribes to. */
interface Channels {
  operation: SubscribableChannel<OperationContext>;
  attempt: SubscribableChannel<AttemptContext>;
}

/**
 * Spans and metrics from the channels' contexts, for one `instrumentLunas`
 * call. Its handlers never throw: a throw in a subscriber is the process's
 * uncaught exception, so a provider's failure is reported through
 * OpenTelemetry's own `diag` instead.
 */
class Recorder {
  readonly #tracer: Tracer;
  readonly #meterProvider: () => MeterProvider;
  readonly #channels: Channels;
  readonly #subscribers: {
    operation: ChannelSubscribers<OperationContext>;
    attempt: ChannelSubscribers<AttemptContext>;
  };
  #duration: Histogram | undefined;
  /** Keyed by the contexts lunas publishes, so an entry goes with its call. */
  readonly #operations = new WeakMap<OperationContext, OpenOperation>();
  readonly #attempts = new WeakMap<AttemptContext, OpenAttempt>();
  /** False once stopped: no span starts, those in flight end as their calls do. */
  #starting = true;
  /** Spans started and not yet ended: a stopped recorder leaves the channels once there are none. */
  #inFlight = 0;

  constructor(tracer: Tracer, meterProvider: () => MeterProvider, channels: Channels) {
    this.#tracer = tracer;
    this.#meterProvider = meterProvider;
    this.#channels = channels;
    this.#subscribers = {
      operation: {
        start: (call) => this.#safely(() => this.#startOperation(call)),
        end: ignore,
        asyncStart: ignore,
        asyncEnd: (call) => this.#safely(() => this.#endOperation(call)),
        error: ignore,
      },
      attempt: {
        start: (attempt) => this.#safely(() => this.#startAttempt(attempt)),
        end: ignore,
        asyncStart: ignore,
        asyncEnd: (attempt) => this.#safely(() => this.#endAttempt(attempt)),
        error: ignore,
      },
    };
    channels.operation.subscribe(this.#subscribers.operation);
    channels.attempt.subscribe(this.#subscribers.attempt);
  }

  /** Starts no more spans, and leaves the channels once those in flight have ended; again, nothing. */
  stop(): void {
    if (!this.#starting) return;
    this.#starting = false;
    if (this.#inFlight === 0) this.#leave();
  }

  #leave(): void {
    this.#channels.operation.unsubscribe(this.#subscribers.operation);
    this.#channels.attempt.unsubscribe(this.#subscribers.attempt);
  }

  #safely(record: () => void): void {
    try {
      record();
    } catch (error) {
      diag.error('lunas-sdk/otel could not record a call', error);
    }
  }

  /** The histogram, made on the first attempt's end, so a provider registered after instrumenting is used. */
  get #histogram(): Histogram {
    return (this.#duration ??= this.#meterProvider()
      .getMeter(SCOPE, VERSION)
      .createHistogram('http.client.request.duration', {
        description: 'Duration of HTTP client requests.',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }));
  }

  #startOperation(call: OperationContext): void {
    if (!this.#starting) return;
    // The span active where the merchant made the call: the operation is its child.
    const parent = context.active();
    const attributes: Attributes = { 'lunas.operation': call.operation, 'url.template': call.route };
    if (call.idempotencyKey !== undefined) attributes['lunas.idempotency_key'] = call.idempotencyKey;
    const span = this.#tracer.startSpan(`lunas ${call.operation}`, { kind: SpanKind.INTERNAL, attributes }, parent);
    this.#operations.set(call, { span, context: trace.setSpan(parent, span) });
    this.#inFlight++;
  }

  #endOperation(call: OperationContext): void {
    const open = this.#operations.get(call);
    if (open === undefined) return;
    this.#operations.delete(call);
    this.#ended();
    const { span } = open;
    if (call.status !== undefined) span.setAttribute('http.response.status_code', call.status);
    if (call.requestId !== undefined) span.setAttribute('lunas.request_id', call.requestId);
    failed(span, call.status, call.error);
    span.end();
  }

  #startAttempt(attempt: AttemptContext): void {
    if (!this.#starting) return;
    const parent =
      (attempt.operationContext && this.#operations.get(attempt.operationContext)?.context) ?? context.active();
    const { method, route } = attempt;
    const server = serverOf(attempt.url);
    // What the histogram is recorded with: low in cardinality, the route and never the URL.
    const metric: Attributes = {
      'http.request.method': method,
      'server.address': server.address,
      'server.port': server.port,
      'url.scheme': server.scheme,
      'url.template': route,
    };
    const attributes: Attributes = { ...metric, 'url.full': attempt.url };
    if (attempt.attempt > 1) attributes['http.request.resend_count'] = attempt.attempt - 1;
    if (attempt.idempotencyKey !== undefined) attributes['lunas.idempotency_key'] = attempt.idempotencyKey;
    // An instrumentation of undici (global fetch's HTTP client) records the request itself, with a
    // CLIENT span and a traceparent of its own: lunas's span is then the INTERNAL parent of that one.
    const wire = channelHasSubscribers(WIRE_CHANNEL);
    const kind = wire ? SpanKind.INTERNAL : SpanKind.CLIENT;
    const span = this.#tracer.startSpan(`${method} ${route}`, { kind, attributes }, parent);
    const active = trace.setSpan(parent, span);
    this.#attempts.set(attempt, { span, started: performance.now(), metric: wire ? undefined : metric });
    this.#inFlight++;
    if (wire) {
      // The request is started with the attempt's span active, where the instrumentation reads its parent.
      const previous = attempt.runExchange;
      attempt.runExchange =
        typeof previous === 'function'
          ? (send) => context.with(active, () => previous(send))
          : (send) => context.with(active, send);
      return;
    }
    // The attempt's own span is the parent the service sees: its logs join the merchant's trace there.
    // Through the global propagator, but only the trace context goes: a composite one (NodeSDK's
    // default) also writes the merchant's baggage, meant for its own services, not a payment service.
    const carrier: Record<string, string> = {};
    propagation.inject(active, carrier);
    for (const name of TRACE_CONTEXT_HEADERS) {
      const value = carrier[name];
      if (typeof value === 'string') attempt.headers[name] = value;
    }
  }

  #endAttempt(attempt: AttemptContext): void {
    const open = this.#attempts.get(attempt);
    if (open === undefined) return;
    this.#attempts.delete(attempt);
    this.#ended();
    const { span, metric } = open;
    const { status, requestId, error } = attempt;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (requestId !== undefined) span.setAttribute('lunas.request_id', requestId);
    const errorType = failed(span, status, error);
    span.end();
    if (metric === undefined) return;
    if (status !== undefined) metric['http.response.status_code'] = status;
    if (errorType !== undefined) metric['error.type'] = errorType;
    this.#histogram.record((performance.now() - open.started) / 1000, metric);
  }

  #ended(): void {
    // Left after this event's publication: a subscriber list changed while it is read may skip another's.
    if (--this.#inFlight === 0 && !this.#starting) queueMicrotask(() => this.#leave());
  }
}

const ignore = () => undefined;

/**
 * Marks `span` failed when the call or attempt was (a 4xx or 5xx, a timeout,
 * a connection failure, a response refused), and returns its `error.type`:
 * the status for an HTTP error, else the error's class (`APIConnectionTimeoutError`).
 */
function failed(span: Span, status: number | undefined, error: LunasError | undefined): string | undefined {
  const httpError = status !== undefined && status >= 400;
  if (!httpError && error === undefined) return undefined;
  const errorType = httpError ? String(status) : error!.name;
  span.setAttribute('error.type', errorType);
  // lunas's messages never hold the key: it is masked where they are built.
  if (error !== undefined) span.recordException(error);
  span.setStatus(
    error === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message: error.message },
  );
  return errorType;
}

/** `server.address`, `server.port` and `url.scheme` of a URL lunas sent to. */
function serverOf(url: string): { address: string; port: number; scheme: string } {
  // lunas's URL, with the key masked: a URL still, since lunas sent it.
  const { hostname, port, protocol } = new URL(url);
  const scheme = protocol.slice(0, -1);
  // An IPv6 literal without its brackets, as the conventions write an address.
  const address = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return { address, port: port === '' ? (scheme === 'https' ? 443 : 80) : Number(port), scheme };
}
