/**
 * The HTML of the customer's payment page at a charge's `payment_url`, and
 * of the pages that answer in its place (unknown charge, refused request).
 * Pure rendering: routing and settling live in `payment-routes.ts`. Every
 * value from a caller is escaped ({@link escapeHtml}), and the inline script
 * carries a per-response nonce, the only script the Content-Security-Policy allows.
 */
import { renderSVG } from 'uqr';
import { TOKEN_FIELD } from './form-token.js';
import { qrisPayload } from './qris-payload.js';
import type { ChargeRecord } from '../types.js';

/** What a rendered page is: its HTML and the policy that goes with its nonce. */
export interface RenderedPage {
  html: string;
  contentSecurityPolicy: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/**
 * An amount for people, the one way lunas writes rupiah everywhere (pages,
 * CLI, docs): `"25000.00"` in `idr` reads `Rp 25.000`, `"25000.50"` reads
 * `Rp 25.000,50` (a plain space; `.` groups thousands and `,` marks the cents,
 * as in Indonesia; cents only when there are some). Another currency is named
 * by its code: `USD 10,50`. The decimal string is formatted exactly (no
 * float), whatever its size. Written by hand rather than with `Intl`: its
 * output varies with the runtime's locale data (a no-break space, or `IDR`
 * where `id-ID` is missing). A page keeps `Rp` and the number on one line
 * with CSS (`white-space: nowrap`), so the text itself copies as plain spaces.
 */
export function formatAmount(amount: string, currency: string): string {
  const symbol = currency.toLowerCase() === 'idr' ? 'Rp' : currency.toUpperCase();
  const parts = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!parts) return `${symbol} ${amount}`;
  const [, sign = '', whole = '', fraction = ''] = parts;
  const head = whole.length % 3 || 3;
  const groups = [whole.slice(0, head)];
  for (let at = head; at < whole.length; at += 3) groups.push(whole.slice(at, at + 3));
  const cents = /[1-9]/.test(fraction) ? `,${fraction.padEnd(2, '0')}` : '';
  return `${sign}${symbol} ${groups.join('.')}${cents}`;
}

const METHOD_NAMES: Readonly<Record<string, string>> = { qris: 'QRIS', virtual_account: 'Virtual account' };

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem}
.sandbox{margin:0;font-size:.85rem;color:#7a4b00}h1{margin:.25rem 0 1rem}.amount{white-space:nowrap}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#59636e}dd{margin:0;word-break:break-all}
img{display:block;width:14rem;height:14rem;margin:1rem auto}
form{display:flex;gap:.75rem}button{flex:1;padding:.6rem;font-size:1rem;border-radius:.5rem;border:1px solid #59636e;cursor:pointer}
button[value=pay]{background:#1f7a3d;color:#fff}[role=status]:empty{display:none}[role=status]{font-weight:600}`;

/**
 * Progressive enhancement: with JavaScript on, a press posts the same form
 * (its token included) with `fetch` (the 303 is followed to the page) and
 * swaps the new `<main>` in, so the page never reloads. Without it the form
 * posts as is. `form.action` would be the button named `action`, hence
 * `getAttribute`; the pressed button's field is added by hand, as
 * `new FormData(form, submitter)` is younger than the browsers a developer may use.
 */
const SCRIPT = `document.addEventListener('submit', async (event) => {
  const form = event.target;
  const button = event.submitter;
  if (!(form instanceof HTMLFormElement) || !(button instanceof HTMLButtonElement)) return;
  event.preventDefault();
  for (const each of form.querySelectorAll('button')) each.disabled = true;
  try {
    const body = new URLSearchParams(new FormData(form));
    body.set(button.name, button.value);
    const response = await fetch(form.getAttribute('action'), { method: 'POST', body });
    const next = new DOMParser().parseFromString(await response.text(), 'text/html');
    const main = next.querySelector('main');
    if (!main) throw new Error('the sandbox answered HTTP ' + response.status + ' without a page');
    document.title = next.title;
    document.querySelector('main').replaceWith(document.adoptNode(main));
  } catch (error) {
    document.querySelector('[role=status]').textContent = 'The press did not go through: ' + error.message;
    for (const each of form.querySelectorAll('button')) each.disabled = false;
  }
});`;

/** What a page adds to {@link documentOf}'s frame: its own style, and elements for `<head>`. */
export interface DocumentParts {
  /** Replaces the payment page's style (a constant: it is allowed inline). */
  style?: string;
  /** Markup for `<head>`, after the style (constant: nothing a caller sent). */
  head?: string;
}

/**
 * A whole document around `main`, with its script (when it has one) under a
 * fresh nonce, and the Content-Security-Policy that allows that script alone.
 */
export function documentOf(title: string, main: string, script = '', parts: DocumentParts = {}): RenderedPage {
  const nonce = crypto.randomUUID();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${parts.style ?? STYLE}</style>
${parts.head ?? ''}</head>
<body>
<main>
<p class="sandbox">lunas sandbox: no money moves.</p>
${main}
</main>
${script && `<script nonce="${nonce}">${script}</script>\n`}</body>
</html>
`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    // The constant style is allowed inline: a nonce would be refused when the script parses the next page.
    "style-src 'unsafe-inline'",
    `script-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "form-action 'self'",
    'img-src data:',
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}

/**
 * The QR code of a qris charge as an SVG document (what `qr_code_url` serves
 * and the page shows), or `undefined` when the charge has no QRIS payload.
 */
export function qrCodeSvg(charge: ChargeRecord): string | undefined {
  const payload = qrisPayload(charge);
  return payload === undefined ? undefined : renderSVG(payload, { ecc: 'M', border: 4 });
}

/** The QR code of a qris charge as an image, or a line saying why there is none. */
function qrImage(charge: ChargeRecord, amount: string): string {
  const svg = qrCodeSvg(charge);
  if (svg === undefined) return '<p>No QR code: the amount is too long for a QRIS payload.</p>';
  const source = `data:image/svg+xml,${encodeURIComponent(svg)}`;
  return `<img src="${escapeHtml(source)}" alt="${escapeHtml(`QRIS code to pay ${amount}`)}">`;
}

/** Rows of the details list: `[term, description]`, both plain text. */
function detailRows(charge: ChargeRecord): [string, string][] {
  const rows: [string, string][] = [
    ['Charge', charge.id],
    ['Method', METHOD_NAMES[charge.payment_method] ?? charge.payment_method],
  ];
  if (charge.channel !== null) rows.push(['Channel', charge.channel]);
  const account = charge.payment_method_options?.virtual_account;
  if (account) rows.push(['Account number', account.account_number], ['Account name', account.account_name]);
  if (charge.customer_details?.name) rows.push(['Customer', charge.customer_details.name]);
  if (charge.description !== null) rows.push(['Description', charge.description]);
  return rows;
}

/**
 * The payment page: amount, method, QR code or account number, status, and
 * while the charge is pending a form with the `Pay` and `Fail` buttons and
 * `formToken` in a hidden field (`FormTokens` in form-token.ts).
 * `notice` is a line shown above the status (e.g. why a press changed nothing).
 */
export function paymentPage(charge: ChargeRecord, formToken: string, notice = ''): RenderedPage {
  const amount = formatAmount(charge.amount, charge.currency);
  const details = detailRows(charge)
    .map(([term, description]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(description)}</dd>`)
    .join('\n');
  const pending = charge.status === 'pending';
  const qr = pending && charge.payment_method === 'qris' ? qrImage(charge, amount) : '';
  const form = pending
    ? `<form method="post" action="/pay/${escapeHtml(encodeURIComponent(charge.id))}">
<input type="hidden" name="${TOKEN_FIELD}" value="${escapeHtml(formToken)}">
<button type="submit" name="action" value="pay">Pay</button>
<button type="submit" name="action" value="fail">Fail</button>
</form>`
    : '';
  const main = `<h1 class="amount">${escapeHtml(amount)}</h1>
<dl>
${details}
<dt>Status</dt><dd id="status" data-status="${escapeHtml(charge.status)}">${escapeHtml(charge.status)}</dd>
</dl>
${qr}
<p role="status">${escapeHtml(notice)}</p>
${form}`;
  const title = pending ? `Pay ${amount}` : `${amount}: ${charge.status}`;
  return documentOf(`${title} · lunas sandbox`, main, pending ? SCRIPT : '');
}

/** A page that only says something: an unknown charge, a refused request. */
export function messagePage(title: string, message: string): RenderedPage {
  return documentOf(
    `${title} · lunas sandbox`,
    `<h1>${escapeHtml(title)}</h1>\n<p role="status">${escapeHtml(message)}</p>`,
  );
}
