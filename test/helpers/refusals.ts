/**
 * What a call refused before sending must show, on msw: a
 * RequestValidationError naming exactly the fields expected, and no request;
 * and, for a call that passes, the JSON body that reached the network.
 */
import { http, HttpResponse } from 'msw';
import { expect } from 'vitest';
import { type Client, LunasError, RequestValidationError } from '../../src/index.js';
import { BASE_URL, success } from './fixtures.js';
import { makeClient, server } from './msw.js';
import { countRequests } from './requests.js';

/** What a field's messages must contain: an exact message, a pattern, or just "some message". */
type Expected = string | RegExp | 'any';

/**
 * Runs `call` (which may throw or reject), expects RequestValidationError with
 * exactly the `expected` field names, each message list matching, and no request.
 */
export async function expectRefused(call: (client: Client) => unknown, expected: Record<string, Expected>) {
  const counter = countRequests();
  let error: unknown;
  try {
    await call(makeClient());
  } catch (e) {
    error = e;
  }
  expect(error, 'expected the call to be refused').toBeInstanceOf(RequestValidationError);
  expect(error).toBeInstanceOf(LunasError);
  const fields = (error as RequestValidationError).fields;
  expect(Object.keys(fields).sort()).toEqual(Object.keys(expected).sort());
  for (const [field, want] of Object.entries(expected)) {
    const messages = fields[field]!;
    expect(Array.isArray(messages) && messages.length > 0, `messages for ${field}`).toBe(true);
    expect(messages.every((m) => typeof m === 'string' && m.length > 0)).toBe(true);
    if (want instanceof RegExp)
      expect(
        messages.some((m) => want.test(m)),
        `${field}: ${messages.join(' | ')}`,
      ).toBe(true);
    else if (want !== 'any') expect(messages).toContain(want);
  }
  expect(counter.count(), `requests sent: ${counter.urls.join(', ')}`).toBe(0);
  return error as RequestValidationError;
}

/** Expects the call to reach the network; returns the JSON body sent. */
export async function expectSent(
  path: string,
  call: (client: Client) => Promise<unknown>,
  data: unknown,
): Promise<unknown> {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${BASE_URL}${path}`, async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(success(data) as Record<string, unknown>);
    }),
  );
  await call(makeClient());
  expect(bodies).toHaveLength(1);
  return bodies[0];
}
