/**
 * Cross-site requests against the payment page's form: a page on another
 * site can make the developer's browser POST `action=pay` to a sandbox
 * charge's `payment_url` (a form needs no JavaScript, and no CORS). The form
 * carries a token only the sandbox's own page knows, per charge, and the
 * browser's `Origin` and `Sec-Fetch-Site` must say the sandbox's own origin:
 * a POST without the token, with another charge's, or from another origin
 * gets 403 and changes nothing. Over HTTP and in process.
 */
import { describe, expect, it } from 'vitest';
import type { InProcessSandbox, Sandbox } from 'lunas-sdk/testing';
import { call, createCharge, formTokenOf, inProcessSandbox, sandbox as startTestSandbox } from '../sandbox/helpers.js';

type Target = Sandbox | InProcessSandbox;

const send = (box: Target, url: string, init?: RequestInit) =>
  ('fetch' in box ? box.fetch : fetch)(url, { redirect: 'manual', ...init });

/** A pending charge and the token its page's form carries. */
async function chargeWithPage(box: Target): Promise<{ id: string; url: string; token: string }> {
  const created = await createCharge(box, { payment_method: 'qris', amount: 25_000 });
  const url = created.body.data.payment_url as string;
  const token = formTokenOf(await (await send(box, url)).text());
  return { id: created.body.data.id as string, url, token };
}

const press = (box: Target, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  send(box, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });

async function expectUnchanged(box: Target, id: string): Promise<void> {
  expect((await call(box, 'GET', `/v1/payments/charges/${id}`)).body.data.status).toBe('pending');
  expect(box.events.filter((event) => event.type !== 'payment_charge.created')).toEqual([]);
}

describe.each([
  ['over HTTP', async (): Promise<Target> => startTestSandbox()],
  ['in process', async (): Promise<Target> => inProcessSandbox()],
])('the payment form %s', (_name, open) => {
  it('refuses a POST without the page\u2019s token, or with another charge\u2019s, with 403 and changes nothing', async () => {
    const box = await open();
    const { id, url } = await chargeWithPage(box);
    const other = await chargeWithPage(box);
    for (const fields of [
      { action: 'pay' },
      { action: 'pay', token: '' },
      { action: 'fail', token: other.token },
      { action: 'pay', token: other.token.slice(0, 63) },
      { action: 'pay', token: `${other.token}0` },
    ]) {
      const refused = await press(box, url, fields);
      expect(refused.status, JSON.stringify(fields)).toBe(403);
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await refused.text();
      expect(html).toContain('<h1>Request refused</h1>');
      expect(html).not.toContain(other.token);
    }
    await expectUnchanged(box, id);
    await expectUnchanged(box, other.id);
  });

  it('refuses a POST with the token but from another origin or site, with 403, and changes nothing', async () => {
    const box = await open();
    const { id, url, token } = await chargeWithPage(box);
    for (const headers of [
      { origin: 'http://evil.example' },
      { origin: 'null' },
      { origin: `${new URL(url).origin}.evil.example` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: new URL(url).origin, 'sec-fetch-site': 'cross-site' },
    ]) {
      const refused = await press(box, url, { action: 'pay', token }, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(await refused.text()).toContain('<h1>Request refused</h1>');
    }
    await expectUnchanged(box, id);
  });

  it('settles a POST with the token from the page\u2019s own origin, as the page\u2019s form sends it', async () => {
    const box = await open();
    const { id, url, token } = await chargeWithPage(box);
    const other = await chargeWithPage(box);
    const headers = { origin: new URL(url).origin, 'sec-fetch-site': 'same-origin' };
    const pressed = await press(box, url, { action: 'pay', token }, headers);
    expect(pressed.status).toBe(303);
    expect((await call(box, 'GET', `/v1/payments/charges/${id}`)).body.data.status).toBe('success');
    // A script (curl, a test) sends neither header: the token is enough.
    expect((await press(box, other.url, { token: other.token, action: 'fail' })).status).toBe(303);
    expect((await call(box, 'GET', `/v1/payments/charges/${other.id}`)).body.data.status).toBe('failed');
  });
});
