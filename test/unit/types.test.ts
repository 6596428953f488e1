/**
 * Type-level contract. The expectTypeOf assertions are checked by
 * `npm run typecheck` (tsc over test/); under `vitest run` only the runtime
 * expectations (class hierarchy, PagePromise, event narrowing) execute.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as zm from 'zod/mini';
import { z as zc } from 'zod';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  type Charge,
  type ChargeCreateParams,
  type ChargeEvent,
  type ChargeEventType,
  Client,
  ConflictError,
  type CreatedCharge,
  EventValidationError,
  InternalServerError,
  LunasError,
  type LunasEvent,
  NotFoundError,
  Page,
  PagePromise,
  type PaymentMethod,
  type Payout,
  PermissionDeniedError,
  RateLimitError,
  type RequestEvent,
  type RequestOptions,
  RequestValidationError,
  type ResponseEvent,
  ResponseValidationError,
  type StandardSchema,
  type Transfer,
  type TransferCreateParams,
  UnprocessableEntityError,
  type UnknownEvent,
  type WebhookConfirmation,
  getResponseInfo,
  isChargeEvent,
  parseEvent,
} from '../../src/index.js';

type ItemOf<T> = T extends AsyncIterable<infer U> ? U : never;
type Awaited_<T> = T extends PromiseLike<infer U> ? U : never;

describe('public types', () => {
  it('list methods return PagePromise<T>, awaiting gives Page<T>, for await yields T', () => {
    expectTypeOf<Client['charges']['list']>().returns.toEqualTypeOf<PagePromise<Charge>>();
    expectTypeOf<Client['transfers']['list']>().returns.toEqualTypeOf<PagePromise<Transfer>>();
    expectTypeOf<Client['payouts']['list']>().returns.toEqualTypeOf<PagePromise<Payout>>();
    expectTypeOf<Client['paymentMethods']['list']>().returns.toEqualTypeOf<PagePromise<PaymentMethod>>();

    expectTypeOf<ItemOf<PagePromise<Charge>>>().toEqualTypeOf<Charge>();
    expectTypeOf<ItemOf<PagePromise<Transfer>>>().toEqualTypeOf<Transfer>();
    expectTypeOf<ItemOf<Page<Payout>>>().toEqualTypeOf<Payout>();
    expectTypeOf<Awaited_<PagePromise<Charge>>>().toEqualTypeOf<Page<Charge>>();

    expectTypeOf<Page<Charge>['data']>().toEqualTypeOf<Charge[]>();
    expectTypeOf<Page<Charge>['page']>().toEqualTypeOf<number>();
    expectTypeOf<Page<Charge>['page_size']>().toEqualTypeOf<number>();
    expectTypeOf<Page<Charge>['total_items']>().toEqualTypeOf<number>();
    expectTypeOf<Page<Charge>['hasNextPage']>().returns.toEqualTypeOf<boolean>();
    expectTypeOf<Page<Charge>['getNextPage']>().returns.toEqualTypeOf<Promise<Page<Charge>>>();
    expectTypeOf<ItemOf<ReturnType<Page<Charge>['iterPages']>>>().toEqualTypeOf<Page<Charge>>();

    // A function that is type-checked, not run: `for await` over list() yields Charge.
    async function walk(client: Client) {
      for await (const charge of client.charges.list({ pagesize: 100 })) {
        expectTypeOf(charge).toEqualTypeOf<Charge>();
        expectTypeOf(charge.amount).toEqualTypeOf<string>();
      }
      const page = await client.charges.list();
      expectTypeOf(page).toEqualTypeOf<Page<Charge>>();
    }
    void walk;
    expect(PagePromise.prototype).toBeInstanceOf(Promise);
  });

  it('create returns Promise<CreatedCharge> / Promise<Transfer>; retrieve Promise<Charge>', () => {
    expectTypeOf<Client['charges']['create']>().returns.toEqualTypeOf<Promise<CreatedCharge>>();
    expectTypeOf<Client['charges']['retrieve']>().returns.toEqualTypeOf<Promise<Charge>>();
    expectTypeOf<Client['transfers']['create']>().returns.toEqualTypeOf<Promise<Transfer>>();
    expectTypeOf<Client['charges']['create']>().parameter(0).toEqualTypeOf<ChargeCreateParams>();
    expectTypeOf<Client['transfers']['create']>().parameter(0).toEqualTypeOf<TransferCreateParams>();
    expectTypeOf<Client['charges']['retrieve']>().parameter(0).toEqualTypeOf<string>();

    expectTypeOf<CreatedCharge>().toExtend<Charge>();
    expectTypeOf<CreatedCharge['payment_url']>().toEqualTypeOf<string>();
    expectTypeOf<CreatedCharge['qr_code_url']>().toEqualTypeOf<string | undefined>();
  });

  it('open enums: known values autocomplete and unknown strings are accepted', () => {
    expectTypeOf<'pending'>().toExtend<Charge['status']>();
    expectTypeOf<'success'>().toExtend<Charge['status']>();
    expectTypeOf<'failed'>().toExtend<Charge['status']>();
    expectTypeOf<'refunded'>().toExtend<Charge['status']>();
    expectTypeOf<Charge['status']>().toEqualTypeOf<'pending' | 'success' | 'failed' | (string & {})>();
    expectTypeOf<Charge['payment_method']>().toEqualTypeOf<'qris' | 'virtual_account' | (string & {})>();
    expectTypeOf<Transfer['status']>().toEqualTypeOf<'succeeded' | 'failed' | (string & {})>();
    expectTypeOf<Charge['status']>().toExtend<string>();
    // Not widened to plain `string` (which would lose the autocompletion) nor to any/unknown.
    expectTypeOf<Charge['status']>().not.toEqualTypeOf<string>();
    expectTypeOf<Charge['status']>().not.toBeAny();
  });

  it('money fields are strings; timestamps strings; paid_at string | null', () => {
    expectTypeOf<Charge['amount']>().toEqualTypeOf<string>();
    expectTypeOf<Charge['fee']>().toEqualTypeOf<string>();
    expectTypeOf<Transfer['amount']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<Charge['items']>[number]['price']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<Charge['items']>[number]['quantity']>().toEqualTypeOf<number>();
    expectTypeOf<Charge['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<Charge['paid_at']>().toEqualTypeOf<string | null>();
    expectTypeOf<Charge['id']>().toEqualTypeOf<string>();
    expectTypeOf<Transfer['id']>().toEqualTypeOf<string>();
  });

  it('request params: money as number or string, expires_at as Date or string, wire names', () => {
    expectTypeOf<{ payment_method: 'qris'; amount: 10000 }>().toExtend<ChargeCreateParams>();
    expectTypeOf<{
      payment_method: 'virtual_account';
      amount: '10000.50';
      expires_at: Date;
    }>().toExtend<ChargeCreateParams>();
    expectTypeOf<{
      payment_method: 'qris';
      amount: 1;
      expires_at: string;
      client_reference_id: string;
    }>().toExtend<ChargeCreateParams>();
    expectTypeOf<{ payment_method: 'card'; amount: 1 }>().not.toExtend<ChargeCreateParams>();
    expectTypeOf<{ payment_method: 'qris'; amount: true }>().not.toExtend<ChargeCreateParams>();
    expectTypeOf<{ payment_method: 'qris' }>().not.toExtend<ChargeCreateParams>();
    expectTypeOf<{
      destination_account_id: string;
      amount: string;
      currency: string;
    }>().toExtend<TransferCreateParams>();
    expectTypeOf<{ destination_account_id: string; amount: number }>().not.toExtend<TransferCreateParams>();

    const good: ChargeCreateParams = {
      payment_method: 'virtual_account',
      amount: '25000.00',
      currency: 'idr',
      customer_details: { name: 'Siti', email: 'siti@example.com' },
      items: [{ name: 'Tea', price: 5000, quantity: 5 }],
      expires_at: new Date(),
      payment_method_options: { virtual_account: { account_name: 'Siti', account_number: null } },
    };
    // @ts-expect-error: clientReferenceId is not a wire name
    const camel: ChargeCreateParams = { payment_method: 'qris', amount: 1, clientReferenceId: 'x' };
    void good;
    void camel;
  });

  it('request options', () => {
    expectTypeOf<RequestOptions>().toEqualTypeOf<{
      idempotencyKey?: string;
      timeout?: number;
      maxRetries?: number;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    }>();
    expectTypeOf<Client['charges']['create']>().parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<Client['charges']['retrieve']>().parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<Client['charges']['list']>().parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<Client['transfers']['create']>().parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<Client['payouts']['list']>().parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<Client['paymentMethods']['list']>().parameter(1).toEqualTypeOf<RequestOptions | undefined>();
    expectTypeOf<Client['charges']['list']>()
      .parameter(0)
      .toEqualTypeOf<{ page?: number; pagesize?: number } | undefined>();
  });

  it('Payout and PaymentMethod are JSON objects', () => {
    expectTypeOf<Payout>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<PaymentMethod>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('unknown fields are reachable without a cast (index signature) on Charge and Transfer', () => {
    expectTypeOf<Charge>().toHaveProperty('id');
    expectTypeOf<Charge[string]>().toBeUnknown();
    expectTypeOf<Transfer[string]>().toBeUnknown();
  });

  it('error classes narrow with instanceof', () => {
    function handle(error: unknown): string {
      if (error instanceof RequestValidationError) {
        expectTypeOf(error.fields).toEqualTypeOf<Record<string, string[]>>();
        return 'request';
      }
      if (error instanceof BadRequestError) {
        expectTypeOf(error.fields).toEqualTypeOf<Record<string, string[]>>();
        expectTypeOf(error.status).toEqualTypeOf<number>();
        return 'bad';
      }
      if (error instanceof APIError) {
        expectTypeOf(error.status).toEqualTypeOf<number>();
        expectTypeOf(error.body).toBeUnknown();
        expectTypeOf(error.headers).toEqualTypeOf<Headers>();
        expectTypeOf(error.requestId).toEqualTypeOf<string | undefined>();
        return 'api';
      }
      if (error instanceof ResponseValidationError) {
        expectTypeOf(error.path).toEqualTypeOf<string>();
        expectTypeOf(error.body).toEqualTypeOf<string>();
        return 'response';
      }
      if (error instanceof LunasError) return 'lunas';
      return 'other';
    }
    expect(handle(new RequestValidationError({ amount: ['x'] }))).toBe('request');
    expect(handle(new Error('x'))).toBe('other');

    for (const Class of [
      BadRequestError,
      AuthenticationError,
      PermissionDeniedError,
      NotFoundError,
      ConflictError,
      UnprocessableEntityError,
      RateLimitError,
      InternalServerError,
    ]) {
      expect(Class.prototype).toBeInstanceOf(APIError);
    }
    expect(APIConnectionTimeoutError.prototype).toBeInstanceOf(APIConnectionError);
    for (const Class of [
      APIError,
      APIConnectionError,
      APIUserAbortError,
      RequestValidationError,
      ResponseValidationError,
      EventValidationError,
    ]) {
      expect(Class.prototype).toBeInstanceOf(LunasError);
    }
  });

  it('webhook events narrow with isChargeEvent, then by type', () => {
    function amountOf(event: LunasEvent): string | undefined {
      if (isChargeEvent(event)) {
        expectTypeOf(event).toEqualTypeOf<ChargeEvent>();
        expectTypeOf(event.data).toEqualTypeOf<Charge>();
        expectTypeOf(event.type).toEqualTypeOf<ChargeEventType>();
        if (event.type === 'payment_charge.succeeded') {
          expectTypeOf(event.type).toEqualTypeOf<'payment_charge.succeeded'>();
          return event.data.amount;
        }
        return undefined;
      }
      expectTypeOf(event).toEqualTypeOf<UnknownEvent>();
      expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
      expectTypeOf(event.type).toEqualTypeOf<string>();
      return undefined;
    }
    expectTypeOf(isChargeEvent).guards.toEqualTypeOf<ChargeEvent>();
    expectTypeOf(parseEvent).returns.toEqualTypeOf<LunasEvent>();
    expectTypeOf(parseEvent).parameter(0).toEqualTypeOf<string | Uint8Array | object>();
    const parsed = parseEvent({
      id: 'evt_1',
      type: 'payment_charge.succeeded',
      created_at: '2026-11-23T03:00:00Z',
      data: {
        id: 'ch_1',
        payment_method: 'qris',
        status: 'success',
        currency: 'idr',
        amount: 5,
        fee: 0,
        expires_at: '2026-11-23T04:00:00Z',
        created_at: '2026-11-23T03:00:00Z',
        updated_at: '2026-11-23T03:00:00Z',
      },
    });
    expect(amountOf(parsed)).toBe('5.00');
  });
});

describe('raw calls, events, toArray and webhooks.confirm', () => {
  it('client.get and client.post: unknown without a schema, the schema’s output with one', () => {
    async function calls(client: Client) {
      expectTypeOf(client.get('/v1/payouts')).toEqualTypeOf<Promise<unknown>>();
      expectTypeOf(client.get('/v1/payouts', { query: { page: 1 }, timeout: 5_000 })).toEqualTypeOf<Promise<unknown>>();
      expectTypeOf(client.post('/v1/transfers', { body: {}, idempotencyKey: 'k' })).toEqualTypeOf<Promise<unknown>>();

      const mini = zm.object({ id: zm.string(), amount: zm.number() });
      expectTypeOf(client.get('/v1/payouts/po_1', { schema: mini })).toEqualTypeOf<
        Promise<{ id: string; amount: number }>
      >();
      const classic = zc.object({ id: zc.string(), cents: zc.string().transform((value) => BigInt(value)) });
      expectTypeOf(client.post('/v1/transfers', { body: {}, schema: classic })).toEqualTypeOf<
        Promise<{ id: string; cents: bigint }>
      >();
      const handWritten: StandardSchema<{ id: string }> = {
        '~standard': { version: 1, vendor: 'acme', validate: () => ({ value: { id: 'x' } }) },
      };
      expectTypeOf(client.get('/v1/x', { schema: handWritten })).toEqualTypeOf<Promise<{ id: string }>>();

      // getResponseInfo takes the object a raw call resolved to.
      const payout = await client.get('/v1/payouts/po_1', { schema: mini });
      expectTypeOf(getResponseInfo(payout)?.requestId).toEqualTypeOf<string | undefined>();

      // @ts-expect-error: a query value must be a string, number or boolean
      void client.get('/v1/payouts', { query: { filter: { status: 'paid' } } });
      // @ts-expect-error: a GET has no body
      void client.get('/v1/payouts', { body: {} });
      // @ts-expect-error: the path is a string
      void client.get(new URL('https://api.example.com/v1/payouts'));
    }
    void calls;
    expect(typeof Client.prototype.get).toBe('function');
  });

  it('on and off: the listener is typed by the event name', () => {
    function listen(client: Client) {
      client.on('request', (event) => expectTypeOf(event).toEqualTypeOf<RequestEvent>());
      client.on('response', (event) => {
        expectTypeOf(event).toEqualTypeOf<ResponseEvent>();
        expectTypeOf(event.status).toEqualTypeOf<number | undefined>();
        expectTypeOf(event.error).toEqualTypeOf<LunasError | undefined>();
        expectTypeOf(event.durationMs).toEqualTypeOf<number>();
        expectTypeOf(event.willRetry).toEqualTypeOf<boolean>();
      });
      expectTypeOf(client.off('response', () => undefined)).toEqualTypeOf<Client>();
      // @ts-expect-error: no such event
      client.on('error', () => undefined);
    }
    void listen;
    expectTypeOf<ResponseEvent>().toExtend<RequestEvent>();
    expect(typeof Client.prototype.on).toBe('function');
  });

  it('toArray: Promise<T[]>, limit required', () => {
    function collect(client: Client) {
      expectTypeOf(client.charges.list().toArray({ limit: 10 })).toEqualTypeOf<Promise<Charge[]>>();
      expectTypeOf(client.payouts.list().toArray({ limit: 10 })).toEqualTypeOf<Promise<Payout[]>>();
      // @ts-expect-error: limit is required
      void client.charges.list().toArray({});
      // @ts-expect-error: so is the options object
      void client.charges.list().toArray();
    }
    void collect;
    expect(typeof PagePromise.prototype.toArray).toBe('function');
  });

  it('webhooks.confirm: a charge comes with a charge event, undefined with an unknown one', () => {
    async function handle(client: Client) {
      const confirmation = await client.webhooks.confirm('{}');
      expectTypeOf(confirmation).toEqualTypeOf<WebhookConfirmation>();
      if (confirmation.charge !== undefined) {
        expectTypeOf(confirmation.event).toEqualTypeOf<ChargeEvent>();
        expectTypeOf(confirmation.charge).toEqualTypeOf<Charge>();
      } else {
        expectTypeOf(confirmation.event).toEqualTypeOf<UnknownEvent>();
      }
    }
    void handle;
    expectTypeOf<Client['webhooks']['confirm']>().parameter(0).toEqualTypeOf<string | Uint8Array | object>();
    expect(typeof parseEvent).toBe('function');
  });
});
