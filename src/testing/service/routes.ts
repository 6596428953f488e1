/**
 * The service itself: authentication, routing and the endpoints of the
 * service spec. Synchronous from a fully read request to its reply, which is
 * what makes concurrent transfers safe.
 *
 * Each endpoint is one row of {@link ROUTES}; a list or a retrieve by id
 * reuses {@link listOf} or {@link retrieveById}. CONTRIBUTING's "Adding an
 * endpoint" (step 5) shows the row and the ledger's `retrieve` of the
 * hypothetical `GET /v1/transfers/{id}` (the service has none); CI compiles
 * them inside this file.
 */
import { withPaymentUrls, type ChargeBook } from './charges.js';
import type { SandboxClock } from './clock.js';
import { isControlPath, serveControl } from '../control/control-routes.js';
import type { SandboxControls } from '../control/controls.js';
import { serveDashboard } from '../pages/dashboard-routes.js';
import { successEnvelope } from './envelopes.js';
import { errorReply, failReply, type Reply } from '../transport/http.js';
import type { FormTokens, RequestSite } from '../pages/form-token.js';
import type { Ledger } from './ledger.js';
import { givenOrderPage, pageRequest, type Page, type PageRequest } from './page.js';
import { servePaymentPage } from '../pages/payment-routes.js';
import { decodeSegment, Router, type PathParams } from '../transport/router.js';
import { readJson, type JsonBody } from './json.js';
import { checkCharge, checkTransfer, isPlainObject } from './rules.js';

/** A request whose body has been read, as the service sees it. */
interface ServiceRequest {
  method: string;
  /** Raw path, not percent-decoded. */
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  authorized: boolean;
  body: Uint8Array | 'too-large';
  /** Where the request came from: what the payment page's form checks. */
  site: RequestSite;
}

/** What the endpoints read and change. */
export interface ServiceState {
  baseUrl: string;
  /** The sandbox's time: what a charge's `expires_at` must come after, and the root page shows. */
  clock: SandboxClock;
  ledger: Ledger;
  charges: ChargeBook;
  /** What the control surface (`/_sandbox/…`) acts through: the handle's helpers. */
  controls: SandboxControls;
  /** The tokens of the payment pages' forms. */
  forms: FormTokens;
  payouts: readonly Record<string, unknown>[];
  paymentMethods: readonly Record<string, unknown>[];
}

/** Answers one request; `params` are the `:param` segments of its route's pattern. */
type Handler = (request: ServiceRequest, state: ServiceState, params: PathParams) => Reply;

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const success = (data: unknown): Reply => ({ status: 200, body: successEnvelope(data) });

/** A list endpoint: the page the query asks for, in the list envelope. */
const listOf =
  (page: (state: ServiceState, request: PageRequest) => Page<unknown>): Handler =>
  (request, state) => {
    const paging = pageRequest(request.query);
    const { data, total } = page(state, paging);
    return {
      status: 200,
      body: { status: 'success', data, page: paging.page, page_size: paging.pageSize, total_items: total },
    };
  };

/**
 * A retrieve endpoint: the item `find` returns for the route's `:id`, or 404
 * with `notFound`. An id that does not decode is one that no item has.
 */
const retrieveById =
  (notFound: string, find: (state: ServiceState, id: string) => unknown): Handler =>
  (_request, state, params) => {
    const id = decodeSegment(params.id ?? '');
    const item = id === undefined ? undefined : find(state, id);
    return item === undefined ? failReply(404, { message: notFound }) : success(item);
  };

type BodyResult =
  { ok: true; value: Record<string, unknown>; numberText: JsonBody['numberText'] } | { ok: false; reply: Reply };

/**
 * The JSON object a POST carries, with its numbers' literals (money is read
 * from them), or the reply refusing it. An empty body reads as `{}`.
 */
function jsonObject(request: ServiceRequest): BodyResult {
  const refuse = (reply: Reply): BodyResult => ({ ok: false, reply });
  if (request.body === 'too-large') return refuse(errorReply(413, 'Request body must be at most 1 MiB'));
  if (request.body.length === 0) return { ok: true, value: {}, numberText: () => undefined };
  if (!JSON_TYPE.test(request.contentType ?? '')) {
    return refuse(errorReply(415, 'Content-Type must be application/json'));
  }
  let parsed: JsonBody;
  try {
    parsed = readJson(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
  } catch {
    return refuse(failReply(400, { message: 'Request body must be valid JSON' }));
  }
  return isPlainObject(parsed.value)
    ? { ok: true, value: parsed.value, numberText: parsed.numberText }
    : refuse(failReply(400, { message: 'Request body must be a JSON object' }));
}

const createCharge: Handler = (request, state) => {
  const body = jsonObject(request);
  if (!body.ok) return body.reply;
  const checked = checkCharge(body.value, body.numberText, state.clock.now());
  if (!checked.ok) return failReply(400, checked.errors);
  return success(withPaymentUrls(state.charges.create(checked.value), state.baseUrl));
};

const createTransfer: Handler = (request, { ledger }) => {
  const body = jsonObject(request);
  if (!body.ok) return body.reply;
  const checked = checkTransfer(body.value, ledger, body.numberText);
  if (!checked.ok) return failReply(400, checked.errors);
  const outcome = ledger.transfer(checked.value, request.idempotencyKey);
  switch (outcome.kind) {
    case 'created':
      return success(outcome.transfer);
    case 'replayed':
      return { ...success(outcome.transfer), headers: { 'idempotent-replayed': 'true' } };
    case 'key-conflict':
      return errorReply(422, 'Idempotency-Key was already used with a different request');
    case 'insufficient-balance':
      return errorReply(403, 'Insufficient balance for transfer');
    case 'source-inactive':
      return errorReply(403, 'Source account is not active');
  }
};

/** Every endpoint of the service spec. */
const ROUTES = new Router<Handler>({
  'GET /v1/payments/charges': listOf(({ charges }, paging) => charges.page(paging)),
  'POST /v1/payments/charges': createCharge,
  'GET /v1/payments/charges/:id': retrieveById('Charge not found', ({ charges }, id) => charges.retrieve(id)),
  'GET /v1/transfers': listOf(({ ledger }, paging) => ledger.page(ledger.sourceAccountId, paging)),
  'POST /v1/transfers': createTransfer,
  'GET /v1/payouts': listOf(({ payouts }, paging) => givenOrderPage(payouts, paging)),
  'GET /v1/payments/methods': listOf(({ paymentMethods }, paging) => givenOrderPage(paymentMethods, paging)),
});

/** Answers one request whose body has been read: the sandbox's page or a payment page (no key needed), else the API. */
export function serve(request: ServiceRequest, state: ServiceState): Reply {
  const page = serveDashboard(request, state) ?? servePaymentPage(request, state);
  if (page) return page;
  if (!request.authorized) return errorReply(401, 'Invalid or missing API key');
  if (isControlPath(request.path)) {
    return serveControl(request.method, request.path, state.controls, () => jsonObject(request));
  }
  const route = ROUTES.match(request.method, request.path);
  switch (route.kind) {
    case 'found':
      return route.handler(request, state, route.params);
    case 'wrong-method':
      return errorReply(405, 'Method not allowed', { allow: route.allow.join(', ') });
    case 'not-found':
      return errorReply(404, 'Not found');
  }
}
