/**
 * startSandbox (node:http on 127.0.0.1) and createSandbox (in process) are one
 * sandbox behind two transports: the same requests, in the same order, get the
 * same statuses, headers that matter and bodies, once the random parts (ids,
 * account numbers, the base URL) are named rather than compared.
 */
import { describe, expect, it } from 'vitest';
import type { Fault, InProcessSandbox, Sandbox } from '../../src/testing/index.js';
import { call, inProcessSandbox, sandbox, validCharge, type ApiResponse, type CallOptions } from './helpers.js';

const NOW = new Date('2026-01-02T03:04:05.000Z');

interface Step {
  method: string;
  /** The path; a function gets the bodies of the earlier steps' responses. */
  path: string | ((earlier: ApiResponse[]) => string);
  options?: CallOptions;
  /** Armed just before the step. */
  fault?: Fault;
}

const transfer = { destination_account_id: 'acc_partner', amount: '150000.00', currency: 'idr' };
const keyed = (key: string) => ({ 'idempotency-key': key });

const STEPS: Step[] = [
  { method: 'POST', path: '/v1/payments/charges', options: { body: validCharge } },
  {
    method: 'POST',
    path: '/v1/payments/charges',
    options: { body: { payment_method: 'virtual_account', amount: '25000.50', bank_code: 'bca' } },
  },
  { method: 'POST', path: '/v1/payments/charges', options: { body: { payment_method: 'cash', amount: -1 } } },
  { method: 'POST', path: '/v1/payments/charges', options: { raw: '{"payment_method":' } },
  { method: 'POST', path: '/v1/payments/charges', options: { raw: '{}', headers: { 'content-type': 'text/plain' } } },
  { method: 'GET', path: (earlier) => `/v1/payments/charges/${earlier[0]?.body.data.id}` },
  { method: 'GET', path: '/v1/payments/charges/ch_missing' },
  { method: 'GET', path: '/v1/payments/charges/..%2F..%2Fetc' },
  { method: 'GET', path: '/v1/payments/charges?page=2&pagesize=1' },
  { method: 'GET', path: '/v1/payments/charges?pagesize=0' },
  { method: 'POST', path: '/v1/transfers', options: { body: transfer, headers: keyed('parity-1') } },
  { method: 'POST', path: '/v1/transfers', options: { body: transfer, headers: keyed('parity-1') } },
  {
    method: 'POST',
    path: '/v1/transfers',
    options: { body: { ...transfer, amount: '1.00' }, headers: keyed('parity-1') },
  },
  { method: 'POST', path: '/v1/transfers', options: { body: { ...transfer, amount: '99999999.00' } } },
  { method: 'POST', path: '/v1/transfers', options: { body: { ...transfer, destination_account_id: 'acc_closed' } } },
  { method: 'GET', path: '/v1/transfers' },
  { method: 'GET', path: '/v1/payouts?pagesize=2' },
  { method: 'GET', path: '/v1/payments/methods' },
  { method: 'GET', path: '/v1/payouts', options: { key: null } },
  { method: 'GET', path: '/v1/payouts', options: { key: 'sk_test_wrong' } },
  { method: 'DELETE', path: '/v1/payouts' },
  { method: 'GET', path: '/v1/nowhere' },
  { method: 'GET', path: '/v1/payouts', fault: { kind: 'status', status: 503 } },
  {
    method: 'GET',
    path: '/v1/payouts',
    fault: { kind: 'status', status: 429, headers: { 'Retry-After': '2' }, body: 'slow down' },
  },
  { method: 'GET', path: '/v1/payouts', fault: { kind: 'html', status: 502 } },
  { method: 'GET', path: '/v1/payouts', fault: { kind: 'malformed', status: 500 } },
  { method: 'POST', path: '/v1/payments/charges', options: { body: validCharge }, fault: { kind: 'delay', ms: 1 } },
  { method: 'POST', path: '/v1/payments/charges', options: { raw: 'x'.repeat(1024 * 1024 + 1) } },
];

/** `text` with the random parts named: the base URL, ids, account numbers. */
const named = (target: Sandbox, text: string): string =>
  text
    .replaceAll(target.url, '<url>')
    .replace(/\b(ch|tr|evt)_[0-9a-f]{24}\b/g, '$1_<id>')
    .replace(/"account_number":"\d{16}"/g, '"account_number":"<number>"');

/** The parts of a response both transports must agree on. */
function comparable(target: Sandbox, { status, headers, text }: ApiResponse) {
  const kept = ['content-type', 'retry-after', 'idempotent-replayed'].map((name) => [name, headers.get(name)]);
  return {
    status,
    headers: Object.fromEntries(kept),
    requestId: /^req_[0-9a-f]{24}$/.test(headers.get('x-request-id') ?? ''),
    text: named(target, text),
  };
}

async function run(target: Sandbox | InProcessSandbox) {
  const responses: ApiResponse[] = [];
  for (const step of STEPS) {
    if (step.fault) target.inject(step.fault);
    const path = typeof step.path === 'string' ? step.path : step.path(responses);
    responses.push(await call(target, step.method, path, step.options));
  }
  const state = {
    balances: ['acc_merchant', 'acc_partner'].map((id) => target.balance(id)),
    events: target.events.map(({ type, created_at }) => [type, created_at]),
    requests: target.requests.map(({ method, path, query, authorized }) => ({
      method,
      path: named(target, path),
      query,
      authorized,
    })),
  };
  return { responses: responses.map((response) => comparable(target, response)), state };
}

describe('startSandbox and createSandbox', () => {
  it('answer the same requests with the same statuses, headers and bodies, and end in the same state', async () => {
    const overHttp = await run(await sandbox({ now: () => NOW }));
    const inProcess = await run(inProcessSandbox({ now: () => NOW }));
    expect(inProcess.responses).toHaveLength(STEPS.length);
    for (const [index, response] of inProcess.responses.entries()) {
      expect(response, `step ${index + 1}: ${STEPS[index]?.method} ${String(STEPS[index]?.path)}`).toEqual(
        overHttp.responses[index],
      );
    }
    expect(inProcess.state).toEqual(overHttp.state);
    // The scenario reached what it names: a success, a replay, refusals and faults.
    expect(overHttp.responses.map(({ status }) => status)).toEqual(
      expect.arrayContaining([200, 400, 401, 403, 404, 405, 413, 415, 422, 429, 500, 502, 503]),
    );
    expect(overHttp.responses.some(({ headers }) => headers['idempotent-replayed'] === 'true')).toBe(true);
  });
});
