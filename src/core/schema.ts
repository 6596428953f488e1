/**
 * The building blocks of response schemas: lenient (unknown fields kept,
 * unknown enum values accepted), typed as the public interfaces. Zod's types
 * stay in core/ and in the resources' modules: the public types are
 * hand-written interfaces (see `typedAs`), and the public declarations name
 * no Zod type. Money is in money.ts, request parameters in params.ts, their
 * checking in validate.ts, the compiled `looseObject` in compiled-object.ts.
 */
import * as z from 'zod/mini';

export { z };
export { looseObject } from './compiled-object.js';

/** A schema that accepts `In` and parses to `Out`. */
export type Schema<Out, In = Out> = z.ZodMiniType<Out, In>;

/**
 * A string enum that stays open at run time: a value added by the service
 * later still parses instead of breaking the caller. It takes no list of
 * known values: it would check none of them. The public union (e.g.
 * `ChargeStatus`) closes the type, through `typedAs`, and the type tests
 * tie that union to the resource's list of known values.
 */
export function openEnum(): Schema<string> {
  return z.string();
}

/**
 * A response schema typed as the public interface it parses to. Nothing
 * changes at run time: unknown fields are still kept and unknown enum values
 * still pass. Only the type is closed (documented fields, known values), so a
 * merchant's typo is a compile error. The type tests (test/unit/types.test.ts)
 * prove, field by field, that `T` and the schema's own output agree.
 */
export function typedAs<T>(schema: Schema<unknown, unknown>): Schema<T, unknown> {
  return schema as Schema<T, unknown>;
}

/** A field the service may omit or send as null. */
export function maybe<Out, In>(schema: Schema<Out, In>): z.ZodMiniOptional<z.ZodMiniNullable<Schema<Out, In>>> {
  return z.optional(z.nullable(schema));
}

/** Any JSON object, every field kept: for resources the service leaves unspecified. */
export const jsonObject: Schema<Record<string, unknown>> = z.record(z.string(), z.unknown());
