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
import { listParams, type ListParams } from '../core/list-spec.js';
import type { RequestOptions } from '../core/options.js';
import type { PagePromise } from '../core/page.js';
import { path, type ResourcePath } from '../core/request.js';
import * as z from 'zod/mini';
import { intParam, textParam, validate, type Schema } from '../core/schemas.js';
import { chargeCreateParams, type ChargeCreateParams } from '../resources/charges.js';
import { transferCreateParams, type TransferCreateParams } from '../resources/transfers.js';
import { normalizeMoney } from '../shared/money.js';
import { toolInput, type ToolInput } from './tool-input.js';

/**
 * The name of a tool `lunas-mcp` serves. The four `sandbox_` tools act on a
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
  | 'sandbox_clock_advance';

/** What a money-moving tool is about to send, read from its checked parameters. */
export interface Movement {
  /** The amount, exactly, with two decimals: `"150000.00"`. */
  amount: string;
  /** The sentence the person confirms: what moves, how much, where. */
  question: string;
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
   * schema (a refusal is its `RequestValidationError`) and read as what moves.
   */
  readonly moves?: (args: Record<string, unknown>) => Movement;
  /** The one SDK call; its result is an object (a list's page as `{ data, page, … }`). */
  readonly call: (client: Client, args: Record<string, unknown>, options: RequestOptions) => Promise<object>;
}

/** A charge's id, checked by the SDK's path rules (not empty, `.` or `..`) when the call is made. */
const idArgs = z.strictObject({ id: textParam('ID') });
const advanceArgs = z.strictObject({
  ms: intParam('ms must be a whole number of milliseconds of at least 1', 1),
});

/** One page of a list, with what an agent needs to ask for the next. */
async function pageOf<T>(list: PagePromise<T>): Promise<object> {
  const page = await list;
  const { data, page: number, page_size, total_items } = page;
  return { data, page: number, page_size, total_items, has_more: page.hasNextPage() };
}

/** `150000.00 IDR`: money as the person reads it, exactly (no rounding, no float). */
function shown(amount: number, currency: string | undefined): { exact: string; text: string } {
  // The schema's output is a number whose literal is the amount exactly: normalizeMoney reads that literal.
  const exact = normalizeMoney(amount) ?? String(amount);
  return { exact, text: `${exact} ${(currency ?? 'idr').toUpperCase()}` };
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
    input: toolInput(chargeCreateParams as Schema<unknown, Record<string, unknown>>),
    readOnly: false,
    sandboxOnly: false,
    moves(args) {
      const params = validate(chargeCreateParams, args);
      const { exact, text } = shown(params.amount, params.currency);
      const reference = params.client_reference_id === undefined ? '' : `, reference ${params.client_reference_id}`;
      return { amount: exact, question: `Create a ${params.payment_method} charge of ${text}${reference}?` };
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
    input: toolInput(transferCreateParams as Schema<unknown, Record<string, unknown>>),
    readOnly: false,
    sandboxOnly: false,
    moves(args) {
      const params = validate(transferCreateParams, args);
      const { exact, text } = shown(params.amount, params.currency);
      const reference = params.client_reference_id === undefined ? '' : ` (reference ${params.client_reference_id})`;
      return { amount: exact, question: `Transfer ${text} to account ${params.destination_account_id}${reference}?` };
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
];

/** Every tool's name, in the table's order. */
export const TOOL_NAMES: readonly McpToolName[] = TOOLS.map((tool) => tool.name);
