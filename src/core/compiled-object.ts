/**
 * The one place lunas reaches into zod's internals. zod/mini parses objects
 * with a generic loop; zod's compiled ("JIT") object parser is about five
 * times faster, and only it costs a few hundred bytes. Every page of a list
 * runs through these objects, so responses use it. Where eval is forbidden
 * (strict CSP, some edge runtimes) zod falls back by itself.
 *
 * `$ZodObjectJIT.init` and `ZodMiniType.init` are not public API: a zod
 * upgrade may rename or reshape them. test/unit/compiled-object.test.ts fails,
 * naming this module, when that happens.
 */
import * as z from 'zod/mini';
import * as core from 'zod/v4/core';

type Init = (inst: object, def: object) => void;

const CompiledLooseObject = core.$constructor('LunasLooseObject', (inst: core.$ZodObject, def: core.$ZodObjectDef) => {
  (core.$ZodObjectJIT.init as Init)(inst, def);
  (z.ZodMiniType.init as Init)(inst, def);
});

/** A response object: known fields validated, unknown fields kept. */
export function looseObject<const Shape extends core.$ZodLooseShape>(
  shape: Shape,
): z.ZodMiniObject<Shape, core.$loose> {
  return new CompiledLooseObject({ type: 'object', shape, catchall: z.unknown() }) as unknown as z.ZodMiniObject<
    Shape,
    core.$loose
  >;
}
