/**
 * Helpers shared by the unit and end-to-end suites. Nothing here imports msw,
 * so end-to-end files can use it without intercepting their real requests.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, expect, onTestFinished } from 'vitest';
import type { Client, Logger, RequestEvent, ResponseEvent } from '../../src/index.js';
import { sleep } from './waiting.js';

/** One event a client emitted, with its name. */
export type RecordedEvent = { name: 'request'; event: RequestEvent } | { name: 'response'; event: ResponseEvent };

/** Subscribes to both events and keeps them in the order they came. */
export function recordEvents(client: Client): RecordedEvent[] {
  const seen: RecordedEvent[] = [];
  client.on('request', (event) => seen.push({ name: 'request', event }));
  client.on('response', (event) => seen.push({ name: 'response', event }));
  return seen;
}

/** The response events among those recorded. */
export function responseEvents(seen: RecordedEvent[]): ResponseEvent[] {
  return seen.flatMap((entry) => (entry.name === 'response' ? [entry.event] : []));
}

/**
 * The rule every call keeps, however it ends: each `request` event is followed
 * by its attempt's `response` event before the next attempt, and exactly one
 * `response` event says `willRetry: false`, the last event of the call.
 */
export function expectPairedEvents(seen: RecordedEvent[]): void {
  const names = seen.map((entry) => `${entry.name} ${entry.event.attempt}`);
  const expected = seen.flatMap((_, i) => (i % 2 === 0 ? [`request ${i / 2 + 1}`, `response ${i / 2 + 1}`] : []));
  expect(names).toEqual(expected);
  const finals = responseEvents(seen).filter((event) => !event.willRetry);
  expect(finals).toHaveLength(1);
  expect(seen.at(-1)?.event).toBe(finals[0]);
}

/**
 * A logger keeping every line, whatever its level. lunas writes one string per
 * line; anything more a call passed would be kept too, inspected deeply, so
 * that a key in it would show.
 */
export function recordingLogger(): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  const write = (...args: unknown[]) =>
    void lines.push(
      args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 12, showHidden: true }))).join(' '),
    );
  return { lines, logger: { debug: write, info: write, warn: write, error: write } };
}

/** The unhandled rejections {@link watchUnhandledRejections} saw, until `stop()`. */
export interface UnhandledRejections {
  reasons: unknown[];
  stop(): void;
}

/**
 * Records the reason of every unhandled rejection from now until `stop()`.
 * Node reports one after a turn of the event loop, once the microtasks drain.
 */
export function watchUnhandledRejections(): UnhandledRejections {
  const reasons: unknown[] = [];
  const onUnhandled = (reason: unknown) => void reasons.push(reason);
  process.on('unhandledRejection', onUnhandled);
  return { reasons, stop: () => void process.off('unhandledRejection', onUnhandled) };
}

/**
 * Fails every test of the calling suite (call it inside a `describe`) that
 * leaves a rejection unhandled, reported up to a turn of the event loop after
 * the test: a plug-in's failure must never become one.
 */
export function failOnUnhandledRejections(): void {
  let unhandled: UnhandledRejections;
  beforeEach(() => {
    unhandled = watchUnhandledRejections();
  });
  afterEach(async () => {
    await sleep(10);
    unhandled.stop();
    expect(unhandled.reasons).toEqual([]);
  });
}

/** Walks a list to its end, keeping what it yielded before any error. */
export async function walkAll<T>(list: AsyncIterable<T>): Promise<{ yielded: T[]; error: unknown }> {
  const yielded: T[] = [];
  try {
    for await (const item of list) yielded.push(item);
  } catch (error) {
    return { yielded, error };
  }
  return { yielded, error: undefined };
}

/** Listens on 127.0.0.1 (a free port) until the current test ends; resolves to the origin. */
export async function listenForTest(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
