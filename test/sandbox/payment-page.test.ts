/**
 * The payment page at a charge's `payment_url`, over real HTTP with plain
 * fetch: the page needs no key, answers HTML, and its form settles the
 * charge the way `payCharge`/`failCharge` do.
 */
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { call, createCharge, formTokenOf, sandbox } from './helpers.js';

/** A page request as a browser sends it: no API key, redirects not followed. */
async function browse(box: Sandbox, path: string, init: RequestInit = {}) {
  const response = await fetch(box.url + path, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

/**
 * A press of a button as the page's form sends it: its token (read from the
 * page unless a tab opened earlier holds it) with the action.
 */
async function pressButton(box: Sandbox, path: string, action: string, token?: string) {
  if (token === undefined) {
    const page = await browse(box, path);
    // An unknown charge's page has no form: its press goes without a token.
    token = page.status === 200 ? formTokenOf(page.html) : '';
  }
  return browse(box, path, { method: 'POST', body: new URLSearchParams({ token, action }) });
}

async function newCharge(box: Sandbox, body: Record<string, unknown> = { payment_method: 'qris', amount: 25000 }) {
  const created = await createCharge(box, body);
  expect(created.status).toBe(200);
  return { id: created.body.data.id as string, path: new URL(created.body.data.payment_url as string).pathname };
}

describe('GET /pay/{id}', () => {
  it('serves a qris charge as HTML with no key: amount, method, QR image, status and the two buttons', async () => {
    const box = await sandbox();
    const { id, path } = await newCharge(box);
    expect(path).toBe(`/pay/${id}`);
    const page = await browse(box, path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[0-9a-f-]{36}'/);
    expect(page.html).toMatch(/^<!doctype html>/);
    expect(page.html).toContain('<h1 class="amount">Rp 25.000</h1>');
    // One line for `Rp` and the number by the style, not by a no-break space in the text.
    expect(page.html).toContain('.amount{white-space:nowrap}');
    expect(page.html).not.toContain('\u00a0');
    expect(page.html).toContain('<dt>Method</dt><dd>QRIS</dd>');
    expect(page.html).toContain(`<dt>Charge</dt><dd>${id}</dd>`);
    expect(page.html).toMatch(/<img src="data:image\/svg\+xml,%3Csvg[^"]+" alt="QRIS code to pay Rp 25\.000">/);
    expect(page.html).toContain('data-status="pending">pending</dd>');
    expect(page.html).toContain('<button type="submit" name="action" value="pay">Pay</button>');
    expect(page.html).toContain('<button type="submit" name="action" value="fail">Fail</button>');
    expect(page.html).toContain(`<form method="post" action="/pay/${id}">`);
    expect(box.requests.at(-1)).toMatchObject({ method: 'GET', path, authorized: false });
    // The form's token: the same for every view of the page, another for another charge.
    const token = formTokenOf(page.html);
    expect(page.html).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect(formTokenOf((await browse(box, path)).html)).toBe(token);
    expect(formTokenOf((await browse(box, (await newCharge(box)).path)).html)).not.toBe(token);
  });

  it('shows a virtual account charge with its channel, account number and name, and no QR code', async () => {
    const box = await sandbox();
    const { path } = await newCharge(box, {
      payment_method: 'virtual_account',
      channel: 'bca',
      amount: '1500000.50',
      payment_method_options: { virtual_account: { account_name: 'Toko Budi', account_number: '8808123456789012' } },
    });
    const page = await browse(box, path);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1 class="amount">Rp 1.500.000,50</h1>');
    expect(page.html).toContain('<dt>Method</dt><dd>Virtual account</dd>');
    expect(page.html).toContain('<dt>Channel</dt><dd>bca</dd>');
    expect(page.html).toContain('<dt>Account number</dt><dd>8808123456789012</dd>');
    expect(page.html).toContain('<dt>Account name</dt><dd>Toko Budi</dd>');
    expect(page.html).not.toContain('<img');
  });

  it('answers an unknown or undecodable id with a 404 HTML page, not the API envelope', async () => {
    const box = await sandbox();
    for (const path of ['/pay/ch_000000000000000000000000', '/pay/%zz']) {
      const page = await browse(box, path);
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.html).toContain('<h1>Charge not found</h1>');
      expect(page.html).not.toContain('{"status"');
      expect(page.html).not.toContain('<script');
    }
  });

  it('escapes every caller-given value: a hostile customer name, description and channel are shown as text', async () => {
    const box = await sandbox();
    const hostile = `<script>alert("x")</script><img src=x onerror='y'>&amp;`;
    const { path } = await newCharge(box, {
      payment_method: 'qris',
      amount: 10000,
      channel: hostile,
      description: hostile,
      customer_details: { name: hostile },
    });
    const page = await browse(box, path);
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;&amp;amp;';
    for (const term of ['Channel', 'Description', 'Customer']) {
      expect(page.html).toContain(`<dt>${term}</dt><dd>${escaped}</dd>`);
    }
    expect(page.html).not.toContain('<script>alert');
    expect(page.html).not.toContain("onerror='y'");
  });
});

describe('POST /pay/{id}', () => {
  it('Pay: 303 back to the page, which then shows success; the API and the event log agree', async () => {
    const box = await sandbox();
    const { id, path } = await newCharge(box);
    const pressed = await pressButton(box, path, 'pay');
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(path);

    const page = await browse(box, path);
    expect(page.html).toContain('data-status="success">success</dd>');
    expect(page.html).not.toContain('<button');
    expect(page.html).not.toContain('<img');
    expect(page.html).not.toContain('<script');
    const api = await call(box, 'GET', `/v1/payments/charges/${id}`);
    expect(api.body.data).toMatchObject({ id, status: 'success' });
    expect(api.body.data.paid_at).toEqual(expect.any(String));
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.succeeded']);
    expect(box.events.at(-1)?.data).toEqual(api.body.data);
  });

  it('Fail: the charge becomes failed with its event and no paid_at', async () => {
    const box = await sandbox();
    const { id, path } = await newCharge(box, { payment_method: 'virtual_account', amount: 20000 });
    expect((await pressButton(box, path, 'fail')).status).toBe(303);
    expect((await browse(box, path)).html).toContain('data-status="failed">failed</dd>');
    const api = await call(box, 'GET', `/v1/payments/charges/${id}`);
    expect(api.body.data).toMatchObject({ status: 'failed', paid_at: null });
    expect(box.events.at(-1)?.type).toBe('payment_charge.failed');
  });

  it('a press on a charge settled meanwhile (a second tab) says so with 409 and changes nothing', async () => {
    const box = await sandbox();
    const { id, path } = await newCharge(box);
    const secondTab = formTokenOf((await browse(box, path)).html);
    await box.payCharge(id);
    const late = await pressButton(box, path, 'fail', secondTab);
    expect(late.status).toBe(409);
    expect(late.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(late.html).toContain('This charge was already success: pressing Fail changed nothing.');
    expect(late.html).toContain('data-status="success">success</dd>');
    expect(late.html).not.toContain('<button');
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created', 'payment_charge.succeeded']);
  });

  it('refuses an unknown action (400), another encoding (415), a body over 1 MiB (413), an unknown charge (404), with the charge still pending', async () => {
    const box = await sandbox();
    const { id, path } = await newCharge(box);
    const unknownAction = await pressButton(box, path, 'refund');
    expect(unknownAction.status).toBe(400);
    expect(unknownAction.html).toContain('The form&#39;s action must be pay or fail, not &quot;refund&quot;.');
    for (const inherited of ['constructor', '__proto__', 'toString']) {
      expect((await pressButton(box, path, inherited)).status).toBe(400);
    }
    const json = await browse(box, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"action":"pay"}',
    });
    expect(json.status).toBe(415);
    const huge = await browse(box, path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `action=pay&pad=${'x'.repeat(1024 * 1024)}`,
    });
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await pressButton(box, '/pay/ch_000000000000000000000000', 'pay')).status).toBe(404);
    expect((await call(box, 'GET', `/v1/payments/charges/${id}`)).body.data.status).toBe('pending');
    expect(box.events).toHaveLength(1);
  });

  it('another method on a page is a 405 HTML page with Allow', async () => {
    const box = await sandbox();
    const { path } = await newCharge(box);
    const put = await browse(box, path, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect(put.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('the API beside the pages', () => {
  it('keeps its key check and JSON answers for every path that is not a page', async () => {
    const box = await sandbox();
    const { id } = await newCharge(box);
    const noKey = await call(box, 'GET', `/v1/payments/charges/${id}`, { key: null });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toEqual({ status: 'error', message: 'Invalid or missing API key' });
    for (const path of ['/pay', `/pay/${id}/extra`, '/pay/']) {
      const answer = await call(box, 'GET', path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ status: 'error', message: 'Not found' });
    }
  });
});

describe('GET /qr/{id}.svg, a qris charge qr_code_url', () => {
  it('serves the QR code the page shows, as an SVG image, with no key', async () => {
    const box = await sandbox();
    const created = await createCharge(box, { payment_method: 'qris', amount: 25000 });
    const { id, qr_code_url: qrCodeUrl } = created.body.data as { id: string; qr_code_url: string };
    expect(qrCodeUrl).toBe(`${box.url}/qr/${id}.svg`);
    const image = await fetch(qrCodeUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await image.text();
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const page = await browse(box, `/pay/${id}`);
    expect(page.html).toContain(`data:image/svg+xml,${encodeURIComponent(svg)}`);
    expect(box.requests.at(-2)).toMatchObject({ method: 'GET', path: `/qr/${id}.svg`, authorized: false });
  });

  it('answers 404 for a virtual account charge, an unknown id, or another file name', async () => {
    const box = await sandbox();
    const va = await createCharge(box, { payment_method: 'virtual_account', channel: 'bca', amount: 10000 });
    const qris = await createCharge(box, { payment_method: 'qris', amount: 10000 });
    for (const path of [
      `/qr/${va.body.data.id}.svg`,
      '/qr/ch_missing.svg',
      `/qr/${qris.body.data.id}.png`,
      '/qr/.svg',
    ]) {
      const answer = await browse(box, path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
    }
  });
});
