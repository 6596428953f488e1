/**
 * The service itself: authentication, routing and the endpoints of the
 * service spec. Synchronous from a fully read request to its reply, which is
 * what makes concurrent transfers safe.
 */
import { withPaymentUrls, type ChargeBook } from './charges.js';
import { errorReply, failReply, type Reply } from './http.js';
import type { Ledger } from './ledger.js';
import { givenOrderPage, pageRequest, type Page, type PageRequest } from './page.js';
import { checkCharge, checkTransfer, isPlainObject } from './rules.js';

export interface ServiceRequest {
  method: string;
  /** Raw path, not percent-decoded. */
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  authorized: boolean;
  body: Buffer | 'too-large';
}

export interface ServiceState {
  baseUrl: string;
  ledger: Ledger;
  charges: ChargeBook;
  payouts: readonly Record<string, unknown>[];
  paymentMethods: readonly Record<string, unknown>[];
}

type Handler = (request: ServiceRequest, state: ServiceState) => Reply;

const CHARGE_PREFIX = '/v1/payments/charges/';
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const success = (data: unknown): Reply => ({ status: 200, body: { status: 'success', data } });

function list(request: ServiceRequest, page: (request: PageRequest) => Page<unknown>): Reply {
  const paging = pageRequest(request.query);
  const { data, total } = page(paging);
  return {
    status: 200,
    body: { status: 'success', data, page: paging.page, page_size: paging.pageSize, total_items: total },
  };
}

type BodyResult = { ok: true; value: Record<string, unknown> } | { ok: false; reply: Reply };

/** The JSON object a POST carries, or the reply refusing it. An empty body reads as `{}`. */
function jsonObject(request: ServiceRequest): BodyResult {
  const refuse = (reply: Reply): BodyResult => ({ ok: false, reply });
  if (request.body === 'too-large') return refuse(errorReply(413, 'Request body must be at most 1 MiB'));
  if (request.body.length === 0) return { ok: true, value: {} };
  if (!JSON_TYPE.test(request.contentType ?? '')) {
    return refuse(errorReply(415, 'Content-Type must be application/json'));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
  } catch {
    return refuse(failReply(400, { message: 'Request body must be valid JSON' }));
  }
  return isPlainObject(parsed)
    ? { ok: true, value: parsed }
    : refuse(failReply(400, { message: 'Request body must be a JSON object' }));
}

const createCharge: Handler = (request, state) => {
  const body = jsonObject(request);
  if (!body.ok) return body.reply;
  const checked = checkCharge(body.value);
  if (!checked.ok) return failReply(400, checked.errors);
  return success(withPaymentUrls(state.charges.create(checked.value), state.baseUrl));
};

const createTransfer: Handler = (request, { ledger }) => {
  const body = jsonObject(request);
  if (!body.ok) return body.reply;
  const checked = checkTransfer(body.value, ledger);
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

const COLLECTIONS: Record<string, Partial<Record<string, Handler>>> = {
  '/v1/payments/charges': {
    GET: (request, { charges }) => list(request, (paging) => charges.page(paging)),
    POST: createCharge,
  },
  '/v1/transfers': {
    GET: (request, { ledger }) => list(request, (paging) => ledger.page(ledger.sourceAccountId, paging)),
    POST: createTransfer,
  },
  '/v1/payouts': {
    GET: (request, { payouts }) => list(request, (paging) => givenOrderPage(payouts, paging)),
  },
  '/v1/payments/methods': {
    GET: (request, { paymentMethods }) => list(request, (paging) => givenOrderPage(paymentMethods, paging)),
  },
};

const retrieveCharge =
  (encodedId: string): Handler =>
  (_request, { charges }) => {
    let id: string;
    try {
      id = decodeURIComponent(encodedId);
    } catch {
      return failReply(404, { message: 'Charge not found' });
    }
    const charge = charges.retrieve(id);
    return charge ? success(charge) : failReply(404, { message: 'Charge not found' });
  };

function resolve(path: string): Partial<Record<string, Handler>> | undefined {
  const collection = COLLECTIONS[path];
  if (collection) return collection;
  if (path.startsWith(CHARGE_PREFIX)) {
    const id = path.slice(CHARGE_PREFIX.length);
    if (id !== '' && !id.includes('/')) return { GET: retrieveCharge(id) };
  }
  return undefined;
}

/** Answers one request whose body has been read. */
export function serve(request: ServiceRequest, state: ServiceState): Reply {
  if (!request.authorized) return errorReply(401, 'Invalid or missing API key');
  const handlers = resolve(request.path);
  if (!handlers) return errorReply(404, 'Not found');
  const handler = handlers[request.method];
  if (!handler) {
    return errorReply(405, 'Method not allowed', { allow: Object.keys(handlers).join(', ') });
  }
  return handler(request, state);
}
