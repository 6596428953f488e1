/**
 * The request primitive every resource method and the raw
 * `client.get`/`client.post` go through ({@link API}): what to send is
 * checked once, where it enters, then sent by the transport and decoded; the
 * exchange behind each result is kept beside it ({@link getResponseInfo}).
 *
 * Two ways in, each checked at its own edge:
 * - resource methods: ids are checked and encoded by the {@link path} tag,
 *   parameters by the resource's schema (`validate`), and what the SDK built
 *   from them (the path, the body, the schema of the answer) is sent as it is;
 * - raw calls (`client.get`/`post`): the caller's path, query, body and
 *   schema are checked here, before sending.
 *
 * Every call it sends, each page of a list included, is published on the
 * `lunas:operation` tracing channel (report/tracing.ts) when that has subscribers:
 * what the caller's input made of it (the operation's name and route) is
 * known here; a call refused before sending publishes nothing.
 *
 * The API key is never sent as a parameter: an id, a raw path, a query or a
 * body holding it, in any form the key is masked in, is refused before
 * sending ({@link keyRefusal}), on the way in with the other checks. And it
 * is masked where text leaves: in a refusal of the caller's input, and in
 * what a list's inspection prints. A call that succeeds never masks anything
 * here.
 */
import { describeValue } from '../report/describe-value.js';
import { addFieldMessages, LunasError, RequestValidationError, type FieldErrors } from '../report/errors.js';
import type { PageEnvelope } from '../wire/envelope.js';
import type { ListOrder, ListParams, ListSpec } from '../lists/list-spec.js';
import { checkRequestOptions, NO_REQUEST_OPTIONS, type RequestOptions } from '../checks/options.js';
import { NewestFirstPagePromise, PagePromise } from '../lists/page.js';
import { type Schema, validate } from '../checks/schemas.js';
import { describeError, foreignError, maskRefusal, redact, type Secret } from '../report/secrets.js';
import {
  hasSubscribers,
  type Mutable,
  type OperationContext,
  record,
  type TracePublisher,
  tracingChannels,
} from '../report/tracing.js';
import { mayHoldKey } from './attempt.js';
import type { CallResult, CallSpec, ListCallSpec, Transport } from './retry-loop.js';
import type { ResponseInfo, StandardSchema } from '../types.js';

/** The exchange behind each value a method returned, kept beside it so results stay plain data. */
const responses = new WeakMap<object, ResponseInfo>();

/**
 * The HTTP exchange behind a value a method returned (a resource, a
 * {@link Page}, or an object from `client.get`/`client.post`): status,
 * headers, `x-request-id`, attempts, Idempotency-Key. Undefined for values
 * lunas did not return, and for raw results that are not objects.
 *
 * @example
 * ```ts
 * const transfer = await client.transfers.create(params);
 * console.log(getResponseInfo(transfer)?.requestId);
 * ```
 * @category Client
 */
export function getResponseInfo(value: object): ResponseInfo | undefined {
  return responses.get(value);
}

/** Records the exchange behind `value` (when it is an object) and returns it. */
function remember<T>(value: T, info: ResponseInfo): T {
  if (typeof value === 'object' && value !== null) responses.set(value, info);
  return value;
}

/** A call's result, its exchange recorded beside it. */
function kept<T>(result: { body: T; info: ResponseInfo }): T {
  return remember(result.body, result.info);
}

/**
 * A call's path, built by {@link path} (or from a raw call's checked path):
 * relative to the base URL, its ids checked and encoded, so it is sent as it
 * is; and its route, the template the tracing channels name it by.
 */
export class ResourcePath {
  readonly #route: TemplateStringsArray | Secret;

  /**
   * `route`: the tag's template, or for a raw call's path the key's matcher to
   * mask it with; `ids`: the caller's ids the tag put in the path, as given,
   * for the request primitive to check for the key (a raw path is checked whole).
   */
  constructor(
    readonly relative: string,
    route: TemplateStringsArray | Secret,
    readonly ids: readonly string[] = [],
  ) {
    this.#route = route;
  }

  /**
   * `/v1/payments/charges/{id}`: the tag's text with `{id}` for each id, built
   * only when a tracing channel has a subscriber; a raw call's path as given,
   * with the key masked should the caller have put it there.
   */
  get route(): string {
    const route = this.#route;
    return Array.isArray(route) ? route.join('{id}') : redact(`/${this.relative}`, route as Secret);
  }
}

/**
 * A tag for resource paths: `` path`/v1/payments/charges/${id}` `` encodes
 * every interpolated value as one segment (refusing empty, `.` and `..`), and
 * keeps the template as the call's route (`/v1/payments/charges/{id}`).
 * It throws `RequestValidationError`, so call it inside an async method.
 */
export function path(strings: TemplateStringsArray, ...ids: unknown[]): ResourcePath {
  let result = strings[0]!.slice(1);
  ids.forEach((id, index) => (result += pathSegment('id', id) + strings[index + 1]!));
  return new ResourcePath(result, strings, ids as string[]);
}

/**
 * One path segment for an id. Percent-encoding keeps `/`, `?` and `#` inside
 * the segment; `.` and `..` cannot be encoded safely (URL parsers resolve
 * them, even as `%2E`), and no real id is either, so they are refused. So is
 * an id holding half of a UTF-16 surrogate pair (text cut in the middle of an
 * emoji, say): it has no UTF-8 form to percent-encode.
 */
function pathSegment(field: string, id: unknown): string {
  const problem = typeof id === 'string' ? idProblem(id) : `ID must be a non-empty string (got ${describeValue(id)})`;
  if (problem !== undefined) throw new RequestValidationError({ [field]: [problem] });
  return encodeURIComponent(id as string);
}

/**
 * Why `id` cannot name a resource as one path segment (see {@link path}), or
 * undefined when it can. One rule for the ids a call refuses before sending
 * and the ids a webhook event cannot name a charge with.
 */
export function idProblem(id: string): string | undefined {
  if (id === '') return `ID must be a non-empty string (got ${describeValue(id)})`;
  if (id === '.' || id === '..') return `ID must not be "${id}"`;
  if (hasLoneSurrogate(id))
    return 'ID must be valid Unicode text: it holds half of a UTF-16 surrogate pair, often text cut inside an emoji';
  return undefined;
}

/**
 * A raw call's path, relative to the base URL as in the service's docs
 * (`/v1/payouts`), returned without its leading slash. Refuses what would
 * leave the base URL's path or change the request's meaning: a scheme or
 * host, `.`/`..` or empty segments, a query or fragment (use `query`),
 * backslashes, whitespace and control characters. A refusal quotes the
 * path, with the key masked by `secret`.
 */
function relativePath(value: unknown, secret: Secret): string {
  const refuse = (message: string): never => {
    throw new RequestValidationError({ path: [message] });
  };
  if (typeof value !== 'string' || value === '' || value === '/')
    return refuse('Path must be a non-empty string such as /v1/payouts');
  // Masked before it is cut short: a caller may have put the key in the path, and a cut key no longer matches.
  const quoted = () => {
    const masked = redact(value, secret);
    return JSON.stringify(masked.length > 60 ? `${masked.slice(0, 60)}…` : masked);
  };
  if (hasLoneSurrogate(value)) return refuse(`Path is not valid Unicode text (got ${quoted()})`);
  if (/^[a-z][a-z\d+.-]*:/i.test(value) || value.startsWith('//'))
    return refuse(`Path must be relative to the base URL, such as /v1/payouts (got ${quoted()})`);
  if (/[?#]/.test(value))
    return refuse(`Path must not hold a query or fragment; pass the query option (got ${quoted()})`);
  if (/[\s\\\p{Cc}]/u.test(value))
    return refuse(`Path must not hold whitespace, control characters or backslashes (got ${quoted()})`);
  const relative = value.startsWith('/') ? value.slice(1) : value;
  for (const segment of relative.split('/')) {
    if (segment === '' || /^(\.|%2e){1,2}$/i.test(segment))
      return refuse(`Path must not hold empty, "." or ".." segments (got ${quoted()})`);
  }
  if (secret.holds(value)) throw keyRefusal(['path']);
  return relative;
}

/** Whether `text` holds half of a UTF-16 pair: not Unicode text, and not encodable in a URL. */
function hasLoneSurrogate(text: string): boolean {
  // ES2024; Node 20, Bun, Deno and workerd all have it, and it scans without a regular expression.
  return !text.isWellFormed();
}

/**
 * Query parameters of a raw GET; `undefined` values are left out.
 * @category Client
 */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/**
 * Options of `client.get`: the request options, a query, and a schema for the
 * envelope's `data`. Any other name (`querry`, `body`) is refused before sending.
 * @category Client
 */
export interface GetOptions<T = unknown> extends RequestOptions {
  /** Query parameters, e.g. `{ page: 2, pagesize: 100 }`. */
  query?: QueryParams | undefined;
  /**
   * Any Standard Schema (zod, valibot, arktype...) for the envelope's `data`:
   * the result is typed by it, and a mismatch rejects with
   * `ResponseValidationError`, as for lunas's own methods.
   */
  schema?: StandardSchema<T> | undefined;
}

/**
 * Options of `client.post`: the request options, a JSON body, and a schema for
 * the envelope's `data`. Any other name (`bdy`, `query`) is refused before sending.
 * @category Client
 */
export interface PostOptions<T = unknown> extends RequestOptions {
  /** The request body, sent as JSON. */
  body?: unknown;
  /** As for {@link GetOptions.schema}. */
  schema?: StandardSchema<T> | undefined;
}

/**
 * The request options' names, refused in what to send: they go in the last
 * argument, so `{ ...options, schema }` there is a compile error, not options
 * silently dropped.
 */
type NoRequestOptions = { readonly [Name in keyof RequestOptions]?: never };

/**
 * The SDK method a call is, `namespace.method` as merchants write it
 * (`'transfers.create'`): the operation the tracing channels publish.
 */
type OperationName = `${string}.${string}`;

/** What a resource's GET sends besides its path: the schema of the envelope's `data`. */
interface GetRequest<T> extends NoRequestOptions {
  /** The method, as merchants call it: `'charges.retrieve'`. */
  readonly operation: OperationName;
  /** Checks the envelope's `data`. */
  readonly schema: StandardSchema<T>;
}

/** What a resource's POST sends besides its path: a body its schema checked, and the schema of the answer. */
interface PostRequest<T> extends GetRequest<T> {
  /** The parameters as the resource's schema returned them. */
  readonly body: unknown;
}

/**
 * What a list sends besides its path: the caller's paging `params`, the schema
 * of one page's `data`, and the order the service documents for this list
 * (a walk relies on nothing more).
 */
interface ListRequest<T> extends NoRequestOptions {
  /** The method, as merchants call it: `'charges.list'`. */
  readonly operation: OperationName;
  /** Checks a page's `data`. */
  readonly items: StandardSchema<T[]>;
  /** `newest-first` when the service documents it, else `unspecified`. */
  readonly order: ListOrder;
  /** The caller's `page` and `pagesize`, checked before sending. */
  readonly params?: ListParams | null | undefined;
}

/**
 * @internal The request primitive behind a {@link Client}; resources hold one.
 * Every method has one shape: the path, what to send, then the caller's
 * request options.
 */
export class API {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * GET `path`; resolves to the envelope's `data`, checked by `request.schema`.
   * Called from a resource's `async` method, as {@link API.post} is: a refusal of
   * the options is thrown there, and rejects that method's promise (one
   * promise per call, not one per layer).
   */
  get<T>(path: ResourcePath, request: GetRequest<T>, options?: RequestOptions | null): Promise<T> {
    const checked = this.checkOptions(options);
    this.#checkIds(path);
    return this.#send(request.operation, 'GET', path, undefined, undefined, request.schema, checked);
  }

  /** POST `request.body` as JSON to `path`, with an Idempotency-Key; resolves and throws as {@link API.get} does. */
  post<T>(path: ResourcePath, request: PostRequest<T>, options?: RequestOptions | null): Promise<T> {
    const checked = this.checkOptions(options);
    this.#checkIds(path);
    const secret = this.#transport.secret;
    let body: string;
    try {
      body = JSON.stringify(request.body);
    } catch {
      // The resource's schema let only JSON data through; a `toJSON` that answered once, then threw, is refused as a raw body is.
      body = this.#refusing(() => serializeRaw(request.body, secret)!);
    }
    // The body as it will be sent, the key looked for once (a few scans of a small text when absent).
    if (mayHoldKey(body, this.#transport.apiKey)) refuseKeyIn(body, secret);
    return this.#send(request.operation, 'POST', path, undefined, body, request.schema, checked);
  }

  /**
   * GET a list, as a {@link PagePromise} that can walk every page; a
   * newest-first list's can also walk back to a time (`since`). Nothing is
   * checked or sent until the first page is asked for.
   */
  list<T>(
    path: ResourcePath,
    request: ListRequest<T> & { order: 'newest-first' },
    options?: RequestOptions | null,
  ): NewestFirstPagePromise<T>;
  list<T>(path: ResourcePath, request: ListRequest<T>, options?: RequestOptions | null): PagePromise<T>;
  list<T>(path: ResourcePath, request: ListRequest<T>, options?: RequestOptions | null): PagePromise<T> {
    const transport = this.#transport;
    const { items, order, operation } = request;
    const list: ListSpec<T> = {
      order,
      label: `GET /${path.relative}`,
      params: request.params,
      // Called once, before the first page is sent: the ids are checked with the options, not per page.
      options: () => {
        const checked = this.checkOptions(options);
        this.#checkIds(path);
        return checked;
      },
      send: (query, checked) =>
        this.#call(
          { operation, method: 'GET', path, query, body: undefined, schema: items, page: query.page },
          checked,
        ),
      keep: remember,
      warn: (message) => transport.warn(message),
      mask: (text) => redact(text, transport.secret),
      refused: (error) => maskRefusal(error, transport.secret),
    };
    return order === 'newest-first' ? new NewestFirstPagePromise(list) : new PagePromise(list);
  }

  /**
   * The caller's request options, checked by name and value before anything
   * is sent; none given is nothing to check.
   */
  checkOptions(options: RequestOptions | null | undefined): RequestOptions {
    // None given (most calls): the one frozen result, with nothing to check and no closure for a refusal.
    if (options === undefined || options === null) return NO_REQUEST_OPTIONS;
    return this.#refusing(() => checkRequestOptions(options));
  }

  /**
   * The caller's ids in a resource's path: one holding the client's API key
   * is refused, as `id`, before sending (the service would log the URL).
   */
  #checkIds(path: ResourcePath): void {
    const { secret, apiKey } = this.#transport;
    for (const id of path.ids) if (mayHoldKey(id, apiKey) && secret.holds(id)) this.#refuseKey(['id']);
  }

  /** Refuses parameters holding the key, `fields` masked (a body's name may be the key). */
  #refuseKey(fields: readonly string[]): never {
    throw maskRefusal(keyRefusal(fields), this.#transport.secret);
  }

  /** A method's parameters, checked by `schema` before anything is sent. */
  validate<T>(schema: Schema<T, unknown>, params: unknown): T {
    return this.#refusing(() => validate(schema, params));
  }

  /**
   * Runs a check of the caller's input. Its refusal quotes names and values
   * to point at a typo, and the caller may have put the key in one: masked.
   */
  #refusing<T>(check: () => T): T {
    try {
      return check();
    } catch (error) {
      throw maskRefusal(error, this.#transport.secret);
    }
  }

  /**
   * `client.get` and `client.post`: everything is the caller's, so everything
   * is checked here before sending: the options hold what to send (a GET's
   * query, a POST's body, and a schema) beside the request options.
   */
  async raw<T>(method: 'GET' | 'POST', path: string, options?: GetOptions<T> | PostOptions<T> | null): Promise<T> {
    const secret = this.#transport.secret;
    // Every name read below is an own key of `checked` (undefined when not given): a polluted prototype is not read.
    const checked: RawOptions = this.#refusing(() => checkRequestOptions(options, RAW_NAMES[method]));
    const [relative, query, body, schema] = this.#refusing(() => [
      relativePath(path, secret),
      method === 'GET' ? checkQuery(checked.query, secret) : undefined,
      method === 'POST' ? withoutKey(serializeRaw(checked.body, secret), secret) : undefined,
      checkSchema<T>(checked.schema),
    ]);
    const operation = method === 'GET' ? 'get' : 'post';
    return this.#send(operation, method, new ResourcePath(relative, secret), query, body, schema, checked);
  }

  /**
   * One call that is not a list, what it sends and its request options
   * already checked. Every field the transport reads is an own key of the
   * spec (`page` undefined: not a list), so a polluted `Object.prototype` is
   * never read as what to send.
   */
  #send<T>(
    operation: string,
    method: 'GET' | 'POST',
    path: ResourcePath,
    query: QueryParams | undefined,
    body: string | undefined,
    schema: StandardSchema<T> | undefined,
    options: RequestOptions,
  ): Promise<T> {
    const spec = { operation, method, path, query, body, schema, page: undefined };
    return this.#call<T>(spec, options).then(kept);
  }

  /**
   * Every call the SDK makes, a list's page fetches included: sent by the
   * transport, and published on `lunas:operation` when it has subscribers
   * (the one check a call makes when it has none).
   */
  #call<T>(spec: ListCallSpec<T>, options: RequestOptions): Promise<CallResult<PageEnvelope<T>>>;
  #call<T>(spec: CallSpec<T>, options: RequestOptions): Promise<CallResult<T>>;
  #call(spec: CallSpec<unknown>, options: RequestOptions): Promise<CallResult<unknown>> {
    const channel = tracingChannels?.operation;
    if (channel === undefined || !hasSubscribers(channel)) return this.#transport.request(spec, options, undefined);
    return this.#traced(channel, spec, options);
  }

  /**
   * A call published on `lunas:operation`. Its Idempotency-Key is settled
   * here, so the context shows the key every attempt sends; what the call
   * resolves to stays out of the context (subscribers see status and request
   * id, not the data).
   */
  async #traced(
    channel: TracePublisher<OperationContext>,
    spec: CallSpec<unknown>,
    options: RequestOptions,
  ): Promise<CallResult<unknown>> {
    const transport = this.#transport;
    const { method, operation } = spec;
    const idempotencyKey = method === 'POST' ? (options.idempotencyKey ?? crypto.randomUUID()) : undefined;
    const context: Mutable<OperationContext> = {
      operation,
      method,
      route: spec.path.route,
      url: transport.urlOf(spec),
      idempotencyKey,
      status: undefined,
      requestId: undefined,
      error: undefined,
    };
    // Null prototype, as every options object lunas builds: only the names given are read.
    const sent =
      idempotencyKey === options.idempotencyKey
        ? options
        : ({ __proto__: null, ...options, idempotencyKey } as RequestOptions);
    let result: CallResult<unknown> | undefined;
    let failure: { error: unknown } | undefined;
    try {
      await channel.tracePromise(async () => {
        try {
          result = await transport.request(spec, sent, context);
          record(context, { status: result.info.status, requestId: result.info.requestId });
        } catch (error) {
          failure = { error };
          // What the failure says of the last response, when one came.
          const { status, requestId } = error as { status?: unknown; requestId?: unknown };
          record(context, {
            status: typeof status === 'number' ? status : undefined,
            requestId: typeof requestId === 'string' ? requestId : undefined,
          });
          throw error;
        }
      }, context);
    } catch (error) {
      // tracePromise writes the outcome on the context itself: where a subscriber froze it, that
      // write throws a TypeError of the runtime's, which is not the call's outcome.
      if (failure !== undefined) throw failure.error;
      if (result === undefined) throw error;
    }
    return result!;
  }
}

/** What a raw call's options add to the request options. */
const RAW_NAMES = { GET: ['query', 'schema'], POST: ['body', 'schema'] } as const;

/** A raw call's options, checked by name: the request options, and what to send, still to check. */
type RawOptions = RequestOptions & { query?: unknown; body?: unknown; schema?: unknown };

/**
 * A raw GET's query: a plain object of strings (Unicode text), finite numbers
 * and booleans, none of whose names or values holds the client's API key.
 */
function checkQuery(query: unknown, secret: Secret): QueryParams | undefined {
  if (query === undefined || query === null) return undefined;
  // Only a plain object's own entries are read: a URLSearchParams or a Map
  // has none, and would be sent as no query at all.
  const prototype: unknown = typeof query === 'object' ? Object.getPrototypeOf(query) : undefined;
  if (prototype !== Object.prototype && prototype !== null)
    throw new RequestValidationError({ query: ['Query must be a plain object of strings, numbers and booleans'] });
  const problems: FieldErrors = {};
  for (const [name, value] of Object.entries(query)) {
    const ok =
      value === undefined ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && !hasLoneSurrogate(value));
    if (!ok || hasLoneSurrogate(name)) {
      const message = `Query values must be strings (Unicode text), finite numbers or booleans (got ${describeValue(value)})`;
      addFieldMessages(problems, `query.${name}`, [message]);
    }
  }
  if (Object.keys(problems).length > 0) throw new RequestValidationError(problems);
  const holding = Object.entries(query)
    .filter(([name, value]) => secret.holds(name) || (value !== undefined && secret.holds(String(value))))
    .map(([name]) => `query.${name}`);
  if (holding.length > 0) throw keyRefusal(holding);
  return query as QueryParams;
}

/**
 * The schema, once it is known to be a Standard Schema: anything else would
 * only fail once the response is in, after the request was sent.
 */
function checkSchema<T>(schema: unknown): StandardSchema<T> | undefined {
  if (schema === undefined) return undefined;
  let validate: unknown;
  try {
    validate = (schema as { '~standard'?: { validate?: unknown } } | null)?.['~standard']?.validate;
  } catch {
    // A Proxy or a getter that throws: not a schema lunas can use.
  }
  if (typeof validate !== 'function')
    throw new RequestValidationError({ schema: ['Schema must be a Standard Schema, such as a zod or valibot schema'] });
  return schema as StandardSchema<T>;
}

/** A raw body as JSON text, once, so a body JSON cannot carry is refused before sending. */
function serializeRaw(body: unknown, secret: Secret): string | undefined {
  if (body === undefined) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch (error) {
    // A toJSON may throw anything, a value whose String() throws included.
    const reason = describeError(foreignError(error, secret));
    throw new RequestValidationError({ body: [`Body must be JSON-serialisable: ${reason}`] });
  }
  if (text === undefined) throw new RequestValidationError({ body: ['Body must be JSON-serialisable'] });
  return text;
}

/**
 * Refuses `body`, a request's parameters as the JSON text about to be sent,
 * when it holds the client's API key, each field holding it named (masked
 * where a name is the key): what `post` checks, for a caller that must
 * refuse before anything else happens (the MCP server, before it asks a person).
 */
export function refuseKeyIn(body: string, secret: Secret): void {
  const holding = keyFieldsIn(body, '', secret);
  if (holding !== undefined) throw maskRefusal(keyRefusal(holding), secret);
}

/** A raw body's JSON text, refused when it holds the client's API key (fields named `body.…`). */
function withoutKey(text: string | undefined, secret: Secret): string | undefined {
  const holding = text === undefined ? undefined : keyFieldsIn(text, 'body', secret);
  if (holding !== undefined) throw keyRefusal(holding);
  return text;
}

/**
 * The refusal of parameters holding the client's own API key, one message
 * per field naming it, never the key: the service stores what a request's
 * parameters carry, and shows some of it (a charge's description, on the
 * customer's payment page), so the key travels only as `Authorization`. A
 * field name holding the key is masked by the caller's `maskRefusal`.
 */
function keyRefusal(fields: readonly string[]): RequestValidationError {
  const problems: FieldErrors = {};
  for (const field of fields) {
    addFieldMessages(problems, field, [
      `The client's API key is in ${field}: lunas sends the key only as the Authorization header, never in ` +
        "a request's parameters, which the service stores and may show to customers; remove it",
    ]);
  }
  return new RequestValidationError(problems);
}

/** Stands for the value of a name that holds the key: the name is the field refused. */
const NAMED = Symbol('named');

/**
 * Where the key stands in a JSON body about to be sent, dotted from `root`
 * (`items.0.name`, `body.metadata.note`): every name or value that holds it,
 * in any form the key is masked in; undefined when none does.
 *
 * The text is what would be sent (a `toJSON`'s result, not the object given),
 * looked at whole, once: the hot path, a few scans of a small text. Its names
 * and values are in it as written, but for JSON's own escapes: the `\"`, `\\`
 * and `\/` of the characters a key can hold are undone first, so a form the
 * caller wrote escaped (`\/`, `\u0073`), escaped again in the text, is seen as
 * written. Only a body holding the key is parsed and walked (without
 * recursion); the key spread over more than one value (a key with `"` or
 * `,`) names `root`.
 */
function keyFieldsIn(text: string, root: string, secret: Secret): string[] | undefined {
  if (!secret.holds(text.includes('\\') ? text.replace(/\\(["\\/])/g, '$1') : text)) return undefined;
  const found: string[] = [];
  const at = (field: string, name: string) => (field === '' ? name : `${field}.${name}`);
  const pending: [string, unknown][] = [[root, JSON.parse(text)]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [field, value] = next;
    if (value === NAMED || ((typeof value === 'string' || typeof value === 'number') && secret.holds(String(value)))) {
      found.push(field);
    } else if (typeof value === 'object' && value !== null) {
      const entries = Object.entries(value);
      // Pushed in reverse, so fields are named in the body's order.
      for (let index = entries.length - 1; index >= 0; index--) {
        const [name, each] = entries[index]!;
        pending.push([at(field, name), secret.holds(name) ? NAMED : each]);
      }
    }
  }
  return found.length > 0 ? found : [root === '' ? 'params' : root];
}

/** The base of the resource namespaces of {@link Client}: each method is one call on the {@link API} primitive. */
export abstract class Resource {
  /** @internal The request primitive every method goes through. */
  protected readonly api: API;

  /**
   * @internal Resources are created by {@link Client}. The published
   * declarations leave the constructor out, so `new Charges()` compiles for
   * a caller: refuse it here, by name, instead of failing later on a missing
   * primitive.
   */
  constructor(api: API) {
    if (!(api instanceof API)) {
      throw new LunasError(`${new.target.name} is created by Client: use client.${namespaceOf(new.target.name)}`);
    }
    this.api = api;
  }
}

/** `PaymentMethods` → `paymentMethods`: the Client property that holds a resource. */
const namespaceOf = (className: string): string => className.charAt(0).toLowerCase() + className.slice(1);
