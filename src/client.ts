// The Client: built from its settings (core/checks/options.ts), one transport and one set of
// listeners per client; withOptions (a client sharing this one's listeners, handed over
// explicitly), on/off, the resource namespaces and the raw get/post.
import { API, type GetOptions, type PostOptions } from './core/call/request.js';
import { type ClientOptions, readClientOptions, resolveClientSettings } from './core/checks/options.js';
import { type ClientEventListener, type ClientEvents, Events } from './core/report/events.js';
import { Transport } from './core/call/retry-loop.js';
import type { StandardSchema } from './core/types.js';
import { Charges } from './resources/charges.js';
import { PaymentMethods } from './resources/payment-methods.js';
import { Payouts } from './resources/payouts.js';
import { Transfers } from './resources/transfers.js';
import { VERSION } from './version.js';
import { Webhooks } from './webhooks.js';

export type { ClientOptions } from './core/checks/options.js';

/**
 * The lunas client: one per API key, safe to share across concurrent requests.
 *
 * @see [Getting started](../docs/getting-started.md) and [Configuration](../docs/configuration.md)
 * @see [Reliability](../docs/reliability.md) (what lunas guarantees, and the tests that hold it),
 *   [Performance](../docs/performance.md) and [Upgrading](../docs/upgrading.md)
 *
 * @example
 * ```ts
 * import { Client } from 'lunas-sdk';
 *
 * const client = new Client(); // reads LUNAS_API_KEY and LUNAS_BASE_URL
 * const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
 * ```
 * @category Client
 */
export class Client {
  /** Payment charges: create, retrieve, list. */
  readonly charges: Charges;
  /** Transfers between platform accounts: create, list. */
  readonly transfers: Transfers;
  /** Payouts to bank accounts: list. */
  readonly payouts: Payouts;
  /** Payment methods: list. */
  readonly paymentMethods: PaymentMethods;
  /** Webhook events: confirm one by reading its charge back. */
  readonly webhooks: Webhooks;
  /** The base URL requests are sent to: without a trailing slash or `/v1`, which every path starts with. */
  readonly baseURL: string;
  /** Per-attempt timeout in ms. */
  readonly timeout: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  readonly #options: ClientOptions;
  readonly #api: API;
  readonly #events: Events;

  /** @throws {@link LunasError} when the key or URL is missing or unsafe, or an option is malformed or unknown. */
  constructor(options?: ClientOptions) {
    // Only withOptions() makes a Derivation: a caller's options are read by name.
    const derivation = options instanceof Derivation ? options : undefined;
    const chosen = derivation?.options ?? readClientOptions(options);
    const settings = resolveClientSettings(chosen);
    this.baseURL = settings.baseURL;
    this.timeout = settings.timeout;
    this.maxRetries = settings.maxRetries;
    // A derived client keeps what this one resolved, even if the environment changes.
    this.#options = { ...chosen, apiKey: settings.apiKey, baseURL: settings.baseURL };
    this.#events = derivation?.events ?? new Events();
    const transport = new Transport({ ...settings, userAgent: `lunas/${VERSION}`, events: this.#events });
    this.#api = new API(transport);
    this.charges = new Charges(this.#api);
    this.transfers = new Transfers(this.#api);
    this.payouts = new Payouts(this.#api);
    this.paymentMethods = new PaymentMethods(this.#api);
    this.webhooks = new Webhooks(this.charges, this.#api);
  }

  /**
   * Calls `listener` for each `request` (before every attempt is sent) or
   * `response` (when every attempt ends, with or without a response). Events
   * never carry the API key. A listener that throws is logged at warn level
   * and never breaks the call. Clients made by {@link Client.withOptions}
   * share this client's listeners, in both directions.
   *
   * @throws {@link LunasError} for an event other than `request` or `response`, or a listener that is not a function.
   *
   * @example
   * ```ts
   * client.on('response', (e) => metrics.timing('lunas.request', e.durationMs, { status: String(e.status) }));
   * ```
   */
  on<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    this.#events.add(event, listener);
    return this;
  }

  /**
   * Stops calling a listener added with {@link Client.on}.
   *
   * @throws {@link LunasError} for an event other than `request` or `response`.
   */
  off<E extends keyof ClientEvents>(event: E, listener: ClientEventListener<E>): this {
    this.#events.remove(event, listener);
    return this;
  }

  /**
   * GET an endpoint the SDK has no method for yet. `path` is relative to the
   * base URL, as in the service's docs. Every rule of the SDK's own methods
   * applies: retries, timeout, signal, events, envelope decoding, typed
   * errors. Resolves to the success envelope's `data`: `unknown`, or typed
   * and checked by `options.schema` (any Standard Schema: zod, valibot, arktype).
   * The guide: [Calling endpoints the SDK does not cover yet](../docs/raw-requests.md).
   *
   * @throws {@link RequestValidationError} when `path`, `options.query` or `options.schema` is
   *   invalid, or `path` or `options.query` holds the client's API key; nothing is sent.
   * @throws {@link ResponseValidationError} when `options.schema` rejects the response's `data`.
   * @throws {@link LunasError} every call's errors: see
   *   [the table](../docs/errors-and-retries.md#every-error-a-call-can-raise).
   *
   * @example
   * ```ts
   * const data = await client.get('/v1/payouts', { query: { page: 1, pagesize: 100 } });
   * const payout = await client.get('/v1/payouts/po_1', { schema: PayoutSchema });
   * ```
   */
  get(path: string, options?: GetOptions<unknown> & { schema?: undefined }): Promise<unknown>;
  get<T>(path: string, options: GetOptions<T> & { schema: StandardSchema<T> }): Promise<T>;
  get<T>(path: string, options?: GetOptions<T>): Promise<T> {
    return this.#api.raw('GET', path, options);
  }

  /**
   * POST to an endpoint the SDK has no method for yet, with `body` sent as
   * JSON. Like every POST it carries an Idempotency-Key (yours, or a UUID),
   * the same on every attempt. Otherwise as {@link Client.get}.
   *
   * @throws {@link RequestValidationError} when `path`, `options.body` (not JSON-serialisable) or
   *   `options.schema` is invalid, or `path` or `options.body` (a name or value at any depth)
   *   holds the client's API key; nothing is sent.
   * @throws {@link ResponseValidationError} when `options.schema` rejects the response's `data`.
   * @throws {@link LunasError} every call's errors: see
   *   [the table](../docs/errors-and-retries.md#every-error-a-call-can-raise).
   *
   * @example
   * ```ts
   * const created = await client.post('/v1/transfers', { body, idempotencyKey: `settle-${invoice.id}` });
   * ```
   */
  post(path: string, options?: PostOptions<unknown> & { schema?: undefined }): Promise<unknown>;
  post<T>(path: string, options: PostOptions<T> & { schema: StandardSchema<T> }): Promise<T>;
  post<T>(path: string, options?: PostOptions<T>): Promise<T> {
    return this.#api.raw('POST', path, options);
  }

  /**
   * A new client with some options changed and the rest (the key included)
   * kept. The original is unchanged.
   *
   * @throws {@link LunasError} when `overrides` are not an object, name an unknown option, or
   *   make the key, URL or an option invalid.
   *
   * @example
   * ```ts
   * const patient = client.withOptions({ timeout: 120_000, maxRetries: 5 });
   * ```
   */
  withOptions(overrides: ClientOptions): Client {
    const changed = Object.entries(readClientOptions(overrides, this.#options.apiKey)).filter(
      ([, value]) => value !== undefined,
    );
    // The derived client shares this one's listeners, handed over explicitly.
    const options: ClientOptions = { ...this.#options, ...Object.fromEntries(changed) };
    // Not `new Client`: the builds would rename a class that names itself (`class _Client`),
    // and stack traces would say `_Client`.
    const SameClass = this.constructor as typeof Client;
    return new SameClass(new Derivation(options, this.#events) as ClientOptions);
  }
}

/**
 * What {@link Client.withOptions} hands the constructor: the merged options,
 * already read by name, and the listeners the new client shares with its
 * parent. Not exported, so a caller cannot make one.
 */
class Derivation {
  readonly options: ClientOptions;
  readonly events: Events;

  constructor(options: ClientOptions, events: Events) {
    this.options = options;
    this.events = events;
  }
}
