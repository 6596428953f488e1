/**
 * The API key leaves only as `Authorization: Bearer`, to the base URL: a
 * request's parameter holding it in any form (a body at any depth, a query, an
 * id, a raw path) is refused before sending, naming the field and never the
 * key; no other header carries it; a redirect takes it nowhere.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { APIError, Client, RequestValidationError } from '../../../src/index.js';
import { B64_KEY, keyForms, keyLeaks, renderings as everyRendering } from '../../helpers/key-forms.js';
import { makeClient } from '../../helpers/msw.js';
import { recordEvents, recordingLogger } from '../../helpers/recorders.js';
import {
  CHARGES_PATH,
  countRequests,
  jsonReply,
  route,
  TRANSFER_PARAMS,
  TRANSFERS_PATH,
} from '../../helpers/requests.js';
import { API_KEY, CHARGE_ID, chargeJson, createdChargeJson, success, transferJson } from '../../helpers/fixtures.js';
import { rejection } from '../../helpers/rejection.js';

const PAYOUTS = '/v1/payouts';

/** The real fetch: msw patches the global one only when its server starts listening, in beforeAll. */
const unmockedFetch = globalThis.fetch;

describe('the API key is never sent in a request’s parameters', () => {
  /** A client with the base64-style key on msw, every request it sends counted, its events and debug lines recorded. */
  function guarded() {
    const { lines, logger } = recordingLogger();
    const client = makeClient({ apiKey: B64_KEY, logger, logLevel: 'debug' });
    return { client, lines, events: recordEvents(client), sent: countRequests() };
  }

  /**
   * `error` refuses exactly `fields` for holding the key, each message naming
   * its field; nothing was sent, and no rendering of the error (message,
   * stack, `fields`, JSON, `util.inspect`), event or line holds any form of
   * the key or its first or last 12 characters.
   */
  function expectKeyRefused(error: unknown, fields: string[], seen: ReturnType<typeof guarded>): void {
    expect(error).toBeInstanceOf(RequestValidationError);
    const refused = (error as RequestValidationError).fields;
    expect(Object.keys(refused)).toEqual(fields);
    for (const field of fields)
      expect(refused[field]).toEqual([expect.stringContaining(`The client's API key is in ${field}: `)]);
    expect(seen.sent.count()).toBe(0);
    expect(seen.events).toEqual([]);
    expect(seen.lines).toEqual([]);
    const texts = [...everyRendering(error), ...everyRendering(refused)];
    expect(keyLeaks(texts, B64_KEY)).toEqual([]);
    for (const text of texts) {
      expect(text).not.toContain(B64_KEY.slice(0, 12));
      expect(text).not.toContain(B64_KEY.slice(-12));
    }
  }

  const charge = { payment_method: 'qris', amount: 10_000 } as const;
  const tea = { name: 'Tea', price: 5_000, quantity: 1 };

  it.each<[string, (client: Client) => Promise<unknown>, string[]]>([
    [
      'charges.create, the key as the description',
      (c) => c.charges.create({ ...charge, description: B64_KEY }),
      ['description'],
    ],
    [
      'charges.create, the key inside a longer description',
      (c) => c.charges.create({ ...charge, description: `Support: use key ${B64_KEY} for refunds` }),
      ['description'],
    ],
    [
      'charges.create, a customer’s name',
      (c) => c.charges.create({ ...charge, customer_details: { name: `Siti ${B64_KEY}` } }),
      ['customer_details.name'],
    ],
    [
      'charges.create, an item’s name',
      (c) => c.charges.create({ ...charge, items: [tea, { ...tea, name: B64_KEY }] }),
      ['items.1.name'],
    ],
    [
      'charges.create, a reference and a channel',
      (c) => c.charges.create({ ...charge, channel: B64_KEY, client_reference_id: `ref-${B64_KEY}` }),
      ['channel', 'client_reference_id'],
    ],
    [
      'charges.create, a virtual account’s name',
      (c) =>
        c.charges.create({
          payment_method: 'virtual_account',
          amount: 10_000,
          payment_method_options: { virtual_account: { account_name: B64_KEY } },
        }),
      ['payment_method_options.virtual_account.account_name'],
    ],
    [
      'charges.create, a name in payment_method_options (masked in the field)',
      (c) => c.charges.create({ ...charge, payment_method_options: { qris: { [B64_KEY]: true } } }),
      ['payment_method_options.qris.[REDACTED]'],
    ],
    ['charges.retrieve, the id', (c) => c.charges.retrieve(B64_KEY), ['id']],
    [
      'transfers.create, the description and the reference',
      (c) => c.transfers.create({ ...TRANSFER_PARAMS, description: `for ${B64_KEY}`, client_reference_id: B64_KEY }),
      ['client_reference_id', 'description'],
    ],
    [
      'transfers.create, the destination',
      (c) => c.transfers.create({ ...TRANSFER_PARAMS, destination_account_id: B64_KEY }),
      ['destination_account_id'],
    ],
    [
      'raw post, a nested field',
      (c) => c.post('/v1/things', { body: { metadata: { note: `key=${B64_KEY}` } } }),
      ['body.metadata.note'],
    ],
    [
      'raw post, an array’s item',
      (c) => c.post('/v1/things', { body: { items: [{ name: 'Tea' }, { name: B64_KEY }], tags: ['a', B64_KEY] } }),
      ['body.items.1.name', 'body.tags.1'],
    ],
    [
      'raw post, a name (masked in the field)',
      (c) => c.post('/v1/things', { body: { metadata: { [B64_KEY]: 'x' } } }),
      ['body.metadata.[REDACTED]'],
    ],
    ['raw post, the whole body', (c) => c.post('/v1/things', { body: B64_KEY }), ['body']],
    [
      'raw post, what a toJSON returns',
      (c) => c.post('/v1/things', { body: { when: { toJSON: () => `at ${B64_KEY}` } } }),
      ['body.when'],
    ],
    ['raw get, a query value', (c) => c.get('/v1/things', { query: { q: B64_KEY, page: 1 } }), ['query.q']],
    ['raw get, the path', (c) => c.get(`/v1/things/${B64_KEY}/items`), ['path']],
  ])('%s: refused before sending, naming the field, never the key', async (_where, call, fields) => {
    const seen = guarded();
    expectKeyRefused(await rejection(call(seen.client)), fields, seen);
  });

  it('refuses each form the key is masked in (encoded, escaped); sends a case variant or a part of it', async () => {
    const seen = guarded();
    const refused = [
      encodeURIComponent(B64_KEY),
      encodeURIComponent(B64_KEY).replace(/%../g, (escape) => escape.toLowerCase()),
      encodeURIComponent(encodeURIComponent(B64_KEY)),
      JSON.stringify(B64_KEY).slice(1, -1).replaceAll('/', '\\/'),
      keyForms(B64_KEY).at(-1)!,
    ];
    for (const form of refused) {
      expect(form).not.toContain(B64_KEY);
      const error = await rejection(seen.client.charges.create({ ...charge, description: `key: ${form}` }));
      expectKeyRefused(error, ['description'], seen);
    }
    // Not the key: what the service would refuse as a credential, and what every key shares.
    const created = route('POST', CHARGES_PATH, () => jsonReply(200, success(createdChargeJson())));
    for (const other of [B64_KEY.toUpperCase(), B64_KEY.slice(0, -1), B64_KEY.slice(1), 'sk_live_']) {
      await seen.client.charges.create({ ...charge, description: other });
    }
    expect(created.map((request) => (JSON.parse(request.body) as { description: string }).description)).toEqual([
      B64_KEY.toUpperCase(),
      B64_KEY.slice(0, -1),
      B64_KEY.slice(1),
      'sk_live_',
    ]);
  });

  it('the client’s own key only: another key in a parameter is sent as it is', async () => {
    const seen = guarded();
    const created = route('POST', CHARGES_PATH, () => jsonReply(200, success(createdChargeJson())));
    await seen.client.charges.create({ ...charge, description: API_KEY });
    expect(created).toHaveLength(1);
    const error = await rejection(makeClient().charges.create({ ...charge, description: API_KEY }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(created).toHaveLength(1);
  });
});

describe('Authorization', () => {
  it('the key travels only in the Authorization header', async () => {
    const seen = route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    await makeClient().transfers.create(TRANSFER_PARAMS);
    const [request] = seen;
    expect(request!.url.href).not.toContain(API_KEY);
    expect(request!.body).not.toContain(API_KEY);
    const carrying = [...request!.headers].filter(([, value]) => value.includes(API_KEY)).map(([name]) => name);
    expect(carrying).toEqual(['authorization']);
  });

  it('never reaches another origin a redirect points to (real sockets, no msw)', async () => {
    const received: IncomingHttpHeaders[] = [];
    const other = createServer((request, response) => {
      received.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(success(chargeJson())));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: `http://localhost:${(other.address() as AddressInfo).port}/collect` });
      response.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = redirecting.address() as AddressInfo;
      const client = makeClient({ baseURL: `http://127.0.0.1:${port}`, fetch: unmockedFetch, maxRetries: 0 });
      // The redirect is not followed: nothing at all, the key least of all, is sent there.
      const error = await rejection(client.charges.retrieve(CHARGE_ID), APIError);
      expect(error.status).toBe(307);
      expect(received).toEqual([]);
    } finally {
      redirecting.close();
      other.close();
    }
  });
});

describe('the key in a raw call', () => {
  it('put in a query, a path or a body by mistake, it is refused before sending and reaches no message, line or event', async () => {
    const sent = countRequests();
    const lines: string[] = [];
    const record = (line: string) => void lines.push(line);
    const client = makeClient({
      maxRetries: 1,
      logLevel: 'debug',
      logger: { debug: record, info: record, warn: record, error: record },
    });
    const urls: string[] = [];
    client.on('response', (event) => void urls.push(event.url));
    const refusals = [
      await rejection(client.get(PAYOUTS, { query: { key: API_KEY } }), RequestValidationError),
      await rejection(client.get(`${PAYOUTS}/${API_KEY}`), RequestValidationError),
      await rejection(client.post(PAYOUTS, { body: { note: `key ${API_KEY}` } }), RequestValidationError),
    ];
    expect(refusals.map((error) => error.fields)).toEqual([
      { 'query.key': [expect.stringContaining("The client's API key is in query.key")] },
      { path: [expect.stringContaining("The client's API key is in path")] },
      { 'body.note': [expect.stringContaining("The client's API key is in body.note")] },
    ]);
    expect(sent.count()).toBe(0);
    expect(lines).toEqual([]);
    expect(urls).toEqual([]);
    for (const text of refusals.flatMap((error) => [error.message, JSON.stringify(error), error.stack ?? '']))
      expect(text).not.toContain(API_KEY);
  });
});
