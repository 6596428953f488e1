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
 * `ChargeStatus`) closes the type, through `typedAs`, which accepts a union
 * of strings for the schema's `string`.
 */
export function openEnum(): Schema<string> {
  return z.string();
}

/**
 * A response schema typed as the public interface it parses to, the two tied
 * at compile time: `typedAs<Transfer>()(transferWire)` compiles only when
 * `Transfer` and the schema's output agree field by field (the rules:
 * `Disagreement`, below), and the error names each field that does not.
 * Nothing changes at run time: unknown fields are still kept and unknown
 * enum values still pass. Only the type is closed (documented fields, known
 * values), so a merchant's typo is a compile error. Curried because
 * TypeScript infers no type argument once one is given: `T` is named, the
 * schema's type inferred.
 */
export function typedAs<T>() {
  return <S extends Schema<unknown, unknown>>(schema: Tied<S, Disagreement<T, z.output<S>, 'response'>>) =>
    schema as unknown as Schema<T, unknown>;
}

/**
 * A request schema tied to the public parameters interface it checks:
 * `paramsTypedAs<TransferCreateParams>()(z.strictObject({ ... }))` compiles
 * only when what the schema accepts (its input) is `T`, field by field, with
 * no open enum. Returns the schema as it is: `validate` gives its output,
 * the body sent.
 */
export function paramsTypedAs<T>() {
  return <S extends Schema<unknown, unknown>>(schema: Tied<S, Disagreement<T, z.input<S>, 'request'>>) => schema as S;
}

/**
 * The schema's own type when its interface agrees with it, else one object
 * keyed by each disagreeing field, which the compiler prints as the type the
 * argument should have had: `{ "items[].price": Disagrees<"the types differ", number, string> }`.
 */
type Tied<S, D> = [D] extends [never]
  ? S
  : {
      [M in D as M extends Mismatch<infer At, string, unknown, unknown> ? At : never]: M extends Mismatch<
        string,
        infer Why,
        infer I,
        infer T
      >
        ? Disagrees<Why, I, T>
        : never;
    };

/**
 * How a hand-written interface `I` and a schema's type `S` disagree, one
 * object per disagreement naming the field (`items[].price`), or `never` when
 * they agree: the same keys, each optional on both sides or neither, `null`
 * and `undefined` allowed on both sides or neither, nested objects and array
 * items compared the same way, and any other type identical on both sides,
 * with two exceptions for responses. A known-values union (`ChargeStatus`)
 * agrees with the schema's `string` (an open enum: a value the service adds
 * later still parses), and the fields a `looseObject` keeps beyond its own
 * (its `unknown` index signature) are left out of the interface. Requests
 * have no exception: the interface is what the schema accepts.
 */
type Disagreement<I, S, Rule extends 'response' | 'request', At extends string = ''> =
  | NullishDisagreement<I, S, null, 'null', At>
  | NullishDisagreement<I, S, undefined, 'undefined', At>
  | ValueDisagreement<Exclude<I, null | undefined>, Exclude<S, null | undefined>, Rule, At>;

/**
 * One disagreement: the field as a path (`customer_details.name`,
 * `items[].price`, empty for the whole object), why, and both types.
 */
interface Mismatch<At extends string, Why extends string, I, S> {
  field: At;
  why: Why;
  interface: I;
  schema: S;
}

/** What the compiler prints for one field: why it disagrees, the interface's type, the schema's type. */
interface Disagrees<Why extends string, InInterface, InSchema> {
  why: Why;
  interface: InInterface;
  schema: InSchema;
}

type NullishDisagreement<I, S, N, Name extends string, At extends string> = [N] extends [I]
  ? [N] extends [S]
    ? never
    : Mismatch<At, `the interface allows ${Name}, the schema does not`, I, S>
  : [N] extends [S]
    ? Mismatch<At, `the schema allows ${Name}, the interface does not`, I, S>
    : never;

type ValueDisagreement<I, S, Rule extends 'response' | 'request', At extends string> =
  Identical<I, S> extends true
    ? never
    : [I, S] extends [readonly (infer IItem)[], readonly (infer SItem)[]]
      ? Disagreement<IItem, SItem, Rule, `${At}[]`>
      : [I, S] extends [object, object]
        ? ObjectDisagreement<I, S, Rule, At>
        : [Rule, I, Identical<S, string>] extends ['response', string, true]
          ? never // an open enum: the interface's union names the known values of the schema's string
          : Mismatch<At, 'the types differ', I, S>;

type ObjectDisagreement<I, S, Rule extends 'response' | 'request', At extends string> =
  | {
      [K in Exclude<NamedKeys<I>, NamedKeys<S>>]: Mismatch<Field<At, K>, 'in the interface only', I[K], never>;
    }[Exclude<NamedKeys<I>, NamedKeys<S>>]
  | { [K in Exclude<NamedKeys<S>, NamedKeys<I>>]: Mismatch<Field<At, K>, 'in the schema only', never, S[K]> }[Exclude<
      NamedKeys<S>,
      NamedKeys<I>
    >]
  | {
      [K in NamedKeys<I> & NamedKeys<S>]: IsOptional<I, K> extends IsOptional<S, K>
        ? Disagreement<I[K], S[K], Rule, Field<At, K>>
        : Mismatch<
            Field<At, K>,
            IsOptional<I, K> extends true ? 'optional in the interface only' : 'optional in the schema only',
            I[K],
            S[K]
          >;
    }[NamedKeys<I> & NamedKeys<S>]
  | IndexDisagreement<I, S, Rule, At>;

/**
 * Index signatures: on both sides or neither, with values that agree. A
 * response's `looseObject` has one for the fields it keeps beyond its own,
 * which are not part of the closed interface: it does not count. (A schema
 * with no named field at all, a JSON record, keeps its own.)
 */
type IndexDisagreement<I, S, Rule extends 'response' | 'request', At extends string> =
  HasIndex<I, 'request'> extends HasIndex<S, Rule>
    ? HasIndex<I, 'request'> extends true
      ? Disagreement<I[string & keyof I], S[string & keyof S], Rule, `${At}[string]`>
      : never
    : Mismatch<
        At,
        HasIndex<I, 'request'> extends true
          ? 'an index signature in the interface only'
          : 'an index signature in the schema only',
        I,
        S
      >;

type HasIndex<T, Rule extends 'response' | 'request'> = string extends keyof T
  ? [Rule, [NamedKeys<T>] extends [never] ? false : true, unknown extends T[string & keyof T] ? true : false] extends [
      'response',
      true,
      true,
    ]
    ? false // a looseObject's kept fields: at run time only
    : true
  : false;

type Identical<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type NamedKey<K> = string extends K ? never : number extends K ? never : symbol extends K ? never : K;
type NamedKeys<T> = keyof { [K in keyof T as NamedKey<K>]: unknown } & string;
type IsOptional<T, K extends keyof T> = Pick<T, K> extends Required<Pick<T, K>> ? false : true;
type Field<At extends string, K extends string> = At extends '' ? K : `${At}.${K}`;

/** A field the service may omit or send as null. */
export function maybe<Out, In>(schema: Schema<Out, In>): z.ZodMiniOptional<z.ZodMiniNullable<Schema<Out, In>>> {
  return z.optional(z.nullable(schema));
}

/** Any JSON object, every field kept: for resources the service leaves unspecified. */
export const jsonObject: Schema<Record<string, unknown>> = z.record(z.string(), z.unknown());
