/**
 * The compiled loose object (looseObject in src/core/schemas.ts) rests on zod
 * internals that are not public API. These tests fail, naming that module,
 * when a zod upgrade changes them: every response parses through it. When
 * an internal is gone, they fail first saying which (helpers/zod-internals.ts).
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';
import { assertZodInternals } from '../helpers/zod-internals.js';

/**
 * looseObject, imported once zod is known to have the internals it calls:
 * without them the module would fail as it loads, or the first schema built,
 * with a TypeError from inside zod that names nothing.
 */
async function compiledLooseObject(): Promise<typeof import('../../src/core/schemas.js').looseObject> {
  assertZodInternals();
  return (await import('../../src/core/schemas.js')).looseObject;
}

const BROKEN = 'zod internals changed: see looseObject in src/core/schemas.ts';

/** The frames that called a field's parser: the compiled parser's is code made by `new Function`. */
async function callerFrames(): Promise<string> {
  const looseObject = await compiledLooseObject();
  let stack = '';
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const probe = looseObject({
    id: z.string().check(
      z.refine(() => {
        stack = new Error('probe').stack ?? '';
        return true;
      }),
    ),
  });
  try {
    probe.parse({ id: 'ch_1' });
  } finally {
    Error.stackTraceLimit = limit;
  }
  return stack;
}

describe('looseObject on zod internals', () => {
  it('parses: known fields checked, unknown fields kept', async () => {
    const looseObject = await compiledLooseObject();
    const schema = looseObject({ id: z.string(), amount: z.number() });
    expect(schema.parse({ id: 'ch_1', amount: 5, extra: { kept: true } }), BROKEN).toEqual({
      id: 'ch_1',
      amount: 5,
      extra: { kept: true },
    });
    const refused = schema.safeParse({ id: 7, amount: 5 });
    expect(refused.success, BROKEN).toBe(false);
    expect(
      refused.error?.issues.map((issue) => issue.path),
      BROKEN,
    ).toEqual([['id']]);
  });

  it('is a zod mini schema built on the compiled object parser', async () => {
    const looseObject = await compiledLooseObject();
    const schema = looseObject({ id: z.string() });
    expect(schema instanceof core.$ZodObjectJIT, BROKEN).toBe(true);
    expect(schema instanceof z.ZodMiniType, BROKEN).toBe(true);
    // What the mini type adds: its methods work on the compiled object.
    expect(z.optional(schema).parse(undefined), BROKEN).toBeUndefined();
    expect(schema.check(z.refine(() => true)).parse({ id: 'x' }), BROKEN).toEqual({ id: 'x' });
  });

  it('takes the compiled path: a field is parsed from code zod generated', async () => {
    expect(await callerFrames(), BROKEN).toMatch(/eval at compile/);
  });
});
