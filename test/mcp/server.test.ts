/**
 * createMcpServer end to end, in process: the official MCP client calls the
 * tools, the tools call a real sandbox over HTTP. Each safety rule is held on
 * both protocol eras where it involves the person (test/mcp/helpers.ts);
 * test/mcp/stdio.test.ts holds the same session through the `lunas-mcp`
 * command over stdio.
 */
import * as z from 'zod/mini';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createMcpServer } from 'lunas-sdk/mcp';
import type { Sandbox } from 'lunas-sdk/testing';
import { chargeCreateParams } from '../../src/resources/charges.js';
import { transferCreateParams } from '../../src/resources/transfers.js';
import { agent, confirms, content, sandbox, toolError, type Era, type Person } from './helpers.js';

const TRANSFER = { destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' };
const posts = (service: Sandbox, path: string) =>
  service.requests.filter((request) => request.method === 'POST' && request.path === path);

describe('createMcpServer against a sandbox', () => {
  it('lists every tool, and serves an agent session: a QRIS charge created, paid and read back as success', async () => {
    const service = await sandbox();
    const { client, call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'charges_create',
      'charges_retrieve',
      'charges_list',
      'transfers_create',
      'transfers_list',
      'payouts_list',
      'payment_methods_list',
      'sandbox_charges_pay',
      'sandbox_charges_fail',
      'sandbox_charges_expire',
      'sandbox_clock_advance',
      'sandbox_accounts_list',
    ]);
    expect(tools.find((tool) => tool.name === 'charges_list')?.annotations).toEqual({ readOnlyHint: true });

    const created = content(await call('charges_create', { payment_method: 'qris', amount: 25_000 }));
    expect(created).toMatchObject({ payment_method: 'qris', status: 'pending', amount: '25000.00' });
    expect(created.qr_code_url).toEqual(expect.any(String));
    expect(created.payment_url).toEqual(expect.any(String));
    const paid = content(await call('sandbox_charges_pay', { id: created.id }));
    expect(paid).toMatchObject({ id: created.id, status: 'success' });
    const read = content(await call('charges_retrieve', { id: created.id }));
    expect(read).toMatchObject({ id: created.id, status: 'success', amount: '25000.00' });
    expect(read.paid_at).toEqual(expect.any(String));
    expect(service.charges().map((charge) => [charge.id, charge.status])).toEqual([[created.id, 'success']]);
  });

  it('fails, expires and times out charges through the sandbox tools', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    const create = async () => content(await call('charges_create', { payment_method: 'qris', amount: 10_000 })).id;
    const [failed, expired, late] = [await create(), await create(), await create()];
    expect(content(await call('sandbox_charges_fail', { id: failed })).status).toBe('failed');
    expect(content(await call('sandbox_charges_expire', { id: expired })).status).toBe('failed');
    const advanced = content(await call('sandbox_clock_advance', { ms: 24 * 60 * 60 * 1000 }));
    expect(
      (advanced.events as { type: string; data: { id: string } }[]).map((event) => [event.type, event.data.id]),
    ).toEqual([['payment_charge.failed', late]]);
    expect(content(await call('charges_retrieve', { id: late })).status).toBe('failed');
  });

  it('answers a list as one page with what the next page needs', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    for (const amount of [1000, 2000, 3000]) await call('charges_create', { payment_method: 'qris', amount });
    const first = content(await call('charges_list', { pagesize: 2 }));
    expect(first).toMatchObject({ page: 1, page_size: 2, total_items: 3, has_more: true });
    expect((first.data as { amount: string }[]).map((charge) => charge.amount)).toEqual(['3000.00', '2000.00']);
    const second = content(await call('charges_list', { page: 2, pagesize: 2 }));
    expect(second).toMatchObject({ page: 2, has_more: false });
    expect(content(await call('payment_methods_list')).data).toEqual(expect.any(Array));
    expect(content(await call('payouts_list')).page).toBe(1);
    expect(content(await call('transfers_list')).total_items).toBe(0);
  });

  it("advertises the SDK's own request schemas: their fields and idempotency_key, their required ones, nothing else", async () => {
    const service = await sandbox();
    const { client } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema;
    for (const [name, schema] of [
      ['charges_create', chargeCreateParams],
      ['transfers_create', transferCreateParams],
    ] as const) {
      const listed = schemaOf(name) as unknown as {
        properties: Record<string, unknown>;
        required: string[];
        additionalProperties: unknown;
      };
      expect(Object.keys(listed.properties), name).toEqual([...Object.keys(schema.def.shape), 'idempotency_key']);
      expect(listed.additionalProperties, name).toBe(false);
      // What the SDK accepts, as zod writes it for the input side.
      const written = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
      expect(listed.required, name).toEqual(written.required);
    }
    const charge = schemaOf('charges_create') as { properties: Record<string, Record<string, unknown>> };
    expect(charge.properties.amount).toEqual({ type: ['number', 'string'] });
    expect(charge.properties.payment_method).toEqual({ type: 'string', enum: ['qris', 'virtual_account'] });
    // A Date, which JSON cannot carry, is left out beside the string that stands for it.
    expect(charge.properties.expires_at).toEqual({ type: 'string' });
    expect(charge.properties.idempotency_key).toEqual({
      type: 'string',
      description: expect.stringContaining('the same key and arguments never move money twice'),
    });
  });

  it("answers a refused request with the SDK's own error: its message and field map, and nothing is sent", async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    const error = toolError(await call('charges_create', { payment_method: 'qris', amount: '10.000', amout: 1 }));
    expect(error.name).toBe('RequestValidationError');
    expect(error.fields).toEqual({
      amount: [expect.stringContaining("Amount must have at most two digits after the '.'")],
      amout: ['Unknown field: did you mean "amount"?'],
    });
    expect(error.message).toContain('Unknown field: did you mean "amount"?');
    expect(toolError(await call('charges_list', { page_size: 5 })).fields).toEqual({
      page_size: ['Unknown field: did you mean "pagesize"?'],
    });
    expect(toolError(await call('charges_retrieve', { id: '..' })).fields).toEqual({ id: ['ID must not be ".."'] });
    expect(toolError(await call('sandbox_clock_advance', { ms: 0 })).fields).toEqual({
      ms: ['ms must be a whole number of milliseconds of at least 1 (got 0)'],
    });
    expect(service.requests).toEqual([]);
  });

  it("answers the service's errors as tool errors with their status", async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    const missing = toolError(await call('charges_retrieve', { id: 'ch_missing' }));
    expect(missing).toMatchObject({ name: 'NotFoundError', status: 404 });
    expect(toolError(await call('sandbox_charges_pay', { id: 'ch_missing' }))).toMatchObject({
      name: 'NotFoundError',
      message: expect.stringContaining('No charge with id "ch_missing"'),
    });
    const broke = toolError(await call('transfers_create', { ...TRANSFER, amount: '99999999.00' }));
    expect(broke).toMatchObject({ name: 'PermissionDeniedError', status: 403 });
  });

  it('gives each tool call one Idempotency-Key, the same on its retries, and another call another', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    // The first transfer is made, then its answer lost: the SDK's retry carries the same key, so it is made once.
    service.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
    content(await call('transfers_create', TRANSFER));
    content(await call('transfers_create', TRANSFER));
    const keys = posts(service, '/v1/transfers').map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(service.balance('acc_partner')).toBe('300000.00');
  });
});

describe('maxAmount', () => {
  it('refuses any amount above it, compared exactly, and sends nothing', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey, maxAmount: '150000' });
    const above = toolError(await call('transfers_create', { ...TRANSFER, amount: '150000.01' }));
    expect(above).toMatchObject({ name: 'LunasError', reason: 'above_max_amount' });
    expect(above.message).toBe("The amount 150000.01 is above this server's maximum of 150000.00. Nothing was sent.");
    expect(toolError(await call('charges_create', { payment_method: 'qris', amount: 150_000.01 })).reason).toBe(
      'above_max_amount',
    );
    expect(service.requests).toEqual([]);
    content(await call('transfers_create', { ...TRANSFER, amount: 150_000 }));
    content(await call('charges_create', { payment_method: 'virtual_account', amount: '150000.00' }));
    expect(service.requests.map((request) => request.path)).toEqual(['/v1/transfers', '/v1/payments/charges']);
  });

  it('holds in live mode before the person is asked', async () => {
    const service = await sandbox();
    const { call, asked } = await agent(
      { live: true, baseURL: service.url, apiKey: service.apiKey, maxAmount: 1000 },
      { person: confirms },
    );
    expect(toolError(await call('transfers_create', TRANSFER)).reason).toBe('above_max_amount');
    expect(asked).toEqual([]);
    expect(service.requests).toEqual([]);
  });
});

describe('tools', () => {
  it('narrows what is listed and what can be called', async () => {
    const service = await sandbox();
    const { client, call } = await agent({
      baseURL: service.url,
      apiKey: service.apiKey,
      tools: ['charges_retrieve', 'charges_create'],
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['charges_create', 'charges_retrieve']);
    await expect(call('transfers_create', TRANSFER)).rejects.toThrow(ProtocolError);
    expect(service.requests).toEqual([]);
  });
});

describe.each<Era>(['legacy', 'modern'])('live mode, on a %s connection', (era) => {
  const live = (service: Sandbox) => ({ live: true, baseURL: service.url, apiKey: service.apiKey });

  it('serves no sandbox tool, and refuses to move money when the client cannot ask the person', async () => {
    const service = await sandbox();
    const { client, call } = await agent(live(service), { era });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual([
      'charges_create',
      'charges_retrieve',
      'charges_list',
      'transfers_create',
      'transfers_list',
      'payouts_list',
      'payment_methods_list',
    ]);
    for (const [name, args] of [
      ['transfers_create', TRANSFER],
      ['charges_create', { payment_method: 'qris', amount: 25_000 }],
    ] as const) {
      const refused = toolError(await call(name, args));
      expect(refused.reason, name).toBe('confirmation_unavailable');
      expect(refused.message, name).toContain('cannot ask for it');
    }
    expect(service.requests).toEqual([]);
    expect(service.balance('acc_partner')).toBe('0.00');
    // Reading needs no confirmation.
    expect(content(await call('transfers_list')).total_items).toBe(0);
  });

  it('moves money once the person confirms what moves, where', async () => {
    const service = await sandbox();
    const { call, asked } = await agent(live(service), { era, person: confirms });
    const transfer = content(await call('transfers_create', { ...TRANSFER, client_reference_id: 'inv-7' }));
    expect(transfer).toMatchObject({ status: 'succeeded', amount: '150000.00', destination_account_id: 'acc_partner' });
    expect(asked.map((question) => question.message)).toEqual([
      `Transfer Rp 150.000 to account "acc_partner" (reference "inv-7") on ${service.url}? ` +
        'This moves real money, at once and for good.',
    ]);
    expect(posts(service, '/v1/transfers')).toHaveLength(1);
    expect(service.balance('acc_partner')).toBe('150000.00');
    const charge = content(await call('charges_create', { payment_method: 'qris', amount: '25000.5' }));
    expect(charge.amount).toBe('25000.50');
    expect(asked[1]?.message).toMatch(/^Create a QRIS charge asking a customer to pay Rp 25\.000,50 on /);
  });

  it.each<[string, Person]>([
    ['declines', () => ({ action: 'decline' })],
    ['cancels', () => ({ action: 'cancel' })],
    ['accepts with the box unticked', () => ({ action: 'accept', content: { confirm: false } })],
  ])('sends nothing when the person %s', async (_what, person) => {
    const service = await sandbox();
    const { call, asked } = await agent(live(service), { era, person });
    const refused = toolError(await call('transfers_create', TRANSFER));
    expect(refused.reason).toBe('not_confirmed');
    expect(refused.message).toMatch(/^transfers_create was not confirmed: the person /);
    expect(asked).toHaveLength(1);
    expect(service.requests).toEqual([]);
    expect(service.balance('acc_partner')).toBe('0.00');
  });

  it('checks the arguments before asking: the person never confirms a request the SDK refuses', async () => {
    const service = await sandbox();
    const { call, asked } = await agent(live(service), { era, person: confirms });
    expect(toolError(await call('transfers_create', { ...TRANSFER, currency: 'usd' })).name).toBe(
      'RequestValidationError',
    );
    expect(asked).toEqual([]);
  });
});

describe('a confirmation', () => {
  it('holds for the arguments it was given for: a retry with other arguments is asked again, and sends nothing', async () => {
    const service = await sandbox();
    // The 2026-07-28 rounds driven by hand, as a client that changed the arguments between them could.
    const handler = createMcpHandler(() =>
      createMcpServer({ live: true, baseURL: service.url, apiKey: service.apiKey }),
    );
    const client = new Client(
      { name: 'lunas-test-agent', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false },
      },
    );
    const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), { fetch }));
    onTestFinished(async () => {
      await client.close();
      await handler.close();
    });
    const round = (args: Record<string, unknown>, inputResponses?: Record<string, unknown>) =>
      client.request(
        {
          method: 'tools/call',
          params: { name: 'transfers_create', arguments: args, ...(inputResponses && { inputResponses }) },
        },
        { allowInputRequired: true },
      ) as Promise<Record<string, unknown>>;

    const asked = await round(TRANSFER);
    expect(asked.resultType).toBe('input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    const yes = { [key!]: { action: 'accept', content: { confirm: true } } };
    const larger = await round({ ...TRANSFER, amount: '900000.00' }, yes);
    expect(larger.resultType).toBe('input_required');
    expect(JSON.stringify(larger.inputRequests)).toContain('Transfer Rp 900.000 to account \\"acc_partner\\" on');
    expect(Object.keys(larger.inputRequests as object)).not.toEqual([key]);
    expect(service.requests).toEqual([]);
    const same = await round(TRANSFER, yes);
    expect(same.structuredContent).toMatchObject({ status: 'succeeded', amount: '150000.00' });
    expect(posts(service, '/v1/transfers')).toHaveLength(1);
  });
});
