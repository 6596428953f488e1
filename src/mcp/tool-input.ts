/**
 * A tool's input schema as MCP servers take it (a Standard Schema that also
 * converts to JSON Schema, "Standard JSON Schema"), made from the SDK's own
 * request schema: what `tools/list` advertises is that schema's JSON Schema,
 * and what checks the arguments is that schema too, run by the SDK method the
 * tool calls. No field is typed twice, so a tool cannot accept what the
 * method refuses, nor advertise a field the method does not have.
 *
 * The arguments pass through `validate` unchanged (an object is all it asks):
 * the method then checks them, and a refusal is the SDK's own
 * `RequestValidationError`, with its message and field map, which the tool
 * returns as a tool error. Checked here instead, a refusal would reach the
 * agent as the MCP server's one-line summary of the issues, without the map.
 */
import * as z from 'zod/mini';
import type { Schema } from '../core/checks/schemas.js';

/** The JSON Schema dialect MCP tool schemas are written in. */
type JsonSchemaTarget = 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (object & string);

/** One JSON Schema object, as zod writes it. */
type JsonSchema = Record<string, unknown>;

/** The Standard (JSON) Schema of a tool's arguments: `Args` is what the handler receives. */
export interface ToolInput<Args> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'lunas';
    readonly validate: (
      value: unknown,
    ) => { readonly value: Args; readonly issues?: undefined } | { readonly issues: readonly { message: string }[] };
    readonly jsonSchema: {
      readonly input: (options: { readonly target: JsonSchemaTarget }) => JsonSchema;
      readonly output: (options: { readonly target: JsonSchemaTarget }) => JsonSchema;
    };
    readonly types?: { readonly input: Args; readonly output: Args } | undefined;
  };
}

/**
 * The input schema of a tool whose arguments `schema` checks. The JSON
 * Schema is what `schema` accepts (its input side: money as a number or a
 * string, a time as a string), written once, on the first `tools/list`.
 */
export function toolInput<Args extends object>(schema: Schema<unknown, Args>): ToolInput<Args> {
  let written: JsonSchema | undefined;
  const jsonSchema = () => (written ??= acceptedJson(schema));
  return {
    '~standard': {
      version: 1,
      vendor: 'lunas',
      validate: (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { value: value as Args }
          : { issues: [{ message: 'The arguments must be a JSON object' }] },
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}

/**
 * What `schema` accepts, as JSON Schema (draft 2020-12). A `Date`, which JSON
 * cannot carry, is left out where a string stands beside it (`expires_at`
 * takes either); refinements and transforms, which JSON Schema cannot say,
 * are checked by the SDK when the tool runs.
 */
function acceptedJson(schema: Schema<unknown, unknown>): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
  return withoutAnyBranches(json) as JsonSchema;
}

/**
 * `node` with every empty schema (`{}`, what zod writes for a type JSON
 * Schema has no word for) taken out of each `anyOf`, and an `anyOf` left
 * with one member replaced by it.
 */
function withoutAnyBranches(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutAnyBranches);
  if (typeof node !== 'object' || node === null) return node;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) result[key] = withoutAnyBranches(value);
  const branches = result.anyOf;
  if (!Array.isArray(branches)) return result;
  const kept = branches.filter((branch) => Object.keys(branch as object).length > 0);
  const { anyOf: _anyOf, ...rest } = result;
  return kept.length === 1 ? { ...rest, ...(kept[0] as object) } : { ...rest, anyOf: kept };
}
