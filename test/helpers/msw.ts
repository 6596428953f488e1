/**
 * msw for unit tests: every request must match a handler. Unhandled requests
 * fail the test twice over: msw's `error` mode rejects the fetch, and the
 * `request:unhandled` listener fails the test even when code swallows that.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';
import { API_KEY, BASE_URL } from './fixtures.js';

/** The msw server of the unit suites; a test adds its handlers with `server.use`. */
export const server = setupServer();
/**
 * Unhandled requests not yet reported. Module state on purpose: a request a
 * test fired and left can arrive after that test ended, and must still fail
 * the next test's check rather than pass unseen.
 */
const unhandled: string[] = [];

server.events.on('request:unhandled', ({ request }) => {
  unhandled.push(`${request.method} ${request.url}`);
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  const seen = unhandled.splice(0);
  expect(seen, 'requests no handler matched').toEqual([]);
});
afterAll(() => server.close());

/**
 * A client against the msw base URL, given no `fetch`, as a merchant's: it
 * sends through global `fetch`, which msw intercepts.
 */
export function makeClient(options: ClientOptions = {}): Client {
  return new Client({ apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'off', ...options });
}
