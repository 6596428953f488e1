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
  type ChargeEventData,
  type ChargeEventType,
  type ChargeStatus,
  Client,
  ConflictError,
  type CreatedCharge,
  type CreatedChargePaymentMethodOptions,
  EventValidationError,
  InternalServerError,
  LunasError,
  type LunasEvent,
  NotFoundError,
  NewestFirstPagePromise,
  Page,
  PagePromise,
  type PaymentMethod,
  type PaymentMethodType,
  type Payout,
  PermissionDeniedError,
  RateLimitError,
  type RequestOptions,
  RequestValidationError,
  ResponseValidationError,
  SinceWalk,
  type Transfer,
  type TransferCreateParams,
  type TransferStatus,
  UnprocessableEntityError,
  type UnknownEvent,
  type VirtualAccountDetails,
  isChargeEvent,
  parseEvent,
  type RequestEvent,
  type ResponseEvent,
  type StandardSchema,
  type WebhookBody,
  type WebhookConfirmation,
  getResponseInfo,
} from '../../src/index.js';

type ItemOf<T> = T extends AsyncIterable<infer U> ? U : never;
type Awaited_<T> = T extends PromiseLike<infer U> ? U : never;

describe('public types', () => {
  it('list methods return PagePromise<T>, awaiting gives Page<T>, for await yields T', () => {
    expectTypeOf<Client['charges']['list']>().returns.toEqualTypeOf<NewestFirstPagePromise<Charge>>();
    expectTypeOf<Client['transfers']['list']>().returns.toEqualTypeOf<NewestFirstPagePromise<Transfer>>();
    expectTypeOf<NewestFirstPagePromise<Charge>>().toExtend<PagePromise<Charge>>();
    expectTypeOf<Client['payouts']['list']>().returns.toEqualTypeOf<PagePromise<Payout>>();
    expectTypeOf<Client['paymentMethods']['list']>().returns.toEqualTypeOf<PagePromise<PaymentMethod>>();

    expectTypeOf<ItemOf<PagePromise<Charge>>>().toEqualTypeOf<Charge>();
    expectTypeOf<ItemOf<PagePromise<Transfer>>>().toEqualTypeOf<Transfer>();
    expectTypeOf<ItemOf<Page<Payout>>>().toEqualTypeOf<Payout>();
    expectTypeOf<Awaited_<PagePromise<Charge>>>().toEqualTypeOf<Page<Charge>>();

    // A walk since a time: on newest-first lists only.
    expectTypeOf<NewestFirstPagePromise<Charge>['since']>().parameters.toEqualTypeOf<[Date | string]>();
    expectTypeOf<ItemOf<SinceWalk<Charge>>>().toEqualTypeOf<Charge>();
    expectTypeOf<ReturnType<SinceWalk<Transfer>['toArray']>>().toEqualTypeOf<Promise<Transfer[]>>();
    expectTypeOf<PagePromise<Payout>>().not.toHaveProperty('since');
    expectTypeOf<PagePromise<PaymentMethod>>().not.toHaveProperty('since');

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

  it("a created charge types payment_method_options as far as the spec goes: the virtual account's number, qris unknown", () => {
    expectTypeOf<CreatedCharge['payment_method_options']>().toEqualTypeOf<
      CreatedChargePaymentMethodOptions | null | undefined
    >();
    expectTypeOf<keyof CreatedChargePaymentMethodOptions>().toEqualTypeOf<'virtual_account' | 'qris'>();
    expectTypeOf<CreatedChargePaymentMethodOptions['virtual_account']>().toEqualTypeOf<
      VirtualAccountDetails | null | undefined
    >();
    expectTypeOf<VirtualAccountDetails>().toEqualTypeOf<{
      account_name?: string | null | undefined;
      account_number?: string | null | undefined;
    }>();
    expectTypeOf<CreatedChargePaymentMethodOptions['qris']>().toBeUnknown();
    // Reached with optional chaining alone: no `in`, no cast.
    function accountNumber(charge: CreatedCharge) {
      return charge.payment_method_options?.virtual_account?.account_number;
    }
    expectTypeOf(accountNumber).returns.toEqualTypeOf<string | null | undefined>();
    // retrieve does not promise it: on a Charge it is read with `in`, as the guide shows.
    expectTypeOf<Charge>().not.toHaveProperty('payment_method_options');
    function typo(charge: CreatedCharge) {
      // @ts-expect-error: closed, so a typo of account_number does not compile
      return charge.payment_method_options?.virtual_account?.acount_number;
    }
    void typo;
    const created = { payment_method_options: { virtual_account: { account_number: '8808123456789012' } } };
    expect(accountNumber(created as CreatedCharge)).toBe('8808123456789012');
    expect(accountNumber({ payment_method_options: null } as CreatedCharge)).toBeUndefined();
  });

  it('closed enums: only the known values, so comparing with an impossible one does not compile', () => {
    expectTypeOf<Charge['status']>().toEqualTypeOf<ChargeStatus>();
    expectTypeOf<ChargeStatus>().toEqualTypeOf<'pending' | 'success' | 'failed'>();
    expectTypeOf<Charge['payment_method']>().toEqualTypeOf<PaymentMethodType>();
    expectTypeOf<PaymentMethodType>().toEqualTypeOf<'qris' | 'virtual_account'>();
    expectTypeOf<Transfer['status']>().toEqualTypeOf<TransferStatus>();
    expectTypeOf<TransferStatus>().toEqualTypeOf<'succeeded' | 'failed'>();
    expectTypeOf<'refunded'>().not.toExtend<Charge['status']>();
    expectTypeOf<'success'>().not.toExtend<Transfer['status']>();
    expectTypeOf<ChargeCreateParams['payment_method']>().toEqualTypeOf<PaymentMethodType>();

    function isPaid(charge: Charge, transfer: Transfer): boolean {
      // @ts-expect-error: transfers say 'succeeded', never 'success'
      const transferSucceeded = transfer.status === 'success';
      // @ts-expect-error: 'paid' is not a charge status
      const chargePaid = charge.status === 'paid';
      return transferSucceeded || chargePaid || charge.status === 'success';
    }
    expect(isPaid({ status: 'success' } as Charge, { status: 'succeeded' } as Transfer)).toBe(true);
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

  it('Payout and PaymentMethod are JSON objects: no field is documented, every field is unknown', () => {
    expectTypeOf<Payout>().toEqualTypeOf<{ [field: string]: unknown }>();
    expectTypeOf<PaymentMethod>().toEqualTypeOf<{ [field: string]: unknown }>();
    expectTypeOf<Payout[string]>().toBeUnknown();
  });

  it('response types are closed: a misspelt field does not compile', () => {
    function read(charge: Charge, created: CreatedCharge, transfer: Transfer, event: ChargeEvent) {
      // @ts-expect-error: a typo of status
      void charge.stauts;
      // @ts-expect-error: the field is paid_at
      void charge.paidAt;
      // @ts-expect-error: only the create response has it
      void charge.qr_code_url;
      // @ts-expect-error: a typo of client_reference_id
      void transfer.client_refrence_id;
      // @ts-expect-error: the event's data is closed too (only its id is typed)
      void event.data.stauts;
      return [created.qr_code_url, created.payment_url, charge.paid_at, transfer.status];
    }
    expectTypeOf(read).returns.toEqualTypeOf<(string | null | undefined)[]>();
    expectTypeOf<Charge>().not.toHaveProperty('stauts');
    expectTypeOf<keyof Charge>().toEqualTypeOf<
      | 'id'
      | 'payment_method'
      | 'channel'
      | 'status'
      | 'currency'
      | 'amount'
      | 'fee'
      | 'client_reference_id'
      | 'customer_details'
      | 'items'
      | 'description'
      | 'expires_at'
      | 'paid_at'
      | 'created_at'
      | 'updated_at'
    >();
    expectTypeOf<keyof CreatedCharge>().toEqualTypeOf<
      keyof Charge | 'payment_url' | 'qr_code_url' | 'payment_method_options'
    >();
    expectTypeOf<keyof UnknownEvent>().toEqualTypeOf<'id' | 'type' | 'created_at' | 'data'>();
  });

  it('a field the types do not know yet is read with `in`, as the docs show', () => {
    function refundOf(charge: Charge): string | undefined {
      if ('refund_id' in charge && typeof charge.refund_id === 'string') return charge.refund_id;
      return undefined;
    }
    const charge = { id: 'ch_1', refund_id: 'rf_1' } as unknown as Charge;
    expect(refundOf(charge)).toBe('rf_1');
    expect(refundOf({ id: 'ch_2' } as Charge)).toBeUndefined();
  });

  it('a switch over status compiles with an exhaustive default that tolerates a new value', () => {
    function decide(charge: Charge): string {
      switch (charge.status) {
        case 'success':
          return 'fulfil';
        case 'failed':
          return 'cancel';
        case 'pending':
          return 'wait';
        default: {
          // Compile time: every known status is handled. Run time: a newer status lands here.
          const unknownStatus: never = charge.status;
          return `unknown status ${String(unknownStatus)}: not paid`;
        }
      }
    }
    expect(decide({ status: 'success' } as Charge)).toBe('fulfil');
    expect(decide({ status: 'refunded' } as unknown as Charge)).toBe('unknown status refunded: not paid');
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

  it('webhook events narrow with isChargeEvent, then by type; only what is checked is typed', () => {
    function chargeIdOf(event: LunasEvent): string | undefined {
      if (isChargeEvent(event)) {
        expectTypeOf(event).toEqualTypeOf<ChargeEvent>();
        expectTypeOf(event.data).toEqualTypeOf<ChargeEventData>();
        expectTypeOf(event.data.id).toEqualTypeOf<string>();
        expectTypeOf(event.type).toEqualTypeOf<ChargeEventType>();
        // Optional and unchecked: typed as such, so no code trusts a shape nobody promised.
        expectTypeOf(event.id).toEqualTypeOf<unknown>();
        expectTypeOf(event.created_at).toEqualTypeOf<unknown>();
        // @ts-expect-error: the rest of the data is a hint, not a typed Charge
        void event.data.status;
        if (event.type === 'payment_charge.succeeded') {
          expectTypeOf(event.type).toEqualTypeOf<'payment_charge.succeeded'>();
          return event.data.id;
        }
        return undefined;
      }
      expectTypeOf(event).toEqualTypeOf<UnknownEvent>();
      expectTypeOf(event.data).toEqualTypeOf<unknown>();
      expectTypeOf(event.type).toEqualTypeOf<string>();
      return undefined;
    }
    // A field the types leave unknown is read with `in`, as the webhook guide shows.
    function hintedStatus(event: ChargeEvent): unknown {
      return 'status' in event.data ? event.data.status : undefined;
    }
    expectTypeOf(isChargeEvent).guards.toEqualTypeOf<ChargeEvent>();
    expectTypeOf(parseEvent).returns.toEqualTypeOf<LunasEvent>();
    expectTypeOf(parseEvent).parameter(0).toEqualTypeOf<WebhookBody>();
    const parsed = parseEvent({ type: 'payment_charge.succeeded', data: { id: 'ch_1', status: 'success' } });
    expect(chargeIdOf(parsed)).toBe('ch_1');
    expect(isChargeEvent(parsed) && hintedStatus(parsed)).toBe('success');
  });

  it('a webhook body is text, bytes or a parsed object; a Request, Response, Blob, stream or form does not compile', () => {
    // express.json() types req.body as any, so a parsed body compiles whatever it holds.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    function bodies(event: ChargeEvent, parsedByExpress: any, stream: ReadableStream, form: FormData) {
      parseEvent('{"type":"x"}');
      parseEvent(new TextEncoder().encode('{"type":"x"}'));
      parseEvent(Buffer.from('{"type":"x"}'));
      parseEvent(new ArrayBuffer(0));
      parseEvent(new DataView(new ArrayBuffer(0)));
      parseEvent({ type: 'payment_charge.created', data: { id: 'ch_1' }, livemode: false });
      parseEvent(event);
      parseEvent(parsedByExpress);
      // @ts-expect-error: a Request is not its body: pass await request.text()
      parseEvent(new Request('http://127.0.0.1/'));
      // @ts-expect-error: nor is a Response
      parseEvent(new Response('{}'));
      // @ts-expect-error: nor a Blob
      parseEvent(new Blob(['{}']));
      // @ts-expect-error: nor a stream
      parseEvent(stream);
      // @ts-expect-error: nor a form
      parseEvent(form);
      // @ts-expect-error: nor a Node request stream
      parseEvent(undefined as unknown as import('node:http').IncomingMessage);
      // @ts-expect-error: nor nothing
      parseEvent(undefined);
    }
    void bodies;
    expect(typeof parseEvent).toBe('function');
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
    expectTypeOf<Client['webhooks']['confirm']>().parameter(0).toEqualTypeOf<WebhookBody>();
    expect(typeof parseEvent).toBe('function');
  });
});
