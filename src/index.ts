/**
 * lunas: the typed SDK for the lunas payments service.
 *
 * @example
 * ```ts
 * import { Client } from 'lunas-sdk';
 *
 * const client = new Client({ apiKey: process.env.LUNAS_API_KEY, baseURL: 'https://api.example.com' });
 * const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
 * for await (const transfer of client.transfers.list({ pagesize: 100 })) console.log(transfer.id);
 * ```
 *
 * @module lunas-sdk
 */
export { Client, type ClientOptions } from './client.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type FieldErrors,
  InternalServerError,
  LunasError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseBodyError,
  type ResponseBodyProblem,
  type ResponseIssue,
  ResponseValidationError,
  UnprocessableEntityError,
} from './core/report/errors.js';
export type { Logger, LogLevel } from './core/report/log.js';
export type { PageEnvelope } from './core/wire/envelope.js';
export type { ListParams } from './core/lists/list-spec.js';
export { NewestFirstPagePromise, Page, PagePromise } from './core/lists/page.js';
export { SinceWalk } from './core/lists/since.js';
export type { RequestOptions } from './core/checks/options.js';
export type { ClientEventListener, ClientEvents, RequestEvent, ResponseEvent } from './core/report/events.js';
export { type GetOptions, getResponseInfo, type PostOptions, type QueryParams } from './core/call/request.js';
export type { ResponseInfo, StandardIssue, StandardResult, StandardSchema } from './core/types.js';
export {
  ATTEMPT_CHANNEL,
  type AttemptContext,
  OPERATION_CHANNEL,
  type OperationContext,
} from './core/report/tracing.js';
export {
  type Charge,
  type ChargeCreateParams,
  type ChargeItem,
  Charges,
  type ChargeStatus,
  type CreatedCharge,
  type CreatedChargePaymentMethodOptions,
  type CustomerDetails,
  type PaymentMethodType,
  type VirtualAccountDetails,
} from './resources/charges.js';
export { type PaymentMethod, PaymentMethods } from './resources/payment-methods.js';
export { type Payout, Payouts } from './resources/payouts.js';
export { type Transfer, type TransferCreateParams, Transfers, type TransferStatus } from './resources/transfers.js';
export { idempotencyKeyFor } from './idempotency-key.js';
export { VERSION } from './version.js';
export {
  CHARGE_EVENT_TYPES,
  type ChargeEvent,
  type ChargeEventData,
  type ChargeEventType,
  EventValidationError,
  isChargeEvent,
  type LunasEvent,
  parseEvent,
  type UnknownEvent,
  type WebhookBody,
  type WebhookConfirmation,
  Webhooks,
} from './webhooks.js';
