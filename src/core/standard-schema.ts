/**
 * The Standard Schema interface (standardschema.dev), which zod, valibot and
 * arktype schemas all implement: declared here so raw calls accept any of
 * them without lunas's declarations depending on one library's types.
 */

/**
 * A schema of any library that implements Standard Schema v1 (zod, valibot, arktype...).
 * @category Client
 */
export interface StandardSchema<Output = unknown> {
  /** The library-neutral entry point every Standard Schema carries. */
  readonly '~standard': {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The library that made the schema, e.g. `zod`. */
    readonly vendor: string;
    /** Checks a value; may answer asynchronously. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Carries the output type for inference; absent at run time. */
    readonly types?:
      | {
          /** The type the schema accepts. */
          readonly input: unknown;
          /** The type the schema produces: what `client.get` resolves to. */
          readonly output: Output;
        }
      | undefined;
  };
}

/**
 * What a Standard Schema's `validate` answers: a value, or the issues found.
 * @category Client
 */
export type StandardResult<Output> =
  | {
      /** The checked value, possibly transformed by the schema. */
      readonly value: Output;
      /** Absent on success. */
      readonly issues?: undefined;
    }
  | {
      /** Every problem found; the value is refused. */
      readonly issues: readonly StandardIssue[];
    };

/**
 * One problem a Standard Schema found.
 * @category Client
 */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where: keys, or segments holding a key. */
  readonly path?:
    | readonly (
        | PropertyKey
        | {
            /** The key of this segment. */
            readonly key: PropertyKey;
          }
      )[]
    | undefined;
}
