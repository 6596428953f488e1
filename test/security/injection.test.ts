/**
 * Header injection and path traversal, property-based, on the wire: a real
 * node:http server parses what lunas sends, so an injected header or an
 * extra path segment would show up as one.
 *
 * - Per-call headers and Idempotency-Keys: whatever the caller passes is
 *   either refused before sending (`RequestValidationError`) or sent as exactly
 *   one header, without CR, LF or NUL, adding no other header.
 * - Ids: whatever the id (`..`, `%2F`, `?`, `#`, `%2e%2e`, CR LF, ...), the
 *   request stays one segment under /v1/payments/charges/, carries no query
 *   and no fragment, and the segment decodes back to the id; `.`, `..` and
 *   the empty id are refused before sending. The same against the sandbox, in
 *   traversal.test.ts.
 *
 * The fixed cases of test/unit/core/checks/options.test.ts (CRLF in a header, reserved
 * names) are not repeated.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, Client, NotFoundError, RequestValidationError } from 'lunas-sdk';
import { hostileId } from '../helpers/hostile.js';

const KEY = 'sk_test_injection_61c2';
const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 150);

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
}

const received: Received[] = [];
let server: Server;
let client: Client;

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      rawHeaders: request.rawHeaders,
    });
    request.resume();
    request.on('end', () => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'fail', data: { message: 'Charge not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new Client({ apiKey: KEY, baseURL: `http://127.0.0.1:${port}`, maxRetries: 0, logLevel: 'off' });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The headers every request carries, whatever the caller adds. */
const OWN_HEADERS = new Set([
  'host',
  'connection',
  'accept',
  'user-agent',
  'authorization',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
  'content-type',
  'content-length',
  'idempotency-key',
]);

/** Characters that break HTTP framing or header syntax, and ordinary ones. */
const headerChar = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\r',
      '\n',
      '\r\n',
      '\0',
      '\t',
      ' ',
      ':',
      '\x7f',
      '\x1b',
      '\u00e9',
      '\u0100',
      '\u2028',
      '\ud800',
    ),
  },
);
const headerText = (maxLength: number) => fc.string({ unit: headerChar, maxLength });

async function outcomeOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

describe('per-call headers', () => {
  it('are refused, or sent as exactly one header without CR, LF or NUL, adding no other', async () => {
    const name = fc.oneof(
      headerText(12),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).map((n) => `x-${n}`),
      fc.constantFrom(
        'accept',
        'user-agent',
        'content-type',
        'cookie',
        'proxy-authorization',
        'x-forwarded-host',
        'Accept-Encoding',
      ),
    );
    await fc.assert(
      fc.asyncProperty(name, headerText(24), async (headerName, value) => {
        received.length = 0;
        const outcome = await outcomeOf(client.charges.retrieve('ch_1', { headers: { [headerName]: value } }));
        if (outcome instanceof RequestValidationError) {
          expect(Object.keys(outcome.fields)).toEqual([`headers.${headerName}`]);
          expect(received).toHaveLength(0);
          return;
        }
        expect(outcome, String(outcome)).toBeInstanceOf(NotFoundError);
        expect(received).toHaveLength(1);
        const [request] = received;
        expect(`${headerName}${value}`).not.toMatch(/[\r\n\0]/);
        const lowered = headerName.toLowerCase();
        const names = Object.keys(request!.headers);
        expect(names.filter((each) => !OWN_HEADERS.has(each) && each !== lowered)).toEqual([]);
        // A header sent by the caller shows up once, with its value (HTTP trims outer spaces and tabs).
        if (!OWN_HEADERS.has(lowered)) {
          expect(
            request!.rawHeaders.filter(
              (_, index) => index % 2 === 0 && request!.rawHeaders[index]!.toLowerCase() === lowered,
            ),
          ).toHaveLength(1);
          expect(request!.headers[lowered]).toBe(value.replace(/^[\t ]+|[\t ]+$/g, ''));
        }
        expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the idempotencyKey option', () => {
  it('is refused, or sent verbatim as the one Idempotency-Key, adding no other header', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(headerText(40), fc.string({ unit: 'grapheme-ascii', minLength: 250, maxLength: 260 })),
        async (key) => {
          received.length = 0;
          const outcome = await outcomeOf(
            client.transfers.create(
              { destination_account_id: 'acc_partner', amount: 1, currency: 'idr' },
              { idempotencyKey: key },
            ),
          );
          if (outcome instanceof RequestValidationError) {
            expect(Object.keys(outcome.fields)).toEqual(['idempotencyKey']);
            expect(received).toHaveLength(0);
            return;
          }
          expect(received).toHaveLength(1);
          expect(key).toMatch(/^[\x21-\x7e]{1,255}$/);
          expect(received[0]!.headers['idempotency-key']).toBe(key);
          expect(Object.keys(received[0]!.headers).filter((each) => !OWN_HEADERS.has(each))).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('ids in the path', () => {
  it('stay one segment under the collection, with no query or fragment, decoding back to the id', async () => {
    await fc.assert(
      fc.asyncProperty(hostileId, async (id) => {
        received.length = 0;
        const outcome = await outcomeOf(client.charges.retrieve(id));
        if (id === '.' || id === '..') {
          expect(outcome).toBeInstanceOf(RequestValidationError);
          expect(received).toHaveLength(0);
          return;
        }
        expect(outcome).toBeInstanceOf(NotFoundError);
        expect(received).toHaveLength(1);
        const { url, headers } = received[0]!;
        const match = /^\/v1\/payments\/charges\/([^/?#]+)$/.exec(url);
        expect(match, url).not.toBeNull();
        expect(decodeURIComponent(match![1]!)).toBe(id);
        expect(Object.keys(headers).filter((each) => !OWN_HEADERS.has(each))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a base URL with a path keeps every id under it', async () => {
    const { port } = server.address() as AddressInfo;
    const prefixed = new Client({
      apiKey: KEY,
      baseURL: `http://127.0.0.1:${port}/api/v9/`,
      maxRetries: 0,
      logLevel: 'off',
    });
    await fc.assert(
      fc.asyncProperty(
        hostileId.filter((id) => id !== '.' && id !== '..'),
        async (id) => {
          received.length = 0;
          await outcomeOf(prefixed.charges.retrieve(id));
          expect(received).toHaveLength(1);
          expect(received[0]!.url).toMatch(/^\/api\/v9\/v1\/payments\/charges\/[^/?#]+$/);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('headers that HTTP itself reserves', () => {
  // fetch refuses to send these; lunas should say so before sending, not report a connection
  // failure (and retry it) for what is a mistake in the call.
  it.each(['connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect', 'Transfer-Encoding'])(
    '%s is refused with RequestValidationError',
    async (name) => {
      received.length = 0;
      const outcome = await outcomeOf(client.charges.retrieve('ch_1', { headers: { [name]: 'chunked' } }));
      expect(outcome).not.toBeInstanceOf(APIConnectionError);
      expect(outcome).toBeInstanceOf(RequestValidationError);
      expect(received).toHaveLength(0);
    },
  );
});
