/**
 * The tracing channels lunas publishes every call on, `lunas:operation` and
 * `lunas:attempt` (`node:diagnostics_channel`'s `TracingChannel`), and the
 * contexts it publishes: the request primitive (call/request.ts) publishes an
 * operation, the transport each attempt inside it, and `lunas-sdk/otel`
 * subscribes.
 *
 * The module is looked up through `process.getBuiltinModule`, never
 * imported: a static `import 'node:diagnostics_channel'` would stop the SDK
 * from loading where there is no such module (browsers, a Worker without
 * `nodejs_compat`), and a bundler for those would refuse it. Where the lookup
 * finds nothing (those runtimes, and Node.js 20 before 20.16, which lacks
 * `getBuiltinModule`), nothing is published and a call costs what it did.
 * Where it finds the module, a call with no subscriber costs one check per
 * channel: nothing is built for a channel nobody listens to.
 */
import type { LunasError } from './errors.js';

/**
 * The name of the tracing channel lunas publishes every SDK call on, once per
 * call (a list publishes once per page it fetches), with an
 * {@link OperationContext}. Subscribe with `node:diagnostics_channel`'s
 * `tracingChannel(OPERATION_CHANNEL)`; see [Tracing and metrics](../../../docs/tracing.md).
 *
 * @example
 * ```ts
 * import { tracingChannel } from 'node:diagnostics_channel';
 * import { OPERATION_CHANNEL, type OperationContext } from 'lunas-sdk';
 *
 * tracingChannel<OperationContext>(OPERATION_CHANNEL).subscribe({
 *   start: (call) => console.log(`${call.operation}: ${call.method} ${call.route}`),
 *   end: () => {},
 *   asyncStart: () => {},
 *   asyncEnd: (call) => console.log(`${call.operation}: ${call.status ?? call.error?.name}`),
 *   error: () => {},
 * });
 * ```
 * @category Tracing
 */
export const OPERATION_CHANNEL = 'lunas:operation';

/**
 * The name of the tracing channel lunas publishes every HTTP attempt on, with
 * an {@link AttemptContext}: inside its operation's (`lunas:operation`), one
 * per attempt, retries included. Subscribe with `node:diagnostics_channel`'s
 * `tracingChannel(ATTEMPT_CHANNEL)`; see [Tracing and metrics](../../../docs/tracing.md).
 * @category Tracing
 */
export const ATTEMPT_CHANNEL = 'lunas:attempt';

/**
 * What lunas publishes on `lunas:operation` ({@link OPERATION_CHANNEL}): one
 * SDK call, from the moment its input was accepted to its result. A call
 * refused before sending (a `RequestValidationError`: invalid parameters or
 * options) publishes nothing; a call aborted by its signal before sending
 * (while it waited for a turn on the wire too) publishes its operation, with
 * no attempt.
 *
 * `start` and `end` see the fields up to `idempotencyKey`; `status`,
 * `requestId` and `error` are set when the call settles, before `asyncStart`
 * and `asyncEnd` (and `error`, on a failure). The object is shared by every
 * subscriber and with the call's attempts ({@link AttemptContext.operationContext}):
 * read it, do not change it. It never holds the API key.
 * @category Tracing
 */
export interface OperationContext {
  /**
   * The SDK method: `'transfers.create'`, `'charges.retrieve'`, `'charges.list'`
   * (once per page fetched); `'get'` or `'post'` for `client.get` and `client.post`.
   */
  readonly operation: string;
  /** `GET` or `POST`. */
  readonly method: 'GET' | 'POST';
  /**
   * The path template, low in cardinality: `/v1/payments/charges/{id}`, never
   * the id. For `client.get` and `client.post`, the path as the caller gave it.
   */
  readonly route: string;
  /** The full URL, query included (a list's page and page size), as sent. It never holds the API key. */
  readonly url: string;
  /** The Idempotency-Key of a POST, the same on every attempt; undefined for a GET. */
  readonly idempotencyKey: string | undefined;
  /** The final HTTP status: the last attempt's; undefined until the call settles, and when no response came. */
  readonly status: number | undefined;
  /** The last response's `x-request-id`, when the service sent one. */
  readonly requestId: string | undefined;
  /** Why the call failed (a `LunasError`), set when it rejects; undefined when it succeeded. */
  readonly error?: LunasError | undefined;
}

/**
 * What lunas publishes on `lunas:attempt` ({@link ATTEMPT_CHANNEL}): one HTTP
 * attempt of a call, from before it is sent (once it has its turn on the wire,
 * `maxConcurrentRequests`: the wait for one is not in it) to the end of
 * reading and checking its response. When the caller's signal aborts during
 * the wait before a retry, that retry is still published, and fails at once
 * unsent, as its `request` and `response` events do; a call aborted before its
 * first attempt was sent publishes no attempt.
 *
 * `start` sees the fields up to `operationContext`, and may add headers to
 * `headers` (trace context: `traceparent`) and set {@link runExchange} (to
 * send the request inside its own async context); `status`, `requestId`,
 * `willRetry` and `error` are set when the attempt ends, before `asyncStart`
 * and `asyncEnd`. It never holds the API key.
 * @category Tracing
 */
export interface AttemptContext {
  /** The operation this attempt belongs to: `'transfers.create'`, `'get'`, as {@link OperationContext.operation}. */
  readonly operation: string;
  /** `GET` or `POST`. */
  readonly method: 'GET' | 'POST';
  /** The path template, as {@link OperationContext.route}. */
  readonly route: string;
  /** The full URL, query included, as sent. It never holds the API key. */
  readonly url: string;
  /** The Idempotency-Key of a POST, the same on every attempt; undefined for a GET. */
  readonly idempotencyKey: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /**
   * Headers a `start` subscriber adds, sent with this attempt only: a
   * propagator's `traceparent` and `tracestate`, say. Starts empty (it never
   * shows the headers lunas sends, which carry the key). A name lunas or the
   * caller already sends (`authorization`, `idempotency-key`, a header of the
   * client's or the call's `headers` option), and a name or value that is not
   * a valid HTTP header, is left out.
   */
  readonly headers: Record<string, string>;
  /** The context of the operation this attempt belongs to, when `lunas:operation` has subscribers. */
  readonly operationContext: OperationContext | undefined;
  /**
   * The one field a `start` subscriber may set: a function lunas sends this
   * attempt's HTTP request inside. lunas calls it with a `send` function that
   * starts the request and returns its promise; it calls `send` at once
   * (synchronously) and returns what `send` returned. Starts `undefined`:
   * lunas sends the request directly.
   *
   * It is how a tracer makes its attempt's span the active one while the HTTP
   * client below lunas starts the request, so that an instrumentation of that
   * client (OpenTelemetry's undici instrumentation, which sees Node.js's
   * global `fetch` and undici) records the request under it:
   * `lunas-sdk/otel` sets it to `(send) => context.with(attemptContext, send)`
   * when such an instrumentation is there
   * ([Tracing and metrics](../../../docs/tracing.md#beside-an-http-client-instrumentation)).
   *
   * The request is sent exactly once, whatever the function does: lunas keeps
   * the promise `send` returned, whatever the function returns. When the field
   * is not a function, or the function throws before calling `send` or
   * returns without having called it, lunas sends the request directly; a
   * second call of `send`, or one made later, sends nothing more and returns
   * the same promise. To add to a function an earlier subscriber set, wrap it.
   */
  runExchange: (<T>(send: () => T) => T) | undefined;
  /** The HTTP status; undefined until the attempt ends, and when no response came (a timeout, a connection failure). */
  readonly status: number | undefined;
  /** The response's `x-request-id`, when the service sent one. */
  readonly requestId: string | undefined;
  /** Whether another attempt follows this one; undefined until it ends, then false on the call's last. */
  readonly willRetry: boolean | undefined;
  /** Why the attempt failed (a `LunasError`), set when it fails; undefined when it succeeded. */
  readonly error?: LunasError | undefined;
}

/**
 * @internal Starts an attempt's request through `send`, inside the runner a
 * `lunas:attempt` subscriber set ({@link AttemptContext.runExchange}), and
 * returns the promise `send` returned. `send` runs exactly once whatever the
 * runner does: directly when there is none, when it is not a function, throws
 * before calling `send` or returns without having called it; a second or late
 * call gets the same promise. A throw of `send` is that promise's rejection.
 */
export function sendThrough<T>(traced: AttemptContext | undefined, send: () => Promise<T>): Promise<T> {
  if (traced === undefined) return send();
  let sent: Promise<T> | undefined;
  const once = () => (sent ??= new Promise<T>((resolve) => resolve(send())));
  try {
    // Not a function, a getter that throws, a runner that fails: all caught, and sent below if not yet.
    const returned: unknown = traced.runExchange?.(once);
    // An async runner's promise rejects with the request's failure: nobody else awaits it.
    if (returned instanceof Promise) returned.catch(() => undefined);
  } catch {
    // The request was sent by the runner, or is sent below.
  }
  return once();
}

/** @internal A context as lunas fills it in; subscribers see its fields read-only. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A channel of the runtime's `diagnostics_channel`: whether anyone listens, and publishing to them. */
interface RuntimeChannel {
  readonly hasSubscribers: boolean;
  publish(message: unknown): void;
}

/** The part of the runtime's `TracingChannel` lunas publishes through. */
interface RuntimeTracingChannel<Context extends object> {
  /** Node.js 20.13 and later, Deno; computed from the five channels where a runtime lacks it (Bun). */
  readonly hasSubscribers?: boolean;
  readonly start: RuntimeChannel;
  readonly end: RuntimeChannel;
  readonly asyncStart: RuntimeChannel;
  readonly asyncEnd: RuntimeChannel;
  readonly error: RuntimeChannel;
  tracePromise(fn: () => Promise<void>, context: Context): Promise<void>;
}

/**
 * @internal One of lunas's tracing channels, as the runtime has it. A promise
 * is traced through its documented `tracePromise`, so a subscriber's
 * `bindStore` applies to the whole call.
 */
export type TracePublisher<Context extends object> = RuntimeTracingChannel<Context>;

/** @internal Whether anyone subscribes to any of `channel`'s five events; read at each call. */
export function hasSubscribers(channel: TracePublisher<object>): boolean {
  return (
    channel.hasSubscribers ??
    // Bun's TracingChannel has no `hasSubscribers`.
    (channel.start.hasSubscribers ||
      channel.end.hasSubscribers ||
      channel.asyncStart.hasSubscribers ||
      channel.asyncEnd.hasSubscribers ||
      channel.error.hasSubscribers)
  );
}

/**
 * @internal Publishes the start of an attempt, `start` then `end`, as
 * `tracePromise` would for a function that returned its promise at once. The
 * transport publishes an attempt event by event, in its retry loop, rather
 * than through `tracePromise`: the attempt is a step of the loop, not a
 * function of its own. A store bound to `lunas:operation`'s `start` covers it.
 */
export function publishStart<Context extends object>(channel: TracePublisher<Context>, context: Context): void {
  channel.start.publish(context);
  channel.end.publish(context);
}

/**
 * @internal Sets `fields` on a published context. A subscriber may have
 * frozen it (or handed a Proxy that throws): what it refuses stays as it
 * was, and the call goes on, since a subscriber never breaks a call.
 */
export function record<Context extends object>(context: Mutable<Context>, fields: Partial<Context>): void {
  try {
    Object.assign(context, fields);
  } catch {
    // Kept as the subscriber left it.
  }
}

/**
 * @internal Publishes the end of an attempt, as `tracePromise` does when the
 * promise settles: on a failure `error` (with `context.error` set) first, then
 * `asyncStart` and `asyncEnd`.
 */
export function publishEnd<Context extends { error?: unknown }>(
  channel: TracePublisher<Context>,
  context: Mutable<Context>,
  error: unknown,
): void {
  if (error !== undefined) {
    record(context, { error } as Partial<Context>);
    channel.error.publish(context);
  }
  channel.asyncStart.publish(context);
  channel.asyncEnd.publish(context);
}

/** What `diagnostics_channel` offers lunas. */
interface DiagnosticsChannel {
  tracingChannel?: (name: string) => unknown;
  hasSubscribers?: (name: string) => unknown;
}

/** @internal A handler of each of a tracing channel's five events. */
export interface ChannelSubscribers<Context extends object> {
  start(context: Context): void;
  end(context: Context): void;
  asyncStart(context: Context): void;
  asyncEnd(context: Context): void;
  error(context: Context): void;
}

/** @internal The part of the runtime's `TracingChannel` a subscriber uses. */
export interface SubscribableChannel<Context extends object> {
  subscribe(subscribers: ChannelSubscribers<Context>): void;
  unsubscribe(subscribers: ChannelSubscribers<Context>): void;
}

/**
 * @internal The runtime's tracing channel `name`, to subscribe to
 * (`lunas-sdk/otel`), or undefined where the runtime has no tracing channels.
 */
export function subscribableChannel<Context extends object>(name: string): SubscribableChannel<Context> | undefined {
  try {
    const channel = diagnosticsChannel()?.tracingChannel?.(name) as Partial<SubscribableChannel<Context>> | undefined;
    return typeof channel?.subscribe === 'function' && typeof channel.unsubscribe === 'function'
      ? (channel as SubscribableChannel<Context>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @internal Whether anyone subscribes to the runtime's channel `name`
 * (`undici:request:create`, where an instrumentation of undici and global
 * `fetch` listens), through `diagnostics_channel.hasSubscribers`; false
 * where the runtime has no channels.
 */
export function channelHasSubscribers(name: string): boolean {
  try {
    return diagnosticsChannel()?.hasSubscribers?.(name) === true;
  } catch {
    return false;
  }
}

/**
 * The runtime's `diagnostics_channel`, through `process.getBuiltinModule`
 * (Node.js 20.16 and 22.3 on, Bun, Deno, Workers with `nodejs_compat`), or
 * undefined. Its callers catch what a runtime that refuses to say throws.
 */
function diagnosticsChannel(): DiagnosticsChannel | undefined {
  // A runtime without it has no `process`, or no `getBuiltinModule` (Node.js 20 before 20.16).
  return (
    globalThis as { process?: { getBuiltinModule?: (name: string) => DiagnosticsChannel | undefined } }
  ).process?.getBuiltinModule?.('node:diagnostics_channel');
}

/** lunas's two channels where the runtime has tracing channels, else undefined: nothing is published. */
function loadChannels():
  { operation: TracePublisher<OperationContext>; attempt: TracePublisher<AttemptContext> } | undefined {
  try {
    const module = diagnosticsChannel();
    const operation = module?.tracingChannel?.(OPERATION_CHANNEL) as TracePublisher<OperationContext> | undefined;
    const attempt = module?.tracingChannel?.(ATTEMPT_CHANNEL) as TracePublisher<AttemptContext> | undefined;
    return typeof operation?.tracePromise === 'function' && typeof attempt?.start?.publish === 'function'
      ? { operation, attempt }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @internal The process's two channels, looked up once when lunas loads (the
 * runtime keeps one channel per name, so every copy of lunas in a process
 * publishes on the same ones); undefined where the runtime has none.
 */
export const tracingChannels = loadChannels();
