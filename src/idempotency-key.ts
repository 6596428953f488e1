/**
 * `idempotencyKeyFor`: the Idempotency-Key of a business operation, made from
 * its own id (a job's, a workflow's, an invoice's), the same on every run and
 * every machine. A name-based UUID (version 5, RFC 9562) through the
 * platform's Web Crypto: a UUID is the shape lunas already sends as a key on
 * every POST, so a service that takes lunas's generated keys takes these, and
 * any language recomputes one with its own UUID library.
 */
import { addFieldMessages, type FieldErrors, LunasError, RequestValidationError } from './core/report/errors.js';

/** The namespace of every key this helper makes (a fixed, random UUID). */
const NAMESPACE = 'a4c86fa1-251b-4344-8bec-91899ffc4f8a';

/** A UTF-16 surrogate with no partner: such a string has no UTF-8 form, so no name. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The Idempotency-Key of one business operation, derived from its id: the
 * same parts give the same key on every run, in every process and in every
 * version of lunas-sdk, and different parts give different keys. Pass the
 * id of what the transfer is for, never of an attempt: a payout job's id (not
 * its attempt number), a workflow's id, an invoice number. Give more parts to
 * name an operation within it (`idempotencyKeyFor(workflowId, 'payout')`).
 *
 * The key is a UUID (version 5): `uuidv5(JSON.stringify(parts))` in the
 * namespace `a4c86fa1-251b-4344-8bec-91899ffc4f8a`, so any id of any length
 * or alphabet gives a key of 36 characters that fits the
 * `idempotencyKey` option and any service that takes a UUID. A worker in
 * another language makes the same key with its own UUID library (Python:
 * `uuid.uuid5(uuid.UUID('a4c86fa1-…'), json.dumps(parts, separators=(',', ':'), ensure_ascii=False))`).
 *
 * @param parts - One or more non-empty strings, each well-formed Unicode.
 * @returns The key, e.g. `'3b1f0c52-…-5…'`, lower case.
 * @throws {@link RequestValidationError} (rejects) when there is no part, or
 *   a part is not a non-empty string or holds a lone surrogate; `fields`
 *   names it (`parts.1`).
 * @throws {@link LunasError} (rejects) when the runtime has no Web Crypto
 *   (`crypto.subtle`; a browser page served over plain `http:` has none).
 *
 * @example
 * ```ts
 * import { Client, idempotencyKeyFor } from 'lunas-sdk';
 *
 * const client = new Client();
 * const jobId = 'settlement:2026-05-04:acc_kopi';   // e.g. a BullMQ job's id
 * const transfer = await client.transfers.create(
 *   { destination_account_id: 'acc_kopi', amount: '221400.00', currency: 'idr', client_reference_id: jobId },
 *   { idempotencyKey: await idempotencyKeyFor(jobId) },
 * );
 * ```
 * @see [Payouts at scale](../docs/payouts-at-scale.md#the-key-rule)
 * @category Client
 */
export async function idempotencyKeyFor(...parts: [string, ...string[]]): Promise<string> {
  const problems = partProblems(parts);
  if (problems) throw new RequestValidationError(problems);
  const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
  if (subtle === undefined) {
    throw new LunasError('idempotencyKeyFor() needs Web Crypto (crypto.subtle), which this runtime does not offer');
  }
  const name = new TextEncoder().encode(JSON.stringify(parts));
  const input = new Uint8Array(16 + name.length);
  input.set(uuidBytes(NAMESPACE));
  input.set(name, 16);
  const hash = new Uint8Array(await subtle.digest('SHA-1', input), 0, 16);
  hash[6] = (hash[6]! & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8]! & 0x3f) | 0x80; // the RFC's variant
  const hex = Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What is wrong with the parts a plain JavaScript caller gave, by `parts.N`; undefined when nothing is. */
function partProblems(parts: unknown[]): FieldErrors | undefined {
  const fields: FieldErrors = {};
  if (parts.length === 0) addFieldMessages(fields, 'parts', ['Give at least one part: the id of the operation']);
  parts.forEach((part, index) => {
    const problem =
      typeof part !== 'string' || part === ''
        ? 'Part must be a non-empty string'
        : LONE_SURROGATE.test(part)
          ? 'Part must be well-formed Unicode (it holds a lone surrogate)'
          : undefined;
    if (problem) addFieldMessages(fields, `parts.${index}`, [problem]);
  });
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/** The 16 bytes of a UUID written in hex with dashes. */
function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replaceAll('-', '');
  return Uint8Array.from({ length: 16 }, (_, index) => Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16));
}
