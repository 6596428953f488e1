// The two sides of every comparison: the SDK, and the least code that does the
// same request by hand. Both send the same URL and Authorization header.
// 'lunas' resolves to src/ here (tsconfig paths, honoured by tsx): no build needed.
import { Client, type ClientOptions } from 'lunas';
import { API_KEY } from './fixtures.js';

export function sdkClient(baseURL: string, options: ClientOptions = {}): Client {
  return new Client({ apiKey: API_KEY, baseURL, ...options });
}

const headers = { authorization: `Bearer ${API_KEY}` };

/** GET and parse, nothing else: no validation, retries, timeout or error mapping. */
export async function bareGet(url: string): Promise<{ data: unknown }> {
  const res = await fetch(url, { headers });
  // Checking the status keeps a broken server from looking fast; it costs nothing.
  if (!res.ok) throw new Error(`bench baseline: ${res.status} from ${url}`);
  return JSON.parse(await res.text()) as { data: unknown };
}

export function chargeUrl(baseURL: string, id: string): string {
  return `${baseURL}/v1/payments/charges/${encodeURIComponent(id)}`;
}

export function listUrl(baseURL: string, page: number, pageSize: number): string {
  return `${baseURL}/v1/payments/charges?page=${page}&pagesize=${pageSize}`;
}
