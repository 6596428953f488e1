/**
 * The tools: one row per tool, each one SDK call. A row says what the agent
 * reads (name, a short description: every word costs the agent context),
 * what it sends (the input schema, made from the SDK method's own), whether
 * it only reads, whether it is served against a sandbox only, and, for the
 * two that move money, how the amount is read for `maxAmount` and how the
 * movement is put to the person who confirms it in live mode.
 *
 * A tool makes exactly one SDK call, so the Idempotency-Key the SDK gives
 * that call (the same on every retry of it) is the tool call's own.
 */
import type { Client } from '../client.js';
import { listParams, type ListParams } from '../core/lists/list-spec.js';
import type { RequestOptions } from '../core/checks/options.js';
import type { PagePromise } from '../core/lists/page.js';
import { path, type ResourcePath } from '../core/call/request.js';
import * as z from 'zod/mini';
import { addFieldMessages, RequestValidationError, type FieldErrors } from '../core/report/errors.js';
import { checkRequestOptions } from '../core/checks/options.js';
import { intParam, textParam, validate, type Schema } from '../core/checks/schemas.js';
import { chargeCreateParams, type ChargeCreateParams } from '../resources/charges.js';
import { transferCreateParams, type TransferCreateParams } from '../resources/transfers.js';
import { normalizeMoney } from '../shared/money.js';
import { toolInput, type ToolInput } from './tool-input.js';

/**
 * The name of a tool `lunas-mcp` serves. The five `sandbox_` tools act on a
 * sandbox only, and are never served in live mode.
 * @category MCP
 */
export type McpToolName =
  | 'charges_create'
  | 'charges_retrieve'
  | 'charges_list'
  | 'transfers_create'
  | 'transfers_list'
  | 'payouts_list'
  | 'payment_methods_list'
  | 'sandbox_charges_pay'
  | 'sandbox_charges_fail'
  | 'sandbox_charges_expire'
  | 'sandbox_clock_advance'
  | 'sandbox_accounts_list';

/** What a money-moving tool is about to send, read from its checked arguments. */
export interface Movement {
  /** The amount, exactly, with two decimals: `"150000.00"`. */
  readonly amount: string;
  /** The currency, lower case: `idr`. */
  readonly currency: string;
  /** A transfer's destination account, as the agent gave it. */
  readonly destination?: string | undefined;
  /** A charge's payment method. */
  readonly paymentMethod?: string | undefined;
  /** The `client_reference_id`, as the agent gave it. */
  readonly reference?: string | undefined;
  /** The agent's `idempotency_key`, checked as the SDK checks its `idempotencyKey` option. */
  readonly idempotencyKey: string | undefined;
  /** The SDK method's parameters: the arguments without `idempotency_key`. */
  readonly params: Record<string, unknown>;
}

/** One tool. */
export interface ToolSpec {
  /** What the agent calls it by. */
  readonly name: McpToolName;
  /** What the agent reads of it: one or two short sentences. */
  readonly description: string;
  /** Its input schema: the SDK method's own, or, for an id or a duration, one of the same kind. */
  readonly input: ToolInput<Record<string, unknown>>;
  /** Reads only: nothing changes at the service. */
  readonly readOnly: boolean;
  /** Acts on a sandbox's control surface: never served in live mode. */
  readonly sandboxOnly: boolean;
  /**
   * For the tools that move money: the arguments checked by the SDK's own
   * schema, and `idempotency_key` by the SDK's rule for its option (a refusal
   * is one `RequestValidationError` for both), and read as what moves.
   */
  readonly moves?: (args: Record<string, unknown>) => Movement;
  /** The one SDK call; its result is an object (a list's page as `{ data, page, … }`). */
  readonly call: (client: Client, args: Record<string, unknown>, options: RequestOptions) => Promise<object>;
}

/** A charge's id, checked by the SDK's path rules (not empty, `.` or `..`) when the call is made. */
const idArgs = z.strictObject({ id: textParam('ID') });
const noArgs = z.strictObject({});
const advanceArgs = z.strictObject({
  ms: intParam('ms must be a whole number of milliseconds of at least 1', 1),
});

/** One page of a list, with what an agent needs to ask for the next. */
async function pageOf<T>(list: PagePromise<T>): Promise<object> {
  const page = await list;
  const { data, page: number, page_size, total_items } = page;
  return { data, page: number, page_size, total_items, has_more: page.hasNextPage() };
}

/** The amount exactly, with two decimals (no rounding, no float). */
function exactly(amount: number): string {
  // The schema's output is a number whose literal is the amount exactly: normalizeMoney reads that literal.
  return normalizeMoney(amount) ?? String(amount);
}

/** What the agent reads of `idempotency_key` in a money tool's input schema. */
const KEY_DESCRIPTION =
  'Optional; 1 to 255 visible ASCII characters. To retry a call whose outcome is unknown, call again with ' +
  'the same arguments and the idempotency_key its error names: the same key and arguments never move money twice.';

/** A money tool's input schema: the SDK method's, and `idempotency_key`. */
function moneyInput(schema: Schema<unknown, Record<string, unknown>>): ToolInput<Record<string, unknown>> {
  const withKey = z.extend(schema as unknown as z.ZodMiniObject, {
    idempotency_key: z.optional(z.string().register(z.globalRegistry, { description: KEY_DESCRIPTION })),
  });
  return toolInput(withKey as unknown as Schema<unknown, Record<string, unknown>>);
}

/**
 * A money tool's arguments checked: the method's parameters by its schema
 * (an unknown field named with the closest, `idempotency_key` among them),
 * and `idempotency_key` by the SDK's rule for its `idempotencyKey` option,
 * its problem filed under the argument's name. One refusal for both.
 */
function moneyArgs<T>(
  schema: Schema<T, unknown>,
  args: Record<string, unknown>,
): { parsed: T; params: Record<string, unknown>; idempotencyKey: string | undefined } {
  const { idempotency_key: key, ...params } = args;
  const fields: FieldErrors = {};
  let parsed: T | undefined;
  try {
    parsed = validate(
      z.extend(schema as unknown as z.ZodMiniObject, { idempotency_key: z.optional(z.unknown()) }) as unknown as Schema<
        T,
        unknown
      >,
      args,
    );
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    for (const [field, messages] of Object.entries(error.fields)) addFieldMessages(fields, field, messages);
  }
  if (key !== undefined) {
    try {
      checkRequestOptions({ idempotencyKey: key });
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      addFieldMessages(fields, 'idempotency_key', Object.values(error.fields).flat());
    }
  }
  if (Object.keys(fields).length > 0 || parsed === undefined) throw new RequestValidationError(fields);
  return { parsed, params, idempotencyKey: key as string | undefined };
}

/**
 * A sandbox control on the charge `id`: a POST to the sandbox's control
 * surface (`/_sandbox/charges/:id/pay`), the same for its own sandbox and one
 * at `--url`; it answers with the charge.
 */
function control(route: (id: string) => ResourcePath) {
  return async (client: Client, args: Record<string, unknown>, options: RequestOptions) => {
    const { id } = validate(idArgs, args);
    return (await client.post(`/${route(id).relative}`, options)) as object;
  };
}

const listInput = toolInput(listParams as Schema<unknown, Record<string, unknown>>);
const idInput = toolInput(idArgs as Schema<unknown, Record<string, unknown>>);

/** Every tool, in the order `tools/list` gives them. */
export const TOOLS: readonly ToolSpec[] = [
  {
    name: 'charges_create',
    description:
      'Create a payment charge: payment_method qris or virtual_account, amount in rupiah (25000 is Rp 25.000). ' +
      'Returns the charge with payment_url, and qr_code_url for qris.',
    input: moneyInput(chargeCreateParams as Schema<unknown, Record<string, unknown>>),
    readOnly: false,
    sandboxOnly: false,
    moves(args) {
      const { parsed, params, idempotencyKey } = moneyArgs(chargeCreateParams, args);
      return {
        amount: exactly(parsed.amount),
        currency: (parsed.currency ?? 'idr').toLowerCase(),
        paymentMethod: parsed.payment_method,
        reference: parsed.client_reference_id,
        idempotencyKey,
        params,
      };
    },
    call: (client, args, options) => client.charges.create(args as unknown as ChargeCreateParams, options),
  },
  {
    name: 'charges_retrieve',
    description: 'Get a charge by id; status is pending, success or failed.',
    input: idInput,
    readOnly: true,
    sandboxOnly: false,
    call: (client, args, options) => client.charges.retrieve(validate(idArgs, args).id, options),
  },
  {
    name: 'charges_list',
    description: 'List charges, newest first: one page (pagesize up to 100).',
    input: listInput,
    readOnly: true,
    sandboxOnly: false,
    call: (client, args, options) => pageOf(client.charges.list(args as ListParams, options)),
  },
  {
    name: 'transfers_create',
    description:
      'Move money from your account to another account of the platform: destination_account_id, amount in ' +
      'rupiah, currency idr. Instant and final.',
    input: moneyInput(transferCreateParams as Schema<unknown, Record<string, unknown>>),
    readOnly: false,
    sandboxOnly: false,
    moves(args) {
      const { parsed, params, idempotencyKey } = moneyArgs(transferCreateParams, args);
      return {
        amount: exactly(parsed.amount),
        currency: parsed.currency.toLowerCase(),
        destination: parsed.destination_account_id,
        reference: parsed.client_reference_id,
        idempotencyKey,
        params,
      };
    },
    call: (client, args, options) => client.transfers.create(args as unknown as TransferCreateParams, options),
  },
  {
    name: 'transfers_list',
    description: 'List transfers, newest first: one page (pagesize up to 100).',
    input: listInput,
    readOnly: true,
    sandboxOnly: false,
    call: (client, args, options) => pageOf(client.transfers.list(args as ListParams, options)),
  },
  {
    name: 'payouts_list',
    description: 'List payouts to bank accounts: one page (pagesize up to 100).',
    input: listInput,
    readOnly: true,
    sandboxOnly: false,
    call: (client, args, options) => pageOf(client.payouts.list(args as ListParams, options)),
  },
  {
    name: 'payment_methods_list',
    description: 'List the payment methods available: one page (pagesize up to 100).',
    input: listInput,
    readOnly: true,
    sandboxOnly: false,
    call: (client, args, options) => pageOf(client.paymentMethods.list(args as ListParams, options)),
  },
  {
    name: 'sandbox_charges_pay',
    description: 'Sandbox only: the customer pays a pending charge (it becomes success).',
    input: idInput,
    readOnly: false,
    sandboxOnly: true,
    call: control((id) => path`/_sandbox/charges/${id}/pay`),
  },
  {
    name: 'sandbox_charges_fail',
    description: "Sandbox only: the customer's payment of a pending charge fails (it becomes failed).",
    input: idInput,
    readOnly: false,
    sandboxOnly: true,
    call: control((id) => path`/_sandbox/charges/${id}/fail`),
  },
  {
    name: 'sandbox_charges_expire',
    description: 'Sandbox only: a pending charge expires now (it becomes failed).',
    input: idInput,
    readOnly: false,
    sandboxOnly: true,
    call: control((id) => path`/_sandbox/charges/${id}/expire`),
  },
  {
    name: 'sandbox_clock_advance',
    description: "Sandbox only: move the sandbox's clock forward by ms; pending charges past expires_at fail.",
    input: toolInput(advanceArgs as Schema<unknown, Record<string, unknown>>),
    readOnly: false,
    sandboxOnly: true,
    async call(client, args, options) {
      const body = validate(advanceArgs, args);
      const events = await client.post('/_sandbox/clock/advance', { ...options, body });
      return { events };
    },
  },
  {
    name: 'sandbox_accounts_list',
    description:
      "Sandbox only: the sandbox's accounts, with their holders' names, balances and whether they are active.",
    input: toolInput(noArgs as Schema<unknown, Record<string, unknown>>),
    readOnly: true,
    sandboxOnly: true,
    async call(client, args, options) {
      validate(noArgs, args);
      return { data: await client.get('/_sandbox/accounts', options) };
    },
  },
];

/** Every tool's name, in the table's order. */
export const TOOL_NAMES: readonly McpToolName[] = TOOLS.map((tool) => tool.name);
