/**
 * The customer's side of the sandbox: `GET /pay/{id}` serves the payment page
 * and `POST /pay/{id}` (a form field `action=pay|fail`) settles the charge
 * through `ChargeBook.settle`, as `sandbox.payCharge`/`failCharge` do, then
 * answers 303 back to the page (POST/redirect/GET); `GET /qr/{id}.svg` is a
 * qris charge's `qr_code_url`, the same QR code as an image. These routes need
 * no API key and never answer the API's JSON envelopes. The form's POST must
 * carry its page's token and come from the sandbox's own origin
 * (form-token.ts), else 403: another site cannot press it.
 */
import type { ChargeBook } from '../service/charges.js';
import { TOKEN_FIELD, type FormTokens, type RequestSite } from './form-token.js';
import type { Reply } from '../transport/http.js';
import { messagePage, paymentPage, qrCodeSvg, type RenderedPage } from './payment-page.js';
import { decodeSegment, Router, type PathParams } from '../transport/router.js';
import type { ChargeRecord } from '../types.js';

/** What the page routes read of a request whose body has been read (any transport). */
interface PaymentPageRequest {
  method: string;
  /** Raw path, not percent-decoded. */
  path: string;
  contentType: string | undefined;
  body: Uint8Array | 'too-large';
  site: RequestSite;
}

/** What the page routes read and change: the charges, and the tokens of their forms. */
interface PageState {
  charges: ChargeBook;
  forms: FormTokens;
}

type PageHandler = (request: PaymentPageRequest, state: PageState, params: PathParams) => Reply;

/** A form's body type, the only one the sandbox's pages take (the payment page's and the root page's). */
export const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** The outcome each form `action` asks for (a Map: `constructor` or `__proto__` must find nothing). */
const OUTCOMES: ReadonlyMap<string, 'success' | 'failed'> = new Map([
  ['pay', 'success'],
  ['fail', 'failed'],
]);

/** A page of the sandbox as its reply: HTML under the page's own content security policy, never cached. */
export function htmlReply(status: number, page: RenderedPage, headers: Record<string, string> = {}): Reply {
  return {
    status,
    body: page.html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': page.contentSecurityPolicy,
      'cache-control': 'no-store',
      ...headers,
    },
  };
}

const refusal = (status: number, title: string, message: string, headers?: Record<string, string>): Reply =>
  htmlReply(status, messagePage(title, message), headers);

/** The charge a `:id` segment names, or `undefined`: an id that does not percent-decode names none. */
function chargeAt(charges: ChargeBook, segment: string | undefined): ChargeRecord | undefined {
  const id = decodeSegment(segment ?? '');
  return id === undefined ? undefined : charges.retrieve(id);
}

const unknownCharge = (): Reply => refusal(404, 'Charge not found', 'There is no charge at this address.');

/** The page of `charge`, with its form's token and `notice`. */
const pageOf = (charge: ChargeRecord, forms: FormTokens, notice?: string): RenderedPage =>
  paymentPage(charge, forms.tokenFor(charge.id), notice);

const showPage: PageHandler = (_request, { charges, forms }, params) => {
  const charge = chargeAt(charges, params.id);
  return charge ? htmlReply(200, pageOf(charge, forms)) : unknownCharge();
};

/** The form's fields, or the reply refusing the request. */
function formFields(request: PaymentPageRequest): { ok: true; fields: URLSearchParams } | { ok: false; reply: Reply } {
  if (request.body === 'too-large') {
    return {
      ok: false,
      reply: refusal(413, 'Request too large', 'A payment form is a few bytes; this was over 1 MiB.'),
    };
  }
  if (!FORM_TYPE.test(request.contentType ?? '')) {
    const message = 'The payment form is sent as application/x-www-form-urlencoded.';
    return { ok: false, reply: refusal(415, 'Unsupported form encoding', message) };
  }
  return { ok: true, fields: new URLSearchParams(new TextDecoder().decode(request.body)) };
}

const settleFromPage: PageHandler = (request, { charges, forms }, params) => {
  const charge = chargeAt(charges, params.id);
  if (!charge) return unknownCharge();
  const read = formFields(request);
  if (!read.ok) return read.reply;
  // Before the action is even read: a press from elsewhere learns nothing and changes nothing.
  const refused = forms.refusal(charge.id, read.fields.get(TOKEN_FIELD), request.site);
  if (refused !== undefined) return refusal(403, 'Request refused', refused);
  const action = read.fields.get('action') ?? '';
  const outcome = OUTCOMES.get(action);
  if (outcome === undefined) {
    const message = `The form's action must be pay or fail, not ${JSON.stringify(action.slice(0, 40))}.`;
    return htmlReply(400, pageOf(charge, forms, message));
  }
  if (charge.status !== 'pending') {
    // Another tab (or payCharge) settled it first: say so, and change nothing.
    const message = `This charge was already ${charge.status}: pressing ${action === 'pay' ? 'Pay' : 'Fail'} changed nothing.`;
    return htmlReply(409, pageOf(charge, forms, message));
  }
  charges.settle(charge.id, outcome);
  const location = `/pay/${encodeURIComponent(charge.id)}`;
  return { status: 303, body: '', headers: { location, 'content-type': 'text/html; charset=utf-8' } };
};

const QR_FILE = /^(.+)\.svg$/;

const showQrCode: PageHandler = (_request, { charges }, params) => {
  const charge = chargeAt(charges, QR_FILE.exec(params.file ?? '')?.[1]);
  const svg = charge?.payment_method === 'qris' ? qrCodeSvg(charge) : undefined;
  if (svg === undefined) return refusal(404, 'QR code not found', 'There is no QRIS code at this address.');
  return { status: 200, body: svg, headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' } };
};

const PAGE_ROUTES = new Router<PageHandler>({
  'GET /pay/:id': showPage,
  'POST /pay/:id': settleFromPage,
  'GET /qr/:file': showQrCode,
});

/**
 * The reply for a payment-page request, or `undefined` when the path is not
 * a page's (the API answers it). Runs before the API's key check.
 */
export function servePaymentPage(request: PaymentPageRequest, state: PageState): Reply | undefined {
  const route = PAGE_ROUTES.match(request.method, request.path);
  switch (route.kind) {
    case 'found':
      return route.handler(request, state, route.params);
    case 'wrong-method': {
      const allow = route.allow.join(', ');
      return refusal(405, 'Method not allowed', `This page answers ${allow}.`, { allow });
    }
    case 'not-found':
      return undefined;
  }
}
