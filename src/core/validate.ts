/**
 * Caller parameters checked against a request schema, and schema issues as
 * the service's field map (`customer_details.email` to messages), so a
 * refusal before sending reads like the service's own `fail` answer.
 */
import type * as z from 'zod/mini';
import { describeValue } from './describe-value.js';
import { addFieldMessages, type FieldErrors, RequestValidationError } from './errors.js';
import { unknownFieldMessage } from './options.js';
import type { Schema } from './schema.js';

/**
 * Zod issues as the service's field map: dotted path to messages. An unknown
 * field gets the closest field of its object, as an unknown option does.
 */
function issuesToFields(issues: readonly z.core.$ZodIssue[], schema: SchemaNode): FieldErrors {
  const fields: FieldErrors = {};
  const add = (path: readonly PropertyKey[], message: string) => addFieldMessages(fields, dottedPath(path), [message]);
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      const known = fieldsAt(schema, issue.path);
      for (const key of issue.keys) add([...issue.path, key], unknownFieldMessage(key, known));
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
  if (!result.success) {
    throw new RequestValidationError(issuesToFields(result.error.issues, schema as unknown as SchemaNode));
  }
  return result.data;
}

/**
 * A zod/mini schema through its public `def`, as far as finding an object's
 * fields needs: an object's `shape` (and `catchall`), an array's `element`,
 * and the schema inside a wrapper (`innerType` of optional and nullable, `in`
 * of a pipe).
 */
interface SchemaNode {
  def: {
    type: string;
    shape?: Record<string, SchemaNode>;
    catchall?: SchemaNode;
    element?: SchemaNode;
    innerType?: SchemaNode;
    in?: SchemaNode;
  };
}

/** The schema inside optional, nullable and pipe wrappers, none of which changes an object's fields. */
function unwrapped(node: SchemaNode | undefined): SchemaNode | undefined {
  let at = node;
  while (at && (at.def.innerType ?? at.def.in)) at = at.def.innerType ?? at.def.in;
  return at;
}

/** The field names of the object at `path` in `schema`, in its order; none when the path leads to no object. */
function fieldsAt(schema: SchemaNode, path: readonly PropertyKey[]): string[] {
  let node = unwrapped(schema);
  for (const segment of path) {
    const def = node?.def;
    if (def?.type === 'array') node = unwrapped(def.element);
    else if (def?.shape && typeof segment === 'string')
      // Own fields only: `constructor` is no field of a shape, whatever its prototype says.
      node = unwrapped(Object.hasOwn(def.shape, segment) ? def.shape[segment] : def.catchall);
    else return [];
  }
  return node?.def.shape ? Object.keys(node.def.shape) : [];
}
