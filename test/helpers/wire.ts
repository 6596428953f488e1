/**
 * A client whose `fetch` option is a plain function (no msw, no socket): it
 * records every request and answers from a callback. For property-based and
 * fuzz suites that make thousands of calls.
 */
import { Client, type ClientOptions } from '../../src/index.js';

export const WIRE_BASE_URL = 'https://api.lunas.test';
export const WIRE_API_KEY = 'sk_test_wire_8c41e7d2';

/** A request the fake fetch received. */
export interface WireRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

/** Answers one request; may return a Response or throw like a failing fetch. */
export type Responder = (request: WireRequest, attempt: number) => Response | Promise<Response>;

export interface WireClient {
  client: Client;
  /** Every request received, in order; empty it with `sent.length = 0`. */
  sent: WireRequest[];
}

/** A client on {@link WIRE_BASE_URL} whose requests go to `respond`. Retries off unless asked. */
export function wireClient(respond: Responder, options: ClientOptions = {}): WireClient {
  const sent: WireRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const seen: WireRequest = {
      method: request.method,
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: await request.text(),
    };
    sent.push(seen);
    return respond(seen, sent.length);
  };
  const client = new Client({
    apiKey: WIRE_API_KEY,
    baseURL: WIRE_BASE_URL,
    logLevel: 'off',
    maxRetries: 0,
    fetch,
    ...options,
  });
  return { client, sent };
}

/** A valid transfer, as the service sends it. */
export function transferData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'tr_0123456789abcdef01234567',
    source_account_id: 'acc_merchant',
    destination_account_id: 'acc_partner',
    source_account_name: 'Merchant',
    destination_account_name: 'Partner',
    status: 'succeeded',
    currency: 'idr',
    amount: '150000.00',
    description: null,
    client_reference_id: 'inv-1',
    created_at: '2026-11-23T03:00:00.000Z',
    updated_at: '2026-11-23T03:00:00.000Z',
    ...overrides,
  };
}

/** A valid charge, as retrieve and list send it. */
export function chargeData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'ch_0123456789abcdef01234567',
    payment_method: 'qris',
    channel: null,
    status: 'pending',
    currency: 'idr',
    amount: '10000.00',
    fee: '70.00',
    client_reference_id: null,
    customer_details: null,
    items: [],
    description: null,
    expires_at: '2026-11-23T03:15:00.000Z',
    paid_at: null,
    created_at: '2026-11-23T03:00:00.000Z',
    updated_at: '2026-11-23T03:00:00.000Z',
    ...overrides,
  };
}

/** A valid charge as the create response sends it. */
export function createdChargeData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return chargeData({
    payment_url: 'https://pay.lunas.test/pay/ch_0123456789abcdef01234567',
    qr_code_url: 'https://pay.lunas.test/qr/ch_0123456789abcdef01234567.png',
    ...overrides,
  });
}

/** `{ status: 'success', data }` as a JSON response. */
export function successResponse(data: unknown, status = 200): Response {
  return Response.json({ status: 'success', data }, { status });
}

/** A list envelope as a JSON response. */
export function listResponse(data: unknown[], page = 1, pageSize = 10, total = data.length): Response {
  return Response.json({ status: 'success', data, page, page_size: pageSize, total_items: total });
}

/** Integer cents as the two-decimal string responses carry: 150000n -> "1500.00". */
export function formatCents(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Number of Unicode code points (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  return [...text].length;
}
