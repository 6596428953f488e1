/**
 * lunas-sdk/mcp never shows the API key: in no tool result or error, wherever
 * the agent puts it (the tools call a real sandbox over HTTP), and in no
 * refusal of createMcpServer's options, wherever the caller put it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LunasError } from 'lunas-sdk';
import { createMcpServer, type CreateMcpServerOptions } from 'lunas-sdk/mcp';
import { agent, sandbox } from '../../mcp/helpers.js';
import { thrown } from '../../helpers/rejection.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the API key', () => {
  const KEY = 'sk_test_mcp_never_shown_0123';

  it('appears in no tool result or error, wherever the agent puts it', async () => {
    const service = await sandbox({ apiKey: KEY });
    const { client, call } = await agent({ baseURL: service.url, apiKey: KEY });
    const answers = [
      await client.listTools(),
      await call('charges_create', { payment_method: 'qris', amount: 1000, client_reference_id: KEY }),
      await call('charges_create', { payment_method: 'qris', amount: 1000, description: `key: ${KEY}` }),
      await call('charges_create', { payment_method: 'qris', amount: 1000, [KEY]: 1 }),
      await call('charges_retrieve', { id: KEY }),
      await call('sandbox_charges_pay', { id: KEY }),
      await call('charges_list', { pagesize: 100 }),
    ];
    const seen = JSON.stringify(answers);
    expect(seen).not.toContain(KEY);
    expect(seen).not.toContain(encodeURIComponent(KEY).slice(0, 12));
    expect(seen).toContain('[REDACTED]');
    // Nor does the service: a call whose parameters hold the key is refused before sending.
    expect(service.charges()).toEqual([]);
    expect(service.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});

describe('createMcpServer options', () => {
  const SANDBOX = { baseURL: 'http://127.0.0.1:4010' };
  const KEY = 'sk_live_never_quoted_0123456789';

  /** The message of the LunasError `createMcpServer(options)` throws. */
  function refusal(options: unknown): string {
    return thrown(() => createMcpServer(options as CreateMcpServerOptions), LunasError).message;
  }

  it('never quotes the key, wherever it was put', () => {
    vi.stubEnv('LUNAS_API_KEY', KEY);
    const messages = [
      refusal({ ...SANDBOX, apiKey: KEY, [KEY]: 1 }),
      refusal({ [KEY]: true }),
      refusal({ baseURL: KEY, apiKey: KEY }),
      refusal({ baseURL: `https://${KEY}.example.com`, apiKey: KEY }),
      refusal({ ...SANDBOX, tools: [KEY], apiKey: KEY }),
      refusal({ ...SANDBOX, maxAmount: KEY, apiKey: KEY }),
      refusal({ ...SANDBOX, apiKey: { key: KEY } }),
    ];
    expect(messages.at(-1)).toBe('apiKey must be a string (got an object)');
    for (const message of messages) {
      expect(message).not.toContain(KEY);
      expect(message).not.toContain(KEY.slice(0, 16));
    }
    expect(messages.filter((message) => message.includes('[REDACTED]'))).toHaveLength(6);
  });
});
