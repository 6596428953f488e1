/**
 * The check in front of test/unit/compiled-object.test.ts, under a zod whose
 * internals are gone (simulated with module mocks): it names each part
 * missing, where looseObject itself would fail with a bare TypeError.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('zod/v4/core');
  vi.doUnmock('zod/mini');
  vi.resetModules();
});

/** The check, loaded fresh under whatever mocks the test set. */
async function loadFresh() {
  vi.resetModules();
  return import('../helpers/zod-internals.js');
}

describe('the zod internals check', () => {
  it('passes on the zod this repository pins', async () => {
    const { assertZodInternals, missingZodInternals } = await loadFresh();
    expect(missingZodInternals()).toEqual([]);
    expect(assertZodInternals).not.toThrow();
  });

  it('names $ZodObjectJIT.init when zod/v4/core no longer has it', async () => {
    vi.doMock('zod/v4/core', async (original) => ({
      ...(await original<typeof import('zod/v4/core')>()),
      $ZodObjectJIT: undefined,
    }));
    const { assertZodInternals } = await loadFresh();
    // What every test of compiled-object.test.ts would meet without the check.
    const { looseObject } = await import('../../src/core/schemas.js');
    expect(() => looseObject({})).toThrow(TypeError);
    expect(assertZodInternals).toThrow(
      /^zod's internals changed: \$ZodObjectJIT\.init \(zod\/v4\/core\) is not a function any more\..*CONTRIBUTING\.md, "zod\/mini"/,
    );
  });

  it('names every part gone at once: ZodMiniType.init and $constructor', async () => {
    vi.doMock('zod/mini', async (original) => ({
      ...(await original<typeof import('zod/mini')>()),
      ZodMiniType: {},
    }));
    vi.doMock('zod/v4/core', async (original) => ({
      ...(await original<typeof import('zod/v4/core')>()),
      $constructor: undefined,
    }));
    const { missingZodInternals } = await loadFresh();
    expect(missingZodInternals()).toEqual(['$constructor (zod/v4/core)', 'ZodMiniType.init (zod/mini)']);
    // Without $constructor, schemas.ts fails as it loads: its test imports it only after the check.
    await expect(import('../../src/core/schemas.js')).rejects.toThrow(TypeError);
  });
});
