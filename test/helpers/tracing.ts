/**
 * A recorder of lunas's tracing channels (`lunas:operation`, `lunas:attempt`)
 * for the unit and end-to-end suites: every event of both, in the order
 * published, each with a copy of its context as it was at that moment (the
 * context object itself is filled in as the call goes on).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { ATTEMPT_CHANNEL, type AttemptContext, OPERATION_CHANNEL, type OperationContext } from 'lunas-sdk';
import { onTestFinished } from 'vitest';

/** The five events of a tracing channel. */
type TraceEvent = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';

/** One event as a subscriber saw it. */
type TraceRecord =
  | { channel: 'operation'; event: TraceEvent; context: OperationContext; seen: OperationContext }
  | { channel: 'attempt'; event: TraceEvent; context: AttemptContext; seen: AttemptContext };

/** What {@link recordTracing} returns. */
export interface TracingRecorder {
  /** Every event of both channels, in order. */
  readonly records: TraceRecord[];
  /** `operation:start`, `attempt:asyncEnd`...: the events in order, by name. */
  names(): string[];
  /** The contexts published on a channel (each once), in the order they started. */
  contexts<C extends 'operation' | 'attempt'>(
    channel: C,
  ): (C extends 'operation' ? OperationContext : AttemptContext)[];
  /** Unsubscribes. */
  stop(): void;
}

/**
 * Subscribes to both channels (every event) until the test ends; `onAttemptStart` runs in the
 * attempt's `start`, where a subscriber may add headers.
 */
export function recordTracing(onAttemptStart?: (context: AttemptContext) => void): TracingRecorder {
  const records: TraceRecord[] = [];
  const operation = tracingChannel<OperationContext>(OPERATION_CHANNEL);
  const attempt = tracingChannel<AttemptContext>(ATTEMPT_CHANNEL);
  const on = <C extends 'operation' | 'attempt'>(channel: C, event: TraceEvent) => {
    return (context: C extends 'operation' ? OperationContext : AttemptContext) => {
      // Copied: the context object itself is filled in as the call goes on.
      const seen = 'headers' in context ? { ...context, headers: { ...context.headers } } : { ...context };
      records.push({ channel, event, context, seen } as TraceRecord);
      if (channel === 'attempt' && event === 'start') onAttemptStart?.(context as AttemptContext);
    };
  };
  const subscribersOf = <C extends 'operation' | 'attempt'>(channel: C) => ({
    start: on(channel, 'start'),
    end: on(channel, 'end'),
    asyncStart: on(channel, 'asyncStart'),
    asyncEnd: on(channel, 'asyncEnd'),
    error: on(channel, 'error'),
  });
  const operationSubscribers = subscribersOf('operation');
  const attemptSubscribers = subscribersOf('attempt');
  operation.subscribe(operationSubscribers);
  attempt.subscribe(attemptSubscribers);
  const stop = (): void => {
    operation.unsubscribe(operationSubscribers);
    attempt.unsubscribe(attemptSubscribers);
  };
  // Each test's recorder ends with the test: the next test starts with no subscriber.
  onTestFinished(stop);
  return {
    records,
    names: () => records.map((record) => `${record.channel}:${record.event}`),
    contexts: (channel) =>
      records
        .filter((record) => record.channel === channel && record.event === 'start')
        .map((record) => record.context) as never,
    stop,
  };
}
