/**
 * The one fixture per object the service sends, and the envelopes around
 * them, for every suite that fakes the service (msw, a fake `fetch`): change
 * a field with `overrides` rather than writing another fixture. Free of msw,
 * so any suite can import it. Tests of what the sandbox itself sends write
 * the objects out instead, on purpose (a comment says so at each).
 */

/** The origin every faked service answers on. */
export const BASE_URL = 'https://api.lunas.test';
/** The key every client against a faked service sends. */
export const API_KEY = 'sk_test_unit_5f2a9c';

/** The id of {@link chargeJson}: `client.charges.retrieve(CHARGE_ID)` asks for it. */
export const CHARGE_ID = 'ch_123';
/** The id of {@link transferJson}. */
const TRANSFER_ID = 'tr_123';

/** A valid charge as retrieve and list send it, with overrides. */
export function chargeJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: CHARGE_ID,
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

/** A valid charge as the create response sends it (with its payment URLs), with overrides. */
export function createdChargeJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return chargeJson({
    payment_url: `https://pay.lunas.test/pay/${CHARGE_ID}`,
    qr_code_url: `https://pay.lunas.test/qr/${CHARGE_ID}.png`,
    ...overrides,
  });
}

/** A valid transfer as the service sends it, with overrides. */
export function transferJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: TRANSFER_ID,
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

/** `{ status: 'success', data }`: the envelope of every successful answer. */
export function success<T>(data: T): { status: 'success'; data: T } {
  return { status: 'success', data };
}

/** A list's success envelope: one page of `data`, with the paging fields the service adds. */
export function listPage(data: unknown[], page = 1, pageSize = 10, total = data.length): Record<string, unknown> {
  return { ...success(data), page, page_size: pageSize, total_items: total };
}
