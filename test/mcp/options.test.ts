/**
 * createMcpServer's options, checked by name and value at run time (plain
 * JavaScript callers get no compiler): an unknown name gets the closest
 * known one, a bad value a LunasError saying how to write it, and, without
 * `live`, nothing but a sandbox on this machine is served, whatever the
 * environment says. No service is called: these fail or pass at construction.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LunasError } from 'lunas-sdk';
import { createMcpServer, type CreateMcpServerOptions } from 'lunas-sdk/mcp';
import { thrown } from '../helpers/rejection.js';

const SANDBOX = { baseURL: 'http://127.0.0.1:4010' };
const KEY = 'sk_live_never_quoted_0123456789';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The message of the LunasError `createMcpServer(options)` throws. */
function refusal(options: unknown): string {
  return thrown(() => createMcpServer(options as CreateMcpServerOptions), LunasError).message;
}

describe('createMcpServer options', () => {
  it('makes an MCP server for a sandbox on this machine, with the sandbox default key', () => {
    expect(createMcpServer(SANDBOX)).toBeInstanceOf(McpServer);
    expect(createMcpServer({ baseURL: 'http://localhost:4010', apiKey: 'sk_test_other_key' })).toBeInstanceOf(
      McpServer,
    );
    expect(createMcpServer({ baseURL: 'http://[::1]:4010/' })).toBeInstanceOf(McpServer);
  });

  it.each([
    [{ baseUrl: 'http://127.0.0.1' }, 'Unknown option "baseUrl": did you mean "baseURL"?'],
    [{ ...SANDBOX, max_amount: 5 }, 'Unknown option "max_amount": did you mean "maxAmount"?'],
    [{ ...SANDBOX, tool: ['charges_list'] }, 'Unknown option "tool": did you mean "tools"?'],
    [{ ...SANDBOX, max_total: 5 }, 'Unknown option "max_total": did you mean "maxTotal"?'],
    [{ ...SANDBOX, readonly: true }, 'Unknown option "readonly": did you mean "readOnly"?'],
    [
      { ...SANDBOX, allowDestination: ['acc_a'] },
      'Unknown option "allowDestination": did you mean "allowDestinations"?',
    ],
    ['live', 'The MCP server options must be an object (got a string)'],
  ])('refuses an unknown name or a non-object, naming the closest option: %j', (options, message) => {
    expect(refusal(options)).toBe(message);
  });

  it.each([
    [{ ...SANDBOX, live: 'yes' }, 'live must be true or false (got "yes")'],
    [{ baseURL: 42 }, 'baseURL must be a URL string (got 42)'],
    [{ ...SANDBOX, apiKey: 12345 }, 'apiKey must be a string (got a number)'],
    [{ ...SANDBOX, maxAmount: 0 }, 'maxAmount must be greater than 0'],
    [{ ...SANDBOX, maxAmount: -5 }, 'maxAmount must be greater than 0'],
    [{ ...SANDBOX, maxAmount: '1.000' }, 'maxAmount must have at most two digits after the \'.\' (got "1.000")'],
    [{ ...SANDBOX, maxAmount: '1,000,000' }, 'write 1000000 or "1000000.00"'],
    [{ ...SANDBOX, maxAmount: true }, 'maxAmount must be a number with at most two decimal places (got true'],
    [
      { ...SANDBOX, tools: 'charges_list' },
      'tools must be a list of tool names, e.g. charges_create (got "charges_list")',
    ],
    [{ ...SANDBOX, tools: [] }, 'tools names no tool; leave it out to serve them all'],
    [{ ...SANDBOX, maxTotal: 0 }, 'maxTotal must be greater than 0'],
    [{ ...SANDBOX, maxTotal: '1.000' }, 'maxTotal must have at most two digits after the \'.\' (got "1.000")'],
    [{ ...SANDBOX, readOnly: 'yes' }, 'readOnly must be true or false (got "yes")'],
    [
      { ...SANDBOX, readOnly: true, tools: ['charges_list', 'sandbox_charges_pay'] },
      'sandbox_charges_pay changes things, and readOnly serves only tools that read: take it out of tools',
    ],
    [{ ...SANDBOX, allowDestinations: 'acc_a' }, 'allowDestinations must be a list of account ids, e.g. acc_partner'],
    [{ ...SANDBOX, allowDestinations: ['acc_a', ''] }, 'allowDestinations must be a list of account ids'],
    [{ ...SANDBOX, allowDestinations: [] }, 'allowDestinations names no account; leave it out to allow any'],
    [{ ...SANDBOX, audit: '' }, 'audit must be a file\'s path or a function (got "")'],
    [{ ...SANDBOX, audit: true }, "audit must be a file's path or a function (got true)"],
    [{ ...SANDBOX, tools: ['charge_create'] }, 'Unknown tool "charge_create" in tools: did you mean "charges_create"?'],
    [
      { ...SANDBOX, tools: ['refunds'] },
      'Unknown tool "refunds" in tools: the tools are charges_create, charges_retrieve',
    ],
  ])('refuses a bad value, saying how to write it: %j', (options, message) => {
    expect(refusal(options)).toContain(message);
  });

  it('takes the new limits when they are well written', () => {
    expect(
      createMcpServer({
        ...SANDBOX,
        maxTotal: '5000000.00',
        readOnly: false,
        allowDestinations: ['acc_a', 'acc_b'],
        audit: () => undefined,
      }),
    ).toBeInstanceOf(McpServer);
    expect(
      createMcpServer({ ...SANDBOX, maxTotal: 5_000_000, readOnly: true, audit: '/tmp/lunas-audit.jsonl' }),
    ).toBeInstanceOf(McpServer);
  });

  it('refuses a sandbox tool in live mode', () => {
    vi.stubEnv('LUNAS_API_KEY', KEY);
    expect(
      refusal({ live: true, baseURL: 'https://api.example.com', tools: ['charges_list', 'sandbox_charges_pay'] }),
    ).toBe('sandbox_charges_pay acts on a sandbox, and live mode serves no sandbox tool: take it out of tools');
  });

  it('serves without live only a sandbox on this machine, and never reads the environment for it', () => {
    vi.stubEnv('LUNAS_BASE_URL', 'https://api.example.com');
    vi.stubEnv('LUNAS_API_KEY', KEY);
    expect(refusal({})).toMatch(/^Without live, the server serves a sandbox: pass baseURL, the URL of one running/);
    expect(refusal({ baseURL: 'https://api.example.com' })).toBe(
      "Without live, baseURL must be a sandbox's, on this machine (127.0.0.1, localhost or [::1]); " +
        'got "https://api.example.com". Pass live to serve the live service, with its API key',
    );
    expect(refusal({ baseURL: 'not a url' })).toContain('got "not a url"');
  });

  it('takes the live service from the environment, or says what is missing', () => {
    expect(refusal({ live: true })).toBe("Live mode needs the service's URL: pass baseURL or set LUNAS_BASE_URL");
    vi.stubEnv('LUNAS_BASE_URL', 'https://api.example.com');
    expect(refusal({ live: true })).toBe('Live mode needs an API key: pass apiKey or set LUNAS_API_KEY');
    vi.stubEnv('LUNAS_API_KEY', KEY);
    expect(createMcpServer({ live: true })).toBeInstanceOf(McpServer);
    // What the client refuses, it refuses for the server too.
    expect(refusal({ live: true, baseURL: 'http://api.example.com' })).toContain('plain http: for api.example.com');
    expect(refusal({ live: true, apiKey: 'short' })).toContain('shorter than 12 characters');
  });
});
