/**
 * Helpers shared by the unit and end-to-end suites. Nothing here imports msw,
 * so end-to-end files can use it without intercepting their real requests.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { Client, RequestEvent, ResponseEvent } from '../../src/index.js';

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
