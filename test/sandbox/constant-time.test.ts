/**
 * The comparison behind the API key check and the payment form's token:
 * right for every pair of strings, and with no early exit, so how long it
 * takes says nothing about how much of the secret a guess got right.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { equalBytes, equalInConstantTime } from '../../src/testing/transport/constant-time.js';
import { call, inProcessSandbox } from './helpers.js';

// Called through, so every comparison still gives its answer; the spy shows which ones the sandbox makes.
vi.mock('../../src/testing/transport/constant-time.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/testing/transport/constant-time.js')>();
  return { ...actual, equalInConstantTime: vi.fn(actual.equalInConstantTime) };
});

/** A byte array whose every index read is counted, to see what a comparison looks at. */
function counted(bytes: number[]): { array: Uint8Array; reads: () => number } {
  let reads = 0;
  const array = new Proxy(Uint8Array.from(bytes), {
    get(target, property) {
      if (typeof property === 'string' && /^\d+$/.test(property)) reads++;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { array, reads: () => reads };
}

describe('equalInConstantTime', () => {
  it('is true only for the same string, compared as UTF-8 bytes', () => {
    expect(equalInConstantTime('sk_test_sandbox', 'sk_test_sandbox')).toBe(true);
    expect(equalInConstantTime('', '')).toBe(true);
    for (const [given, expected] of [
      ['sk_test_sandboy', 'sk_test_sandbox'],
      ['sk_test_sandbo', 'sk_test_sandbox'],
      ['sk_test_sandboxx', 'sk_test_sandbox'],
      ['', 'sk_test_sandbox'],
      ['sk_test_sandbox', ''],
      // The same length in UTF-16 code units, not in bytes; and two spellings of é.
      ['\u00e9', 'e\u0301'],
      ['\u00e9', 'e'],
      // Repeats of the secret are not the secret (a comparison that wraps around must still see the length).
      ['abcabc', 'abc'],
    ]) {
      expect(equalInConstantTime(given!, expected!), `${given} vs ${expected}`).toBe(false);
    }
  });

  it('agrees with === for any two strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(equalInConstantTime(a, b)).toBe(a === b);
        expect(equalInConstantTime(a, a)).toBe(true);
      }),
    );
  });
});

describe('equalBytes', () => {
  it('reads every byte of the guess whatever it has in common with the secret: no early exit', () => {
    const secret = [...new TextEncoder().encode('sk_test_sandbox')];
    const wrongFirst = [0, ...secret.slice(1)];
    const wrongLast = [...secret.slice(0, -1), 0];
    const readsOf = (guess: number[]) => {
      const given = counted(guess);
      const expected = counted(secret);
      equalBytes(given.array, expected.array);
      return { given: given.reads(), expected: expected.reads() };
    };
    const right = readsOf(secret);
    expect(right.given).toBe(secret.length);
    expect(readsOf(wrongFirst)).toEqual(right);
    expect(readsOf(wrongLast)).toEqual(right);
  });

  it('takes as many steps as the guess is long, whatever the secret\u2019s length', () => {
    const guess = [...new TextEncoder().encode('sk_test_guess_of_some_length')];
    const steps = (secretLength: number) => {
      const given = counted(guess);
      const expected = counted(Array.from({ length: secretLength }, (_, index) => index));
      expect(equalBytes(given.array, expected.array)).toBe(false);
      return { given: given.reads(), expected: expected.reads() };
    };
    for (const length of [1, 5, guess.length, guess.length + 40]) {
      expect(steps(length), `secret of ${length} bytes`).toEqual({ given: guess.length, expected: guess.length });
    }
  });
});

describe('the API key check', () => {
  it('compares the bearer key with the sandbox\u2019s key in constant time', async () => {
    const box = inProcessSandbox({ apiKey: 'sk_test_constant' });
    vi.mocked(equalInConstantTime).mockClear();
    expect((await call(box, 'GET', '/v1/payouts', { key: 'sk_test_constanT' })).status).toBe(401);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
    expect(vi.mocked(equalInConstantTime).mock.calls).toEqual([
      ['sk_test_constanT', 'sk_test_constant'],
      ['sk_test_constant', 'sk_test_constant'],
    ]);
  });
});
