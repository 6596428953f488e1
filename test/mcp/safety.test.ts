/**
 * The rules that keep an agent from moving money it should not, in process
 * (the official MCP client, a real sandbox over HTTP), on both protocol eras
 * where the person is involved: a retry with `idempotency_key` moves money
 * once; `maxTotal`, `readOnly` and `allowDestinations` refuse before the
 * person is asked and before anything is sent; the person's question is
 * lunas's own, on one line, whatever the agent wrote; a loopback URL that
 * is not a sandbox gets no POST without the person's yes; every money tool
 * call leaves an audit entry. test/mcp/stdio.test.ts holds the same through
 * the `lunas-mcp` command.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { McpAuditEntry } from 'lunas-sdk/mcp';
import type { Sandbox } from 'lunas-sdk/testing';
import {
  agent,
  confirms,
  content,
  LINE_BREAKERS,
  notASandbox,
  READ_ONLY_TOOLS,
  sandbox,
  toolError,
  type Era,
  type Person,
} from './helpers.js';

const TRANSFER = { destination_account_id: 'acc_partner', amount: 10_000, currency: 'idr' };
const transfersSent = (service: Sandbox) =>
  service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/transfers');
const declines: Person = () => ({ action: 'decline' });

describe('idempotency_key', () => {
  it('makes a transfer behind three lost answers once: the error names idempotency_key, and the retry with it replays', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    service.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: 3 });
    const lost = toolError(await call('transfers_create', TRANSFER));
    expect(lost.name).toBe('APIConnectionError');
    const key = lost.idempotency_key!;
    expect(key).toEqual(expect.any(String));
    expect(lost.message).toContain(
      `(after 3 attempts); call transfers_create again with the same arguments and idempotency_key "${key}" to avoid a duplicate`,
    );
    expect(lost.message).not.toContain('idempotencyKey');
    expect(service.balance('acc_partner')).toBe('10000.00');

    const retried = content(await call('transfers_create', { ...TRANSFER, idempotency_key: key }));
    expect(retried).toMatchObject({ status: 'succeeded', amount: '10000.00' });
    expect(service.transfers().map((transfer) => transfer.id)).toEqual([retried.id]);
    expect(service.balance('acc_partner')).toBe('10000.00');
    expect(transfersSent(service).map((request) => request.idempotencyKey)).toEqual([key, key, key, key]);
  });

  it("sends the agent's key as the Idempotency-Key of either money tool, and refuses a key the SDK would", async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    content(await call('charges_create', { payment_method: 'qris', amount: 25_000, idempotency_key: 'order-42' }));
    content(await call('transfers_create', { ...TRANSFER, idempotency_key: 'payout-42' }));
    expect(service.requests.map((request) => request.idempotencyKey)).toEqual(['order-42', 'payout-42']);

    const bad = toolError(await call('transfers_create', { ...TRANSFER, amount: 0, idempotency_key: 'has space' }));
    expect(bad.name).toBe('RequestValidationError');
    expect(bad.fields).toEqual({
      amount: ['Amount must be greater than 0'],
      idempotency_key: ['Idempotency key must be 1 to 255 visible ASCII characters'],
    });
    expect(
      toolError(await call('charges_create', { payment_method: 'qris', amount: 1, idempotency_key: 7 })).fields,
    ).toEqual({ idempotency_key: ['Idempotency key must be 1 to 255 visible ASCII characters'] });
    expect(toolError(await call('transfers_create', { ...TRANSFER, idempotencyKey: 'k' })).fields).toEqual({
      idempotencyKey: ['Unknown field: did you mean "idempotency_key"?'],
    });
    expect(service.requests).toHaveLength(2);
  });
});

describe('maxTotal', () => {
  it.each<Era>(['legacy', 'modern'])(
    "holds across a session's calls on a %s connection: refused before the person is asked, saying what is left",
    async (era) => {
      const service = await sandbox();
      const { call, asked } = await agent(
        { live: true, baseURL: service.url, apiKey: service.apiKey, maxTotal: '200000' },
        { era, person: confirms },
      );
      content(await call('transfers_create', { ...TRANSFER, amount: 150_000 }));
      const refused = toolError(await call('transfers_create', { ...TRANSFER, amount: 60_000 }));
      expect(refused).toMatchObject({ name: 'LunasError', reason: 'above_max_total' });
      expect(refused.message).toBe(
        'The amount 60000.00 would take this session past its total of 200000.00: 50000.00 is left. Nothing was sent.',
      );
      // A charge counts too: it asks a customer for that money.
      expect(toolError(await call('charges_create', { payment_method: 'qris', amount: 50_001 })).reason).toBe(
        'above_max_total',
      );
      expect(asked).toHaveLength(1);
      expect(transfersSent(service)).toHaveLength(1);
      content(await call('transfers_create', { ...TRANSFER, amount: 50_000 }));
      expect(service.balance('acc_partner')).toBe('200000.00');
      expect(toolError(await call('transfers_create', { ...TRANSFER, amount: 1 })).message).toContain(
        ': 0.00 is left.',
      );
      expect(service.requests).toHaveLength(2);
    },
  );

  it('counts a transfer whose answer was lost once: its retry with the same idempotency_key is not refused', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey, maxTotal: 10_000 });
    service.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers', times: 3 });
    const key = toolError(await call('transfers_create', TRANSFER)).idempotency_key;
    // The outcome was unknown, so it counts: another transfer would go past the total.
    expect(toolError(await call('transfers_create', { ...TRANSFER, amount: 1 })).reason).toBe('above_max_total');
    content(await call('transfers_create', { ...TRANSFER, idempotency_key: key }));
    expect(service.balance('acc_partner')).toBe('10000.00');
  });

  it('stops counting a transfer the service refused: nothing moved', async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey, maxTotal: 10_000 });
    expect(
      toolError(await call('transfers_create', { ...TRANSFER, destination_account_id: 'acc_nobody' })).name,
    ).not.toBe('LunasError');
    content(await call('transfers_create', TRANSFER));
  });
});

describe('readOnly', () => {
  it('serves only the tools that read; the others cannot be called, and nothing is sent', async () => {
    const service = await sandbox();
    const { client, call } = await agent({ baseURL: service.url, apiKey: service.apiKey, readOnly: true });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(READ_ONLY_TOOLS);
    for (const [name, args] of [
      ['transfers_create', TRANSFER],
      ['charges_create', { payment_method: 'qris', amount: 1000 }],
      ['sandbox_clock_advance', { ms: 1000 }],
    ] as const) {
      await expect(call(name, args), name).rejects.toThrow(ProtocolError);
    }
    expect(service.requests).toEqual([]);
    expect(service.balance('acc_partner')).toBe('0.00');
  });
});

describe('allowDestinations', () => {
  it.each<Era>(['legacy', 'modern'])(
    'refuses a transfer elsewhere before the person is asked, on a %s connection',
    async (era) => {
      const service = await sandbox();
      const { call, asked } = await agent(
        { live: true, baseURL: service.url, apiKey: service.apiKey, allowDestinations: ['acc_supplier'] },
        { era, person: confirms },
      );
      const refused = toolError(await call('transfers_create', TRANSFER));
      expect(refused).toMatchObject({ name: 'LunasError', reason: 'destination_not_allowed' });
      expect(refused.message).toBe(
        'Transfers may go only to "acc_supplier" on this server, not to "acc_partner". Nothing was sent.',
      );
      expect(asked).toEqual([]);
      expect(service.requests).toEqual([]);
    },
  );

  it('lets a transfer to an allowed account through', async () => {
    const service = await sandbox();
    const { call } = await agent({
      baseURL: service.url,
      apiKey: service.apiKey,
      allowDestinations: ['acc_supplier', 'acc_partner'],
    });
    content(await call('transfers_create', TRANSFER));
    expect(
      toolError(await call('transfers_create', { ...TRANSFER, destination_account_id: 'acc_partner ' })).reason,
    ).toBe('destination_not_allowed');
    expect(service.balance('acc_partner')).toBe('10000.00');
  });
});

describe("the person's question", () => {
  const KEY = 'sk_test_mcp_never_shown_0123';

  /** Every question asked for `args` (the person declines: nothing is sent), on a live server. */
  async function questions(era: Era, calls: [string, Record<string, unknown>][]) {
    const service = await sandbox({ apiKey: KEY });
    const { call, asked } = await agent({ live: true, baseURL: service.url, apiKey: KEY }, { era, person: declines });
    for (const [name, args] of calls) expect(toolError(await call(name, args)).reason).toBe('not_confirmed');
    expect(service.requests).toEqual([]);
    return { messages: asked.map((question) => question.message), url: service.url };
  }

  it.each<Era>(['legacy', 'modern'])(
    "is lunas's own text on one line, the agent's quoted and escaped, on a %s connection",
    async (era) => {
      const forged = 'x)?\nTransfer 1.00 IDR to acc_partner (ref y';
      const { messages, url } = await questions(era, [
        ['transfers_create', { ...TRANSFER, amount: 150_000, client_reference_id: forged }],
        ['transfers_create', { ...TRANSFER, amount: 150_000, client_reference_id: 'x)?\rTransfer Rp 1 (ref y' }],
        ['transfers_create', { ...TRANSFER, amount: 150_000, client_reference_id: 'x\u2028Transfer Rp 1\u2029' }],
        ['transfers_create', { ...TRANSFER, amount: 150_000, client_reference_id: 'x\u0085Transfer\u001b[2K' }],
        [
          'transfers_create',
          { ...TRANSFER, amount: 150_000, client_reference_id: 'inv-\u202e7-vni\u2066\u200f\u061c' },
        ],
        [
          'transfers_create',
          { ...TRANSFER, amount: 150_000, destination_account_id: 'acc_partner?\nTransfer Rp 1 to acc_x' },
        ],
        ['transfers_create', { ...TRANSFER, amount: 150_000, destination_account_id: 'acc_p\u0430rtner' }],
      ]);
      expect(messages).toHaveLength(7);
      for (const message of messages) {
        for (const breaker of LINE_BREAKERS) expect(message, JSON.stringify(message)).not.toContain(breaker);
        expect(message).toMatch(/^Transfer Rp 150\.000 to account "/);
        expect(message).toMatch(/This moves real money, at once and for good\.$/);
      }
      expect(messages[0]).toBe(
        'Transfer Rp 150.000 to account "acc_partner" (reference "x)?\\nTransfer 1.00 IDR to acc_partner (ref y") ' +
          `on ${url}? This moves real money, at once and for good.`,
      );
      expect(messages[1]).toContain('(reference "x)?\\rTransfer Rp 1 (ref y")');
      expect(messages[2]).toContain('(reference "x\\u2028Transfer Rp 1\\u2029")');
      expect(messages[3]).toContain('(reference "x\\u0085Transfer\\u001b[2K")');
      expect(messages[4]).toContain('(reference "inv-\\u202e7-vni\\u2066\\u200f\\u061c")');
      expect(messages[5]).toContain('to account "acc_partner?\\nTransfer Rp 1 to acc_x" on');
      expect(messages[6]).toContain('to account "acc_p\\u0430rtner" on');
    },
  );

  it('asks nothing about the key pasted as a reference, writes rupiah as merchants read it, and says a charge asks a customer to pay', async () => {
    const service = await sandbox({ apiKey: KEY });
    const pasting = await agent({ live: true, baseURL: service.url, apiKey: KEY }, { person: declines });
    const pasted = await pasting.call('transfers_create', { ...TRANSFER, client_reference_id: `inv ${KEY}` });
    expect(pasted.isError).toBe(true);
    expect(JSON.stringify(pasted)).toContain('RequestValidationError');
    expect(JSON.stringify(pasted)).not.toContain(KEY);
    expect(pasting.asked).toEqual([]);
    expect(service.requests).toEqual([]);

    const { messages, url } = await questions('legacy', [
      ['transfers_create', { ...TRANSFER, amount: '1234567.50', client_reference_id: 'inv-8' }],
      ['charges_create', { payment_method: 'qris', amount: 25_000, client_reference_id: 'inv-7' }],
      ['charges_create', { payment_method: 'virtual_account', amount: '1500000.05' }],
    ]);
    expect(messages[0]).toBe(
      `Transfer Rp 1.234.567,50 to account "acc_partner" (reference "inv-8") on ${url}? ` +
        'This moves real money, at once and for good.',
    );
    expect(messages[1]).toBe(
      `Create a QRIS charge asking a customer to pay Rp 25.000 (reference "inv-7") on ${url}? ` +
        'It moves no money by itself: a customer pays it.',
    );
    expect(messages[2]).toMatch(/^Create a virtual account charge asking a customer to pay Rp 1\.500\.000,05 on /);
    expect(messages.join('\n')).not.toContain(KEY);
    expect(messages.slice(1).join('\n')).not.toContain('real money');
  });
});

describe('a loopback URL that is not a sandbox', () => {
  it.each<Era>(['legacy', 'modern'])(
    "gets no POST without the person's yes, and no sandbox tool's, on a %s connection",
    async (era) => {
      const service = await sandbox();
      const tunnel = await notASandbox(service.url);
      const { call } = await agent({ baseURL: tunnel.url, apiKey: service.apiKey }, { era });
      const refused = toolError(await call('transfers_create', TRANSFER));
      expect(refused.reason).toBe('confirmation_unavailable');
      expect(refused.message).toContain('does not answer as a lunas sandbox');
      expect(toolError(await call('charges_create', { payment_method: 'qris', amount: 1000 })).reason).toBe(
        'confirmation_unavailable',
      );
      expect(toolError(await call('sandbox_charges_pay', { id: 'ch_1' })).reason).toBe('not_a_sandbox');
      expect(toolError(await call('sandbox_accounts_list')).reason).toBe('not_a_sandbox');
      expect(tunnel.posts()).toEqual([]);
      expect(service.requests).toEqual([]);
      // Reading needs no one's yes.
      expect(content(await call('transfers_list')).total_items).toBe(0);
    },
  );

  it('moves money once the person confirms, asked as on the live service', async () => {
    const service = await sandbox();
    const tunnel = await notASandbox(service.url);
    const { call, asked } = await agent({ baseURL: tunnel.url, apiKey: service.apiKey }, { person: confirms });
    content(await call('transfers_create', TRANSFER));
    expect(asked.map((question) => question.message)).toEqual([
      `Transfer Rp 10.000 to account "acc_partner" on ${tunnel.url} (not a lunas sandbox: it may be the live service)? ` +
        'This moves real money, at once and for good.',
    ]);
    expect(tunnel.posts()).toEqual([{ method: 'POST', path: '/v1/transfers' }]);
    expect(service.balance('acc_partner')).toBe('10000.00');
  });

  it('is told from a sandbox, which acts without asking', async () => {
    const service = await sandbox();
    const { call, asked } = await agent({ baseURL: service.url, apiKey: service.apiKey }, { person: confirms });
    content(await call('transfers_create', TRANSFER));
    expect(asked).toEqual([]);
  });
});

describe('sandbox_accounts_list', () => {
  it("lists the sandbox's accounts with their holders and balances", async () => {
    const service = await sandbox();
    const { call } = await agent({ baseURL: service.url, apiKey: service.apiKey });
    content(await call('transfers_create', TRANSFER));
    expect(content(await call('sandbox_accounts_list')).data).toEqual([
      { id: 'acc_merchant', name: 'Merchant', balance: '990000.00', active: true },
      { id: 'acc_partner', name: 'Partner', balance: '10000.00', active: true },
      { id: 'acc_closed', name: 'Closed', balance: '0.00', active: false },
    ]);
  });
});

describe('the audit', () => {
  it('records every money tool call: what, where, the answer and the outcome, the reference escaped, never the key', async () => {
    const KEY = 'sk_test_mcp_audit_never_0123';
    const service = await sandbox({ apiKey: KEY });
    const entries: McpAuditEntry[] = [];
    let answer: Person = confirms;
    const { call } = await agent(
      { live: true, baseURL: service.url, apiKey: KEY, maxAmount: 500_000, audit: (entry) => entries.push(entry) },
      { person: (request) => answer(request) },
    );
    const made = content(await call('transfers_create', { ...TRANSFER, client_reference_id: 'a\nb c' }));
    answer = declines;
    await call('charges_create', { payment_method: 'qris', amount: 25_000 });
    await call('transfers_create', { ...TRANSFER, amount: 600_000 });
    await call('transfers_create', { ...TRANSFER, amount: -1 });
    // The key pasted as the reference: refused before anyone is asked, as the SDK refuses it; the line masks it.
    await call('transfers_create', { ...TRANSFER, client_reference_id: `x ${KEY}` });
    await call('transfers_list');
    expect(entries).toHaveLength(5);
    expect(entries[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      tool: 'transfers_create',
      mode: 'live',
      amount: '10000.00',
      currency: 'idr',
      destination: 'acc_partner',
      reference: 'a\nb c',
      idempotency_key: transfersSent(service)[0]!.idempotencyKey,
      answer: 'confirmed',
      id: made.id,
      status: 'succeeded',
      error: null,
      reason: null,
    });
    expect(
      entries.slice(1).map(({ tool, answer, error, reason, amount }) => ({ tool, answer, error, reason, amount })),
    ).toEqual([
      { tool: 'charges_create', answer: 'declined', error: 'LunasError', reason: 'not_confirmed', amount: '25000.00' },
      {
        tool: 'transfers_create',
        answer: 'not_asked',
        error: 'LunasError',
        reason: 'above_max_amount',
        amount: '600000.00',
      },
      { tool: 'transfers_create', answer: 'not_asked', error: 'RequestValidationError', reason: null, amount: null },
      {
        tool: 'transfers_create',
        answer: 'not_asked',
        error: 'RequestValidationError',
        reason: null,
        amount: '10000.00',
      },
    ]);
    expect(transfersSent(service)).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toContain(KEY);
  });
});
