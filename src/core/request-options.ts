import { RequestValidationError } from './errors.js';
import { optionValueProblems } from './option-checks.js';
import { optionNames, readOptionsObject } from './option-names.js';

/**
 * Options accepted by every method as its last argument. Any other name
 * (`idempotency_key`, `maxRetry`) rejects with `RequestValidationError`,
 * naming the closest one, before anything is sent.
 *
 * @example
 * ```ts
 * await client.transfers.create(params, { idempotencyKey: `invoice-${invoice.id}`, timeout: 10_000 });
 * ```
 * @category Client
 */
export interface RequestOptions {
  /**
   * The Idempotency-Key of a POST. Defaults to a fresh UUID per call; pass your
   * own (one per business operation, e.g. per invoice) to make retries of the
   * whole operation safe across processes and restarts.
   */
  idempotencyKey?: string | undefined;
  /** Per-attempt timeout in ms; overrides the client's `timeout`. */
  timeout?: number | undefined;
  /** Retries after the first attempt; overrides the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Aborts the call, including any wait between retries. */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** The names of {@link RequestOptions}; the compiler keeps it in step with the interface. */
const REQUEST_OPTION_NAMES = optionNames<RequestOptions>({
  idempotencyKey: 0,
  timeout: 0,
  maxRetries: 0,
  signal: 0,
  headers: 0,
});

/**
 * The per-call options as given, checked by name and by value; unknown or
 * malformed ones are refused before anything is sent. `null` counts as no
 * options, like `undefined`: JavaScript callers pass it for "nothing", and it
 * holds nothing that could be lost. `extra` names the options a raw call adds
 * (`query`, `body`, `schema`), returned unchecked for their own checks.
 */
export function checkRequestOptions<E extends string = never>(
  options: unknown,
  extra: readonly E[] = [],
): RequestOptions & { [P in E]?: unknown } {
  const { values, problems } = readOptionsObject(options, [...REQUEST_OPTION_NAMES, ...extra], 'Options');
  const { headers, timeout, maxRetries, idempotencyKey, signal } = values;
  Object.assign(problems, optionValueProblems({ headers, timeout, maxRetries, idempotencyKey, signal }));
  if (Object.keys(problems).length > 0) throw new RequestValidationError(problems);
  return values as RequestOptions & { [P in E]?: unknown };
}
