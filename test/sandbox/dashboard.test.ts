/**
 * The sandbox's own page at `/`, over real HTTP with plain fetch: what it
 * shows, that its buttons act as the helpers do, that a press from another
 * site or without the page's token changes nothing, and that whatever a
 * caller sent is escaped.
 */
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { call, createCharge, createTransfer, formTokenOf, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

/** A request as a browser sends it: no API key, redirects not followed. */
async function browse(box: Sandbox, init: RequestInit = {}) {
  const response = await fetch(`${box.url}/`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/** A press of one of the page's buttons, with the page's token unless `token` is given. */
async function press(box: Sandbox, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const token = fields.token ?? formTokenOf((await browse(box)).html);
  return browse(box, { method: 'POST', body: new URLSearchParams({ token, ...fields }), headers });
}

async function newCharge(box: Sandbox, body: Record<string, unknown> = { payment_method: 'qris', amount: 25000 }) {
  const created = await createCharge(box, body);
  expect(created.status, created.text).toBe(200);
  return created.body.data.id as string;
}

/** The row of the page whose `data-{kind}` is `id`. */
function rowOf(html: string, kind: string, id: string): string {
  const start = html.indexOf(`<tr data-${kind}="${id}">`);
  expect(start, `no ${kind} row for ${id}`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</tr>', start));
}

describe('GET / (the sandbox page)', () => {
  it('shows charges, events, deliveries with their attempts, transfers and balances, with no key', async () => {
    const hook = await webhookReceiver((index) => (index === 0 ? 500 : 204));
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [5] });
    const id = await newCharge(box, { payment_method: 'virtual_account', amount: '25000.50', channel: 'bca' });
    await box.payCharge(id);
    expect(
      (await createTransfer(box, { destination_account_id: 'acc_partner', amount: 125000, currency: 'idr' })).status,
    ).toBe(200);
    await box.webhooksSettled();

    const page = await browse(box);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(
      /script-src 'nonce-[0-9a-f-]{36}'.*frame-ancestors 'none'/,
    );
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    expect(page.html).toContain('<noscript><meta http-equiv="refresh" content="5; url=/"></noscript>');

    const charge = rowOf(page.html, 'charge', id);
    expect(charge).toContain(`<a href="/pay/${id}"><code>${id}</code></a>`);
    expect(charge).toContain('<td data-status="success">success</td>');
    expect(charge).toContain('<td class="amount">Rp 25.000,50</td>');
    expect(page.html).toMatch(/[,}]\.amount\{white-space:nowrap\}/);
    expect(page.html).not.toContain('\u00a0');
    expect(charge).toContain('<td>virtual_account (bca)</td>');
    expect(charge).not.toContain('<button');

    const [created, succeeded] = box.events;
    expect(rowOf(page.html, 'event', succeeded!.id)).toContain('<td>payment_charge.succeeded</td>');
    expect(rowOf(page.html, 'event', created!.id)).toContain('value="redeliver">Redeliver</button>');
    // The created event's first attempt got a 500, its retry a 204.
    const delivery = rowOf(page.html, 'delivery', created!.id);
    expect(delivery).toContain('<td data-state="delivered">delivered</td>');
    expect(delivery).toMatch(
      /<ol><li data-ok="false">HTTP 500 · \d+ ms · <time datetime="\d{4}-[^"]+Z" title="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/time><\/li><li data-ok="true">HTTP 204 · /,
    );

    const [transfer] = box.transfers();
    expect(rowOf(page.html, 'transfer', transfer!.id)).toContain('<td class="amount">Rp 125.000</td>');
    expect(rowOf(page.html, 'account', 'acc_partner')).toContain('<td class="amount">Rp 125.000</td>');
    // Less the transfer, plus the paid charge less its Rp 4.000 virtual-account fee.
    expect(rowOf(page.html, 'account', 'acc_merchant')).toContain('<td class="amount">Rp 896.000,50</td>');
    expect(rowOf(page.html, 'account', 'acc_closed')).toContain('<td>inactive</td>');
    // The sandbox's own page is not the service's traffic.
    expect(box.requests.at(-1)).toMatchObject({ method: 'GET', path: '/', authorized: false });
  });

  it('stays small with 100,000 charges: the newest 50, and the rest counted (the API still lists them all)', async () => {
    const box = await sandbox();
    box.seedCharges(100_000);
    const page = await browse(box);
    expect(page.status).toBe(200);
    expect(new TextEncoder().encode(page.html).length).toBeLessThan(300 * 1024);
    expect(page.html).toContain('<h2 id="charges">Charges (100,000)</h2>');
    expect(page.html).toContain(
      '<p data-older="99950">The newest 50 shown, and 99,950 older charges: use the API (<code>GET /v1/payments/charges</code>) or <code>lunas-sandbox charges</code>.</p>',
    );
    expect(page.html.split('<tr data-charge="')).toHaveLength(51);
    const listed = await call(box, 'GET', '/v1/payments/charges?pagesize=100&page=1000');
    expect([listed.body.total_items, listed.body.data.length]).toEqual([100_000, 100]);
  });

  it('says when there is nothing yet, and answers another method 405', async () => {
    const box = await sandbox();
    const page = await browse(box);
    expect(page.html).toContain('No charges yet.');
    expect(page.html).toContain('No webhook deliveries yet');
    const put = await browse(box, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('shows a pending charge with Pay, Fail and Expire, and the next attempt of a waiting retry', async () => {
    const hook = await webhookReceiver(() => 503);
    const box = await sandbox({ webhookUrl: hook.url, webhookRetryDelaysMs: [60_000] });
    const id = await newCharge(box);
    await expect.poll(() => box.deliveries[0]?.retryAt ?? null).not.toBeNull();
    const { html } = await browse(box);
    const row = rowOf(html, 'charge', id);
    for (const [value, name] of [
      ['pay', 'Pay'],
      ['fail', 'Fail'],
      ['expire', 'Expire'],
    ]) {
      expect(row).toContain(`<button type="submit" name="action" value="${value}">${name}</button>`);
    }
    expect(row).toContain(`<input type="hidden" name="charge" value="${id}">`);
    const delivery = rowOf(html, 'delivery', box.events[0]!.id);
    expect(delivery).toContain('<td data-state="pending">pending</td>');
    expect(delivery).toContain(`<td><time datetime="${box.deliveries[0]!.retryAt!.toISOString()}"`);
  });
});

describe('POST / (the page buttons)', () => {
  it.each([
    ['pay', 'success', 'payment_charge.succeeded'],
    ['fail', 'failed', 'payment_charge.failed'],
    ['expire', 'failed', 'payment_charge.failed'],
  ] as const)(
    '%s settles the charge as its helper does and answers 303 back to the page',
    async (action, status, type) => {
      const box = await sandbox();
      const id = await newCharge(box);
      const pressed = await press(box, { action, charge: id });
      expect(pressed.status).toBe(303);
      expect(pressed.headers.get('location')).toBe('/#charges');
      expect((await call(box, 'GET', `/v1/payments/charges/${id}`)).body.data.status).toBe(status);
      expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', type]);
      expect(rowOf((await browse(box)).html, 'charge', id)).toContain(`data-status="${status}"`);
    },
  );

  it('Redeliver sends the event again', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url });
    await newCharge(box);
    await box.webhooksSettled();
    const pressed = await press(box, { action: 'redeliver', event: box.events[0]!.id });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe('/#events');
    await box.webhooksSettled();
    expect(box.deliveries.map((delivery) => delivery.redelivery)).toEqual([false, true]);
    expect(hook.received.map(({ event }) => event.id)).toEqual([box.events[0]!.id, box.events[0]!.id]);
  });

  it('a press on a settled charge, an unknown id, or with no webhook URL changes nothing and says why', async () => {
    const box = await sandbox();
    const id = await newCharge(box);
    await box.payCharge(id);
    const again = await press(box, { action: 'fail', charge: id });
    expect(again.status).toBe(409);
    expect(again.html).toContain(`<p role="status">Charge ${id} is success, not pending`);
    const unknown = await press(box, { action: 'pay', charge: 'ch_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('There is no charge &quot;ch_nope&quot;.');
    expect((await press(box, { action: 'redeliver', event: 'evt_nope' })).status).toBe(404);
    const noUrl = await press(box, { action: 'redeliver', event: box.events[0]!.id });
    expect(noUrl.status).toBe(409);
    expect(noUrl.html).toContain('webhook');
    const bad = await press(box, { action: 'constructor', charge: id });
    expect(bad.status).toBe(400);
    expect(box.events).toHaveLength(2);
  });

  it.each([
    ['another site (Sec-Fetch-Site: cross-site)', { 'sec-fetch-site': 'cross-site' }],
    ['a sibling site (Sec-Fetch-Site: same-site)', { 'sec-fetch-site': 'same-site' }],
    ['another origin (Origin)', { origin: 'https://evil.example' }],
    ['the sandbox under another port (Origin)', { origin: 'http://127.0.0.1:1' }],
  ])('a press from %s is refused with 403, even with the token, and changes nothing', async (_from, headers) => {
    const box = await sandbox();
    const id = await newCharge(box);
    const refused = await press(box, { action: 'pay', charge: id }, headers);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Request refused');
    expect(box.charges()[0]!.status).toBe('pending');
    expect(box.events).toHaveLength(1);
  });

  it('a press without the page token, with a payment page token, or with the wrong encoding is refused', async () => {
    const box = await sandbox();
    const id = await newCharge(box);
    expect((await press(box, { action: 'pay', charge: id, token: '' })).status).toBe(403);
    expect((await press(box, { action: 'pay', charge: id, token: '0'.repeat(64) })).status).toBe(403);
    const payPage = await fetch(`${box.url}/pay/${id}`).then((response) => response.text());
    expect((await press(box, { action: 'pay', charge: id, token: formTokenOf(payPage) })).status).toBe(403);
    const json = await browse(box, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'pay', charge: id }),
    });
    expect(json.status).toBe(415);
    expect(box.charges()[0]!.status).toBe('pending');
  });
});

describe('escaping on the sandbox page', () => {
  const HOSTILE = `<img src=x onerror="alert(1)">'&"</td></tr><script>alert(2)</script>`;

  it('escapes every value a caller sent: descriptions, references, channels, account ids and names', async () => {
    const hook = await webhookReceiver(() => 302);
    const box = await sandbox({
      webhookUrl: hook.url,
      webhookRetryDelaysMs: [],
      accounts: [
        { id: `acc_${HOSTILE}`, name: HOSTILE, balance: '100.00' },
        { id: 'acc_other', name: HOSTILE, balance: '0.00' },
      ],
      account: `acc_${HOSTILE}`,
    });
    const id = await newCharge(box, {
      payment_method: 'virtual_account',
      amount: 10_000,
      channel: HOSTILE.slice(0, 50),
      description: HOSTILE,
      client_reference_id: HOSTILE.slice(0, 50),
      payment_method_options: { virtual_account: { account_name: HOSTILE.slice(0, 40) } },
    });
    expect(
      (
        await createTransfer(box, {
          destination_account_id: 'acc_other',
          amount: 1,
          currency: 'idr',
          description: HOSTILE,
        })
      ).status,
    ).toBe(200);
    await box.webhooksSettled();
    const { html } = await browse(box);
    expect(html).toContain(id);
    // Only the page's own script and no element the caller's text would have made.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;&quot;&lt;/td&gt;');
    expect(html).toContain(`data-account="acc_&lt;img`);
    // The unknown id a press names is escaped in the notice too.
    const unknown = await press(box, { action: 'pay', charge: HOSTILE });
    expect(unknown.status).toBe(404);
    expect(unknown.html.match(/<script/g)).toHaveLength(1);
    expect(unknown.html).not.toContain('<img');
  });
});
