/**
 * `idempotencyKeyFor` (src/idempotency-key.ts): the key of an operation from its id, a
 * version 5 UUID checked against node:crypto's SHA-1, the same in every process.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idempotencyKeyFor, RequestValidationError } from '../../src/index.js';
import { makeClient } from '../helpers/msw.js';
import { countRequests, jsonReply, route, TRANSFER_PARAMS, TRANSFERS_PATH } from '../helpers/requests.js';
import { success, transferJson } from '../helpers/fixtures.js';
import { rejection } from '../helpers/rejection.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A name-based UUID (version 5) made with node:crypto, apart from the SDK's Web Crypto path. */
function uuidV5(namespace: string, name: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

const NAMESPACE = 'a4c86fa1-251b-4344-8bec-91899ffc4f8a';

describe('idempotencyKeyFor', () => {
  it('is the version 5 UUID of the parts as JSON, the same on every call', async () => {
    for (const parts of [
      ['settlement:2026-05-04:acc_kopi'],
      ['wf-7', 'payout'],
      ['Toko Kopi ☕'],
      ['x'.repeat(5000)],
    ]) {
      const key = await idempotencyKeyFor(...(parts as [string, ...string[]]));
      expect(key).toBe(uuidV5(NAMESPACE, JSON.stringify(parts)));
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await idempotencyKeyFor(...(parts as [string, ...string[]]))).toBe(key);
    }
  });

  it("is what Python's uuid.uuid5 gives for the documented name, so another language's worker finds the same key", async () => {
    // uuid.uuid5(uuid.UUID(NAMESPACE), json.dumps(['settlement:2026-05-04:acc_kopi'], separators=(',', ':')))
    expect(await idempotencyKeyFor('settlement:2026-05-04:acc_kopi')).toBe('4d57a236-9ccc-5fe1-a941-b2c835e60f8a');
  });

  it('gives different keys to parts that would join into the same text', async () => {
    const keys = await Promise.all([
      idempotencyKeyFor('a:b', 'c'),
      idempotencyKeyFor('a', 'b:c'),
      idempotencyKeyFor('a:b:c'),
      idempotencyKeyFor('job-1'),
      idempotencyKeyFor('job-10'),
    ]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is sent as the Idempotency-Key of a transfer, on every attempt', async () => {
    const seen = route('POST', TRANSFERS_PATH, (attempt) =>
      attempt === 1 ? jsonReply(503, { status: 'error', message: 'busy' }) : jsonReply(200, success(transferJson())),
    );
    const key = await idempotencyKeyFor('payout-job-42');
    await makeClient().transfers.create(TRANSFER_PARAMS, { idempotencyKey: key });
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual([key, key]);
  });

  it.each<[string, unknown[], Record<string, string[]>]>([
    ['no part', [], { parts: ['Give at least one part: the id of the operation'] }],
    ['an empty part', ['job', ''], { 'parts.1': ['Part must be a non-empty string'] }],
    ['a number (a job id not turned into text)', [42], { 'parts.0': ['Part must be a non-empty string'] }],
    ['undefined (a job without an id)', [undefined], { 'parts.0': ['Part must be a non-empty string'] }],
    [
      'a lone surrogate',
      ['ok', 'bad\uD800'],
      { 'parts.1': ['Part must be well-formed Unicode (it holds a lone surrogate)'] },
    ],
  ])(
    'plain JavaScript: %s rejects with RequestValidationError, and no transfer is sent',
    async (_name, parts, fields) => {
      const requests = countRequests();
      const client = makeClient();
      const making = (idempotencyKeyFor as (...given: unknown[]) => Promise<string>)(...parts).then((idempotencyKey) =>
        client.transfers.create(TRANSFER_PARAMS, { idempotencyKey }),
      );
      const error = await rejection(making, RequestValidationError);
      expect(error.fields).toEqual(fields);
      expect(error.outcomeUnknown).toBe(false);
      expect(requests.count()).toBe(0);
    },
  );
});
