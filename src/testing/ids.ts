import { randomBytes, randomInt } from 'node:crypto';

const ID_BYTES = 12;
const POOL_IDS = 512;

// One randomBytes call per 512 ids: a call per id made bulk seeding ten times slower.
let pool = Buffer.alloc(0);
let offset = 0;

/** `prefix` followed by 24 random hex digits, e.g. `ch_9f86d081884c7d659a2feaa0`. */
export function newId(prefix: string): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  offset += ID_BYTES;
  return prefix + pool.toString('hex', offset - ID_BYTES, offset);
}

/** A 16-digit virtual account number that never starts with 0. */
export function newVirtualAccountNumber(): string {
  return (
    String(randomInt(1, 10)) + String(randomInt(0, 1e9)).padStart(9, '0') + String(randomInt(0, 1e6)).padStart(6, '0')
  );
}
