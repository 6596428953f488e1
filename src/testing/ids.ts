import { randomBytes, randomInt } from 'node:crypto';

const ID_BYTES = 12;
const POOL_IDS = 512;

/**
 * Random ids for one sandbox. It draws random bytes for 512 ids at a time: a
 * `randomBytes` call per id made bulk seeding ten times slower, and
 * `crypto.randomUUID` five times slower.
 */
export class IdSource {
  #pool = Buffer.alloc(0);
  #offset = 0;

  /** `prefix` followed by 24 random hex digits, e.g. `ch_9f86d081884c7d659a2feaa0`. */
  next(prefix: string): string {
    if (this.#offset + ID_BYTES > this.#pool.length) {
      this.#pool = randomBytes(ID_BYTES * POOL_IDS);
      this.#offset = 0;
    }
    this.#offset += ID_BYTES;
    return prefix + this.#pool.toString('hex', this.#offset - ID_BYTES, this.#offset);
  }
}

/** A 16-digit virtual account number that never starts with 0. */
export function newVirtualAccountNumber(): string {
  return (
    String(randomInt(1, 10)) + String(randomInt(0, 1e9)).padStart(9, '0') + String(randomInt(0, 1e6)).padStart(6, '0')
  );
}
