// What the guides' samples take as already there: values an earlier sample of
// the same guide made, and the reader's own code. A block names what it takes
// in a comment right before its fence, `<!-- sample-context: client, charge -->`,
// and scripts/check-samples.ts imports those names from here. Only such values
// belong here: what lunas exports, a sample imports itself.
import type {
  Charge,
  Client,
  ClientEventListener,
  LunasEvent,
  StandardSchema,
  Transfer,
  TransferCreateParams,
} from 'lunas-sdk';
import type { Sandbox } from 'lunas-sdk/testing';

// Made by an earlier sample.
export declare const client: Client;
export declare const sandbox: Sandbox;
export declare const charge: Charge;
export declare const transfer: Transfer;
export declare const event: LunasEvent;
export declare const params: TransferCreateParams;
/** A charge's id. */
export declare const id: string;
/** A webhook's body as your framework received it. */
export declare const rawBody: string;
/** A JSON body as an object: a raw POST's, or a webhook's once parsed. */
export declare const body: Record<string, unknown>;
export declare const listener: ClientEventListener<'response'>;
export declare const PayoutSchema: StandardSchema<{ id: string; status: string }>;

// The reader's own code.
export interface Invoice {
  id: string;
  amount: string;
  partnerAccountId: string;
}
export declare const invoice: Invoice;
export declare function transferParams(invoice: Invoice): TransferCreateParams;
export declare const secrets: { lunasApiKey: string };
export declare const traceId: string;
/** A test's clock, moved by the test. */
export declare const clock: Date;
export declare const customFetch: typeof fetch;
export declare function fulfilOrder(charge: Charge): Promise<void>;
export declare function markOrderPaid(orderId: string | null | undefined, chargeId: string): Promise<void>;
export declare function fulfil(orderId: string | null | undefined): void;
export declare function cancel(orderId: string | null | undefined): void;
export declare function recordRefund(refundId: string): void;
export declare function handle(charge: Charge): Promise<void>;
/** The reader's reconciliation of one charge. */
export declare function reconcile(charge: Charge): void;
/** The shop's order store, which its webhook handler updates. */
export declare const orders: {
  statusOf(chargeId: string): Promise<string>;
  fulfilmentsOf(chargeId: string): Promise<number>;
};
/** The shop's stock, which its checkout reserves and its webhook handler releases. */
export declare const stock: {
  reserve(chargeId: string, sku: string, quantity: number): Promise<void>;
  available(sku: string): Promise<number>;
};
/** A Worker's checkout handler, given the Client it should use. */
export declare function handleCheckout(request: Request, client: Client): Promise<Response>;
export declare const log: { info(fields: object, message?: string): void; debug(message: string): void };
export declare const logger: { warn(message: string): void };
export declare const metrics: {
  timing(name: string, milliseconds: number, tags?: Record<string, string>): void;
  observe(name: string, value: number): void;
};
