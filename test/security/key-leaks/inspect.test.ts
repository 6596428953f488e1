/**
 * The API key in no rendering (`util.inspect`, `JSON.stringify`, `String`) of
 * what lunas hands back: a client (its key given or from the environment), a
 * returned resource, a page, a list promise before and after it loads or
 * fails.
 */
import { describe, expect, it, vi } from 'vitest';
import { Client, APIError, Page, PagePromise } from '../../../src/index.js';
import { expectNoKey, leaksOf } from '../../helpers/key-forms.js';
import { makeClient } from '../../helpers/msw.js';
import { CHARGES_PATH, jsonReply, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../../helpers/requests.js';
import { API_KEY, BASE_URL, chargeJson, success, transferJson } from '../../helpers/fixtures.js';
import { listResponse, wireClient } from '../../helpers/wire.js';

describe('the API key never appears in the client or in results', () => {
  it('util.inspect and JSON.stringify of a client', () => {
    const client = makeClient({ defaultHeaders: { 'x-tenant': 'acme' } });
    expectNoKey(client, API_KEY);
    expectNoKey(client.withOptions({ timeout: 1000 }), API_KEY);
    expectNoKey(client.charges, API_KEY);
    expectNoKey(client.transfers, API_KEY);
  });

  it('of a client whose key came from the environment', () => {
    vi.stubEnv('LUNAS_API_KEY', 'sk_env_secret_91');
    try {
      expectNoKey(new Client({ baseURL: BASE_URL, logLevel: 'off' }), 'sk_env_secret_91');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('util.inspect and JSON.stringify of a returned resource and of a page', async () => {
    route('POST', TRANSFERS_PATH, () => jsonReply(200, success(transferJson())));
    route('GET', CHARGES_PATH, () =>
      jsonReply(200, { status: 'success', data: [chargeJson()], page: 1, page_size: 1, total_items: 2 }),
    );
    const client = makeClient();
    const transfer = await client.transfers.create(TRANSFER_PARAMS);
    const page = await client.charges.list({ pagesize: 1 });
    expect(transfer.id).toBe('tr_123');
    expect(page.data).toHaveLength(1);
    expectNoKey(transfer, API_KEY);
    expectNoKey(page, API_KEY);
    expectNoKey(page.data[0], API_KEY);
  });

  it('of a list promise before it is awaited', () => {
    const pending = makeClient().charges.list();
    expectNoKey(pending, API_KEY);
  });
});

describe('a list promise', () => {
  it('renders no key before it loads, after it loads, and after it failed to load', async () => {
    const { client } = wireClient((request, attempt) =>
      attempt === 1
        ? listResponse([transferJson()], 1, 1, 1)
        : Response.json({ status: 'error', message: `no ${API_KEY}` }, { status: 401 }),
    );
    const loaded = client.transfers.list({ pagesize: 1 });
    const before = leaksOf([loaded], API_KEY);
    await loaded;
    const failing = client.transfers.list({ pagesize: 1 });
    const error = await failing.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(APIError);
    expect(loaded).toBeInstanceOf(PagePromise);
    expect(await loaded).toBeInstanceOf(Page);
    expect([...before, ...leaksOf([loaded, await loaded, failing, error], API_KEY)]).toEqual([]);
  });
});
