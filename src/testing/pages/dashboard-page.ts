/**
 * The HTML of the sandbox's own page at `/`, for the developer at a browser:
 * charges (linking their payment pages), events, webhook deliveries with every
 * attempt, transfers and balances, newest first, with the `Pay`, `Fail`,
 * `Expire` and `Redeliver` buttons. Pure rendering: dashboard-routes.ts
 * serves it and acts on its forms. Every value from a caller is escaped
 * ({@link escapeHtml}). It shows the newest {@link DASHBOARD_ROWS} records of
 * each kind and counts the rest, so its size and its cost stay the same
 * however many charges the sandbox holds.
 *
 * It refreshes by itself: with JavaScript off a `<meta http-equiv=refresh>`
 * inside `<noscript>` reloads it; with JavaScript on a script under the page's
 * nonce fetches it again and swaps `<main>` in, so the reader keeps their place.
 */
import type { WebhookAttempt, WebhookDelivery } from '../webhooks/delivery-types.js';
import { TOKEN_FIELD } from './form-token.js';
import { documentOf, escapeHtml, formatAmount, type RenderedPage } from './payment-page.js';
import type { ChargeRecord, SandboxAccount, SandboxEvent, TransferRecord } from '../types.js';
import { clockNote, type SandboxTime } from './sandbox-time.js';

/** Seconds between two refreshes of the page. */
const REFRESH_SECONDS = 5;

/**
 * How many of the newest charges, events, deliveries and transfers the page
 * shows; it counts the rest. With 100,000 charges the page stays about 100 KB.
 */
export const DASHBOARD_ROWS = 50;

/** Records of one kind as the page shows them: the newest, newest first, and how many there are in all. */
interface Newest<T> {
  data: readonly T[];
  total: number;
}

/** What the page shows: one sandbox's state at one moment. */
export interface DashboardState {
  charges: Newest<ChargeRecord>;
  events: Newest<SandboxEvent>;
  deliveries: Newest<WebhookDelivery>;
  transfers: Newest<TransferRecord>;
  accounts: readonly Required<SandboxAccount>[];
  time: SandboxTime;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:90rem;margin:1rem auto;padding:1rem 1.5rem;background:#fff;border-radius:.75rem}
section{overflow-x:auto}
.sandbox{margin:0;font-size:.85rem;color:#7a4b00}h1{margin:.25rem 0 .5rem}h2{margin:1.5rem 0 .5rem;font-size:1.15rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid #e1e4e8}
th{color:#59636e;font-weight:600;white-space:nowrap}td{overflow-wrap:break-word}code{font-size:.85rem}time,.amount{white-space:nowrap}
[data-status=pending],[data-state=pending]{color:#7a4b00}[data-status=success],[data-state=delivered]{color:#1f7a3d}
[data-status=failed],[data-state=failed],[data-state=abandoned]{color:#b42318}
form{display:flex;gap:.4rem;margin:0}button{white-space:nowrap;padding:.25rem .7rem;font-size:.9rem;border-radius:.4rem;border:1px solid #59636e;cursor:pointer}
button[value=pay]{background:#1f7a3d;color:#fff}ol{margin:0;padding-left:1.2rem}
[role=status]:empty{display:none}[role=status]{font-weight:600;padding:.5rem;background:#fff4d6;border-radius:.4rem}`;

/** With JavaScript on: the page fetched again and its `<main>` swapped in (no reload, the scroll kept). */
const SCRIPT = `setInterval(async () => {
  try {
    const response = await fetch('/', { cache: 'no-store' });
    if (!response.ok) return;
    const main = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('main');
    if (main) document.querySelector('main').replaceWith(document.adoptNode(main));
  } catch {
    // The sandbox stopped: the page stays as it was.
  }
}, ${REFRESH_SECONDS * 1000});`;

/** A count as people read it in English: `99,950`. */
const countOf = (count: number): string => count.toLocaleString('en-US');

/** What a section lists beyond its rows: how many records it left out, and where to read them (HTML). */
interface Rest {
  total: number;
  /** The records, as in "and 99,950 older charges". */
  noun: string;
  /** Where every one of them can be read, as HTML. */
  where: string;
}

/**
 * A section's id, heading (with how many there are) and table, or a line
 * saying it is empty; with `rest`, a line counting the records left out.
 */
function section(
  id: string,
  title: string,
  head: readonly string[],
  rows: readonly string[],
  empty: string,
  rest?: Rest,
): string {
  const total = rest?.total ?? rows.length;
  const left = total - rows.length;
  const body =
    rows.length === 0
      ? `<p>${escapeHtml(empty)}</p>`
      : `<table>
<thead><tr>${head.map((name) => `<th scope="col">${escapeHtml(name)}</th>`).join('')}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  const more =
    rest === undefined || left <= 0
      ? ''
      : `\n<p data-older="${left}">The newest ${countOf(rows.length)} shown, and ${countOf(left)} older ${escapeHtml(rest.noun)}: ${rest.where}.</p>`;
  return `<section aria-labelledby="${id}">
<h2 id="${id}">${escapeHtml(title)} (${countOf(total)})</h2>
${body}${more}
</section>`;
}

/** Where the records the page leaves out can be read, by kind (HTML). */
const OLDER = {
  charges: 'use the API (<code>GET /v1/payments/charges</code>) or <code>lunas-sandbox charges</code>',
  events: 'read <code>sandbox.events</code> or run <code>lunas-sandbox events</code>',
  deliveries: 'read <code>sandbox.deliveries</code> or run <code>lunas-sandbox deliveries</code>',
  transfers: 'use the API (<code>GET /v1/transfers</code>) or <code>lunas-sandbox transfers</code>',
} as const;

/** A table cell of plain text. */
const cell = (text: string): string => `<td>${escapeHtml(text)}</td>`;

/** A moment for people (`2026-11-26 14:34:34` UTC), the exact ISO 8601 in its `datetime` and tooltip. */
function timeOf(iso: string): string {
  const shown = iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
  return `<time datetime="${escapeHtml(iso)}" title="${escapeHtml(iso)}">${escapeHtml(shown)}</time>`;
}

/** A cell holding a moment. */
const timeCell = (iso: string): string => `<td>${timeOf(iso)}</td>`;

/** A cell holding an id, in `<code>`. */
const idCell = (id: string): string => `<td><code>${escapeHtml(id)}</code></td>`;

/** The form of one row: the token, what it acts on, and one button per action (`[value, name]`). */
function actionForm(
  token: string,
  field: 'charge' | 'event',
  id: string,
  actions: readonly [string, string][],
): string {
  const buttons = actions
    .map(([value, name]) => `<button type="submit" name="action" value="${value}">${name}</button>`)
    .join('');
  return `<form method="post" action="/"><input type="hidden" name="${TOKEN_FIELD}" value="${escapeHtml(token)}"><input type="hidden" name="${field}" value="${escapeHtml(id)}">${buttons}</form>`;
}

/** An amount's cell: `Rp` and the number kept on one line by the style's `.amount`, not by a no-break space. */
const amountCell = (amount: string, currency: string): string =>
  `<td class="amount">${escapeHtml(formatAmount(amount, currency))}</td>`;

function chargeRow(charge: ChargeRecord, token: string): string {
  const link = `<a href="/pay/${escapeHtml(encodeURIComponent(charge.id))}"><code>${escapeHtml(charge.id)}</code></a>`;
  const actions =
    charge.status === 'pending'
      ? actionForm(token, 'charge', charge.id, [
          ['pay', 'Pay'],
          ['fail', 'Fail'],
          ['expire', 'Expire'],
        ])
      : '';
  return `<tr data-charge="${escapeHtml(charge.id)}"><td>${link}</td><td data-status="${escapeHtml(charge.status)}">${escapeHtml(charge.status)}</td>${amountCell(charge.amount, charge.currency)}${cell(charge.channel === null ? charge.payment_method : `${charge.payment_method} (${charge.channel})`)}${cell(charge.description ?? '')}${cell(charge.client_reference_id ?? '')}${timeCell(charge.expires_at)}<td>${actions}</td></tr>`;
}

function eventRow(event: SandboxEvent, token: string): string {
  return `<tr data-event="${escapeHtml(event.id)}">${idCell(event.id)}${cell(event.type)}${idCell(event.data.id)}${cell(event.data.status)}${timeCell(event.created_at)}<td>${actionForm(token, 'event', event.id, [['redeliver', 'Redeliver']])}</td></tr>`;
}

/** One attempt for people: its answer (or why none), how long it took, when. */
function attemptItem(attempt: WebhookAttempt): string {
  const outcome =
    attempt.status === null
      ? `no answer: ${attempt.error ?? 'unknown error'}`
      : `HTTP ${attempt.status}${attempt.location === undefined ? '' : ` to ${attempt.location}`}`;
  return `<li data-ok="${attempt.ok}">${escapeHtml(`${outcome} · ${attempt.durationMs} ms · `)}${timeOf(attempt.startedAt.toISOString())}</li>`;
}

function deliveryRow(delivery: WebhookDelivery): string {
  const attempts =
    delivery.attempts.length === 0 ? 'none yet' : `<ol>${delivery.attempts.map(attemptItem).join('')}</ol>`;
  const kind = delivery.redelivery ? `${delivery.eventType} (redelivery)` : delivery.eventType;
  return `<tr data-delivery="${escapeHtml(delivery.eventId)}">${idCell(delivery.eventId)}${cell(kind)}${idCell(delivery.event.data.id)}<td data-state="${escapeHtml(delivery.state)}">${escapeHtml(delivery.state)}</td><td>${attempts}</td><td>${delivery.retryAt === null ? '' : timeOf(delivery.retryAt.toISOString())}</td></tr>`;
}

function transferRow(transfer: TransferRecord): string {
  return `<tr data-transfer="${escapeHtml(transfer.id)}">${idCell(transfer.id)}${cell(`${transfer.source_account_name} (${transfer.source_account_id})`)}${cell(`${transfer.destination_account_name} (${transfer.destination_account_id})`)}${amountCell(transfer.amount, transfer.currency)}${cell(transfer.status)}${cell(transfer.client_reference_id ?? '')}${timeCell(transfer.created_at)}</tr>`;
}

function accountRow(account: Required<SandboxAccount>): string {
  return `<tr data-account="${escapeHtml(account.id)}">${idCell(account.id)}${cell(account.name)}${cell(account.active ? 'active' : 'inactive')}${amountCell(account.balance, 'idr')}</tr>`;
}

/**
 * The page: every part of `state`, the forms carrying `formToken`, and
 * `notice` above them (why a press changed nothing).
 */
export function dashboardPage(state: DashboardState, formToken: string, notice = ''): RenderedPage {
  const main = `<h1>Sandbox</h1>
<p>Charges, events, webhook deliveries, transfers and balances, newest first. This page refreshes every ${REFRESH_SECONDS} seconds.</p>
<p id="sandbox-time">Sandbox time: ${timeOf(state.time.now)} UTC${escapeHtml(clockNote(state.time))}</p>
<p role="status">${escapeHtml(notice)}</p>
${section(
  'charges',
  'Charges',
  ['Charge', 'Status', 'Amount', 'Method', 'Description', 'Reference', 'Expires', 'Actions'],
  state.charges.data.map((charge) => chargeRow(charge, formToken)),
  'No charges yet.',
  { total: state.charges.total, noun: 'charges', where: OLDER.charges },
)}
${section(
  'events',
  'Events',
  ['Event', 'Type', 'Charge', 'Charge status', 'Created', 'Actions'],
  state.events.data.map((event) => eventRow(event, formToken)),
  'No events yet.',
  { total: state.events.total, noun: 'events', where: OLDER.events },
)}
${section(
  'deliveries',
  'Webhook deliveries',
  ['Event', 'Type', 'Charge', 'State', 'Attempts', 'Next attempt'],
  state.deliveries.data.map(deliveryRow),
  'No webhook deliveries yet: the sandbox delivers events when it has a webhook URL or handler.',
  { total: state.deliveries.total, noun: 'deliveries', where: OLDER.deliveries },
)}
${section(
  'transfers',
  'Transfers',
  ['Transfer', 'From', 'To', 'Amount', 'Status', 'Reference', 'Created'],
  state.transfers.data.map(transferRow),
  'No transfers yet.',
  { total: state.transfers.total, noun: 'transfers', where: OLDER.transfers },
)}
${section('balances', 'Balances', ['Account', 'Name', 'State', 'Balance'], state.accounts.map(accountRow), 'No accounts.')}`;
  return documentOf('lunas sandbox', main, SCRIPT, {
    style: STYLE,
    // With JavaScript off the page reloads itself; `url=/` so a page answering a POST reloads as a GET.
    head: `<noscript><meta http-equiv="refresh" content="${REFRESH_SECONDS}; url=/"></noscript>\n`,
  });
}
