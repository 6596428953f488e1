/**
 * The public shapes of a call that several stages of the core read, declared
 * at its top, below every stage, so that none of them imports the module that
 * builds them: the {@link StandardSchema} a raw call is given (read by the
 * envelope and the retry loop too), and the {@link ResponseInfo} kept beside
 * each result (built by the retry loop, handed on by pages and the request
 * primitive).
 */
/**
 * A schema of any library that implements Standard Schema v1
 * (standardschema.dev: zod, valibot, arktype...), declared here so raw calls
 * accept any of them without lunas's declarations depending on one library's types.
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

/**
 * What lunas knows about the HTTP exchange behind a result: see {@link getResponseInfo}.
 * @category Client
 */
export interface ResponseInfo {
  /** HTTP status of the final attempt. */
  readonly status: number;
  /** Response headers of the final attempt. */
  readonly headers: Headers;
  /** The `x-request-id` header, when the service sent one. */
  readonly requestId: string | undefined;
  /** Number of attempts made, 1 when there was no retry. */
  readonly attempts: number;
  /** The Idempotency-Key sent, for POST calls. */
  readonly idempotencyKey: string | undefined;
}
