/**
 * The sandbox's own page at `/` (dashboard-page.ts) and its form's `POST /`.
 *
 * Like the payment page it needs no API key, and it is safe without one for
 * the same reasons: the sandbox listens on 127.0.0.1 only and answers only
 * requests addressed to its loopback names (server.ts: a DNS-rebound name gets
 * 421), so another site can neither reach it under its own name nor read it
 * (the browser's same-origin policy; no CORS header is ever sent, and
 * `frame-ancestors 'none'` keeps it out of frames). A press must carry the
 * page's form token and come from the sandbox's own origin (form-token.ts),
 * else 403: another site can make the browser POST, but cannot read the token.
 * Everything works with JavaScript off. The in-process sandbox serves it too,
 * where only its caller's `fetch` can reach it.
 */
import type { SandboxControls } from '../control/controls.js';
import { DASHBOARD_ROWS, dashboardPage } from './dashboard-page.js';
import { SandboxError } from '../errors.js';
import { TOKEN_FIELD, type FormTokens, type RequestSite } from './form-token.js';
import type { Reply } from '../transport/http.js';
import type { Ledger } from '../service/ledger.js';
import { messagePage } from './payment-page.js';
import { FORM_TYPE, htmlReply } from './payment-routes.js';
import type { SandboxClock } from '../service/clock.js';
import { sandboxTimeOf } from './sandbox-time.js';

/**
 * The scope of the page's forms in {@link FormTokens}: one token for all its
 * buttons. No charge id can be `/` (ids are a prefix and hex digits), so it
 * never shares a payment page's token.
 */
const SCOPE = '/';

/** What the page routes read of a request whose body has been read (any transport). */
interface DashboardRequest {
  method: string;
  /** Raw path, not percent-decoded. */
  path: string;
  contentType: string | undefined;
  body: Uint8Array | 'too-large';
  site: RequestSite;
}

/** What the page shows and acts through. */
interface DashboardSources {
  controls: SandboxControls;
  ledger: Ledger;
  forms: FormTokens;
  clock: SandboxClock;
}

/** The page as it stands, with `notice`: the newest records only, whatever the sandbox holds. */
function page(status: number, sources: DashboardSources, notice?: string): Reply {
  const { controls, ledger, forms, clock } = sources;
  const state = { ...controls.recent(DASHBOARD_ROWS), accounts: ledger.accounts(), time: sandboxTimeOf(clock) };
  return htmlReply(status, dashboardPage(state, forms.tokenFor(SCOPE), notice));
}

/** Back to the page after a press, at the section pressed in (POST/redirect/GET). */
const seeOther = (section: string): Reply => ({
  status: 303,
  body: '',
  headers: { location: `/#${section}`, 'content-type': 'text/html; charset=utf-8' },
});

/** The charge actions by the form's `action` (a Map: `constructor` or `__proto__` must find nothing). */
const CHARGE_ACTIONS: ReadonlyMap<string, (controls: SandboxControls, id: string) => unknown> = new Map([
  ['pay', (controls: SandboxControls, id: string) => controls.payCharge(id)],
  ['fail', (controls: SandboxControls, id: string) => controls.failCharge(id)],
  ['expire', (controls: SandboxControls, id: string) => controls.expireCharge(id)],
]);

/** Acts on a press of one of the page's buttons. */
function press(request: DashboardRequest, sources: DashboardSources): Reply {
  const refuse = (status: number, title: string, message: string): Reply =>
    htmlReply(status, messagePage(title, message));
  if (request.body === 'too-large')
    return refuse(413, 'Request too large', 'A press is a few bytes; this was over 1 MiB.');
  if (!FORM_TYPE.test(request.contentType ?? '')) {
    return refuse(415, 'Unsupported form encoding', 'The form is sent as application/x-www-form-urlencoded.');
  }
  const fields = new URLSearchParams(new TextDecoder().decode(request.body));
  // Before anything else is read: a press from elsewhere learns nothing and changes nothing.
  const refused = sources.forms.refusal(SCOPE, fields.get(TOKEN_FIELD), request.site);
  if (refused !== undefined) return refuse(403, 'Request refused', refused);

  const action = fields.get('action') ?? '';
  const { controls } = sources;
  try {
    const chargeAction = CHARGE_ACTIONS.get(action);
    if (chargeAction !== undefined) {
      const id = fields.get('charge') ?? '';
      if (!controls.has('charge', id)) return page(404, sources, `There is no charge ${JSON.stringify(id)}.`);
      chargeAction(controls, id);
      return seeOther('charges');
    }
    if (action === 'redeliver') {
      const id = fields.get('event') ?? '';
      if (!controls.has('event', id)) return page(404, sources, `There is no event ${JSON.stringify(id)}.`);
      controls.redeliver(id, undefined);
      return seeOther('events');
    }
  } catch (error) {
    // The state refused it (another tab settled the charge first, no webhook URL): say so, change nothing.
    if (error instanceof SandboxError) return page(409, sources, error.message);
    throw error;
  }
  const shown = JSON.stringify(action.slice(0, 40));
  return page(400, sources, `The form's action must be pay, fail, expire or redeliver, not ${shown}.`);
}

/**
 * The reply for a request of the page (`/`), or `undefined` when the path is
 * another (the payment pages or the API answer it). Runs before the API's key check.
 */
export function serveDashboard(request: DashboardRequest, sources: DashboardSources): Reply | undefined {
  if (request.path !== '/') return undefined;
  if (request.method === 'GET') return page(200, sources);
  if (request.method === 'POST') return press(request, sources);
  return htmlReply(405, messagePage('Method not allowed', 'This page answers GET and POST.'), { allow: 'GET, POST' });
}
