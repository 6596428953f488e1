/**
 * msw for unit tests: every request must match a handler. Unhandled requests
 * fail the test twice over: msw's `error` mode rejects the fetch, and the
 * `request:unhandled` listener fails the test even when code swallows that.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { Client, type ClientOptions } from '../../src/index.js';

export const BASE_URL = 'https://api.lunas.test';
export const API_KEY = 'sk_test_unit_5f2a9c';

export const server = setupServer();
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

/** A client against the msw base URL; retries wait 0 ms unless a test says otherwise. */
export function makeClient(options: ClientOptions = {}): Client {
  return new Client({ apiKey: API_KEY, baseURL: BASE_URL, logLevel: 'off', ...options });
}

/** `{ status: 'success', data }` */
export function success<T>(data: T) {
  return { status: 'success', data };
}

/** A valid charge as the service sends it, with overrides. */
export function chargeJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'ch_123',
    payment_method: 'qris',
    channel: 'gudang_voucher',
    status: 'pending',
    currency: 'idr',
    amount: '10000.00',
    fee: '70.00',
    client_reference_id: 'order-1',
    customer_details: { name: 'Siti', email: 'siti@example.com', phone_number: '+628123' },
    items: [{ name: 'Tea', price: '5000.00', quantity: 2 }],
    description: 'Two teas',
    expires_at: '2026-11-23T04:00:00Z',
    paid_at: null,
    created_at: '2026-11-23T03:00:00Z',
    updated_at: '2026-11-23T03:00:00Z',
    ...overrides,
  };
}

/** A valid transfer as the service sends it, with overrides. */
export function transferJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'tr_123',
    source_account_id: 'acc_merchant',
    destination_account_id: 'acc_partner',
    source_account_name: 'Merchant',
    destination_account_name: 'Partner',
    status: 'succeeded',
    currency: 'idr',
    amount: '150000.00',
    description: 'Settlement',
    client_reference_id: 'inv-1',
    created_at: '2026-11-23T03:00:00Z',
    updated_at: '2026-11-23T03:00:00Z',
    ...overrides,
  };
}
