/**
 * Caller parameters checked against a request schema, and schema issues as
 * the service's field map (`customer_details.email` to messages), so a
 * refusal before sending reads like the service's own `fail` answer.
 */
import type * as z from 'zod/mini';
import { describeValue } from './describe-value.js';
import { addFieldMessages, type FieldErrors, RequestValidationError } from './errors.js';
import type { Schema } from './schema.js';

/** Zod issues as the service's field map: dotted path to messages. */
function issuesToFields(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  const add = (path: readonly PropertyKey[], message: string) => addFieldMessages(fields, dottedPath(path), [message]);
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], 'Unknown field');
    } else {
      add(issue.path, issue.message);
    }
  }
  return fields;
}

/** `customer_details.email`, from a path of keys or of Standard Schema segments holding keys. */
export function dottedPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  return path.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
}

/**
 * Parses caller parameters with a request schema, or throws
 * `RequestValidationError`. Parameters are an object: anything else (`null`
 * from JavaScript included) is refused under the field `params`.
 */
export function validate<T>(schema: Schema<T, unknown>, input: unknown): T {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new RequestValidationError({ params: [`Parameters must be an object (got ${describeValue(input)})`] });
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestValidationError(issuesToFields(result.error.issues));
  return result.data;
}
