// Wire fixtures for the bench server: one realistic charge (service spec 2.1)
// and the envelopes around it, as JSON text.

export const API_KEY = 'sk_test_bench';

/** A paid virtual-account charge, shaped as the retrieve endpoint sends it. */
export const charge = {
  id: 'ch_000000000000000000000001',
  payment_method: 'virtual_account',
  channel: 'mandiri',
  status: 'success',
  currency: 'idr',
  amount: '150000.00',
  fee: '4000.00',
  client_reference_id: 'order-2024-000123',
  customer_details: {
    name: 'Siti Rahmawati',
    email: 'siti.rahmawati@example.com',
    phone_number: '+6281234567890',
  },
  items: [
    { name: 'Batik shirt, size M', price: '50000.00', quantity: 2 },
    { name: 'Gift wrapping', price: '50000.00', quantity: 1 },
  ],
  description: 'Order 2024-000123 from the online shop',
  expires_at: '2024-06-02T09:30:00Z',
  paid_at: '2024-06-01T09:41:12Z',
  created_at: '2024-06-01T09:30:00Z',
  updated_at: '2024-06-01T09:41:12Z',
};

// The charge serialised once with its per-item fields as slots, so a page of
// 100 distinct charges is string concatenation rather than 100 JSON.stringify
// calls: the server's own cost is paid by the SDK and the baseline alike.
const SLOT = /"@@(\w+)@@"/;
const slotted = JSON.stringify({
  ...charge,
  ...Object.fromEntries(['id', 'expires_at', 'paid_at', 'created_at', 'updated_at'].map((k) => [k, `@@${k}@@`])),
});
// split() with a capture group alternates literal text and slot names.
const parts = slotted.split(SLOT);

/** Ids are distinct per position so that the SDK's duplicate skipping never fires. */
export function chargeId(n: number): string {
  return `ch_${String(n).padStart(24, '0')}`;
}

// Timestamps are whole seconds from this instant. Formatting them by hand
// rather than with Date#toISOString keeps a 100-charge page cheap to build.
const BASE_MS = Date.parse('2024-01-01T00:00:00Z');
const DAY = 86_400;
const dayPrefixes = new Map<number, string>();
const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

function iso(seconds: number): string {
  const day = Math.floor(seconds / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(BASE_MS + day * DAY * 1000).toISOString().slice(0, 11); // "2024-01-01T"
    dayPrefixes.set(day, prefix);
  }
  const s = seconds % DAY;
  return `${prefix}${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}Z`;
}

/**
 * Charge number `n` as JSON. Each is created one second after charge n - 1:
 * distinct, ordered timestamps as a newest-first list has (the SDK uses
 * created_at to skip items it already yielded).
 */
export function chargeJson(id: string, n: number): string {
  const values: Record<string, string> = {
    id: JSON.stringify(id),
    created_at: `"${iso(n)}"`,
    updated_at: `"${iso(n + 672)}"`,
    paid_at: `"${iso(n + 672)}"`,
    expires_at: `"${iso(n + DAY)}"`,
  };
  let json = '';
  for (let i = 0; i < parts.length; i++) json += i % 2 ? values[parts[i]!] : parts[i];
  return json;
}

export function retrieveBody(id: string): string {
  return `{"status":"success","data":${chargeJson(id, 1)}}`;
}

/** One page of a newest-first collection of `total` charges, built on demand. */
export function listBody(page: number, pageSize: number, total: number): string {
  const start = (page - 1) * pageSize;
  const end = Math.min(total, start + pageSize);
  const items: string[] = [];
  for (let i = start; i < end; i++) items.push(chargeJson(chargeId(total - i), total - i));
  return `{"status":"success","data":[${items.join(',')}],"page":${page},"page_size":${pageSize},"total_items":${total}}`;
}
