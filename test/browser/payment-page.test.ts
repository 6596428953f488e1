/**
 * The payment page in a real browser: Debian's Chromium (or the binary
 * `CHROMIUM` names) driven by playwright-core, which never downloads one.
 * Each test creates a charge with the SDK, opens its `payment_url`, presses a
 * button by its accessible name, and checks that the page, the API and a
 * webhook receiver agree; with JavaScript on (the page updates in place) and
 * off (plain form, 303, the page again). A page on another site cannot press
 * the buttons, nor reach the sandbox under a name rebound to 127.0.0.1
 * (`evil.example`, which this Chromium resolves to 127.0.0.1).
 */
import { createServer } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, onTestFinished } from 'vitest';
import { parseEvent, type Client, type CreatedCharge, type LunasEvent } from 'lunas-sdk';
import type { Sandbox } from 'lunas-sdk/testing';
import { start } from '../e2e/helpers.js';
import { browserTest, REBOUND } from '../helpers/browser-test.js';
import { listenForTest } from '../helpers/recorders.js';

const it = browserTest;

/** A page in a fresh context, closed after the test, and the errors its console reports (CSP refusals included). */
async function openPage(
  browser: Browser,
  javaScriptEnabled: boolean,
): Promise<{ page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled });
  onTestFinished(() => context.close());
  const consoleErrors: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { page, consoleErrors };
}

/** A webhook endpoint on 127.0.0.1 whose `next` resolves when an event of a type arrives for a charge. */
async function webhookReceiver() {
  const received: LunasEvent[] = [];
  const waiting: { matches: (event: LunasEvent) => boolean; resolve: (event: LunasEvent) => void }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const event = parseEvent(body);
      received.push(event);
      for (const waiter of waiting.filter((each) => each.matches(event))) waiter.resolve(event);
      res.writeHead(204).end();
    });
  });
  const url = `${await listenForTest(server)}/webhooks/lunas`;
  const next = (type: string, chargeId: string): Promise<LunasEvent> => {
    const matches = (event: LunasEvent) => event.type === type && (event.data as { id?: unknown }).id === chargeId;
    const already = received.find(matches);
    return already ? Promise.resolve(already) : new Promise((resolve) => waiting.push({ matches, resolve }));
  };
  return { url, next };
}

const VA_NUMBER = '8808123456789012';

const statusOf = (page: Page) => page.locator('#status').textContent();

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>;

/** A charge's page opened by a customer, with what the test checks it against. */
interface Opened {
  sandbox: Sandbox;
  client: Client;
  charge: CreatedCharge;
  page: Page;
  consoleErrors: string[];
  hook: Receiver;
}

/** Creates a charge, opens its payment_url, and checks what a customer sees before pressing. */
async function customerOpens(
  browser: Browser,
  javaScriptEnabled: boolean,
  method: 'qris' | 'virtual_account',
): Promise<Opened> {
  const hook = await webhookReceiver();
  const { sandbox, client } = await start({ webhookUrl: hook.url });
  const charge = await client.charges.create({
    payment_method: method,
    amount: 25_000,
    channel: 'bca',
    ...(method === 'virtual_account'
      ? { payment_method_options: { virtual_account: { account_number: VA_NUMBER, account_name: 'Toko Budi' } } }
      : {}),
  });
  const { page, consoleErrors } = await openPage(browser, javaScriptEnabled);
  await page.goto(charge.payment_url);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Rp 25.000');
  // A plain space, kept from wrapping by the style.
  expect(await page.getByRole('heading', { level: 1 }).evaluate((h1) => getComputedStyle(h1).whiteSpace)).toBe(
    'nowrap',
  );
  expect(await statusOf(page)).toBe('pending');
  if (method === 'qris') {
    expect(await page.getByText('QRIS', { exact: true }).isVisible()).toBe(true);
    const qr = page.getByRole('img', { name: 'QRIS code to pay Rp 25.000' });
    expect(await qr.isVisible()).toBe(true);
    expect((await qr.boundingBox())?.width).toBeGreaterThan(100);
  } else {
    expect(await page.getByText('Virtual account', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(VA_NUMBER, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('bca', { exact: true }).isVisible()).toBe(true);
  }
  return { sandbox, client, charge, page, consoleErrors, hook };
}

/** The page, the API and the webhook receiver all say `status`. */
async function allAgree({ client, charge, page, consoleErrors, hook }: Opened, status: 'success' | 'failed') {
  await page.locator(`#status[data-status="${status}"]`).waitFor();
  expect(await statusOf(page)).toBe(status);
  expect(await page.getByRole('button').count()).toBe(0);
  const retrieved = await client.charges.retrieve(charge.id);
  expect(retrieved.status).toBe(status);
  const type = status === 'success' ? 'payment_charge.succeeded' : 'payment_charge.failed';
  const event = await hook.next(type, charge.id);
  expect(event.data).toEqual(retrieved);
  expect(consoleErrors).toEqual([]);
}

describe.each([
  { mode: 'JavaScript on', javaScriptEnabled: true },
  { mode: 'JavaScript off', javaScriptEnabled: false },
])('the payment page in Chromium, $mode', ({ javaScriptEnabled }) => {
  it('Pay on a qris charge: the page, the API and the webhook all say success', async ({ browser }) => {
    const opened = await customerOpens(browser, javaScriptEnabled, 'qris');
    const { page, charge } = opened;
    if (javaScriptEnabled) await page.evaluate(() => Object.assign(window, { stillThisDocument: true }));
    await page.getByRole('button', { name: 'Pay' }).click();
    await allAgree(opened, 'success');
    expect(page.url()).toBe(charge.payment_url);
    if (javaScriptEnabled) {
      // Updated in place: the document before the press is the one showing the status.
      expect(await page.evaluate(() => (window as { stillThisDocument?: boolean }).stillThisDocument)).toBe(true);
    }
    expect(opened.sandbox.events.map((event) => event.type)).toEqual([
      'payment_charge.created',
      'payment_charge.succeeded',
    ]);
  });

  it('Fail on a virtual account charge: the page, the API and the webhook all say failed', async ({ browser }) => {
    const opened = await customerOpens(browser, javaScriptEnabled, 'virtual_account');
    await opened.page.getByRole('button', { name: 'Fail' }).click();
    await allAgree(opened, 'failed');
    expect((await opened.client.charges.retrieve(opened.charge.id)).paid_at).toBeNull();
  });

  it('a press in a second tab after the first settled the charge shows a message and changes nothing', async ({
    browser,
  }) => {
    const opened = await customerOpens(browser, javaScriptEnabled, 'qris');
    const secondTab = await opened.page.context().newPage();
    await secondTab.goto(opened.charge.payment_url);
    await opened.page.getByRole('button', { name: 'Pay' }).click();
    await allAgree(opened, 'success');

    await secondTab.getByRole('button', { name: 'Fail' }).click();
    await secondTab.locator('#status[data-status="success"]').waitFor();
    expect(await secondTab.getByRole('status').textContent()).toBe(
      'This charge was already success: pressing Fail changed nothing.',
    );
    expect(await secondTab.getByRole('button').count()).toBe(0);
    expect((await opened.client.charges.retrieve(opened.charge.id)).status).toBe('success');
    expect(opened.sandbox.events.map((event) => event.type)).toEqual([
      'payment_charge.created',
      'payment_charge.succeeded',
    ]);
  });
});

it('a hostile customer name is shown as text and never runs', async ({ browser }) => {
  const { client } = await start();
  const name = `<img src=x onerror="window.ran='img'"></dd><script>window.ran='script'</script>`;
  const charge = await client.charges.create({ payment_method: 'qris', amount: 10_000, customer_details: { name } });
  const { page, consoleErrors } = await openPage(browser, true);
  await page.goto(charge.payment_url);
  expect(await page.getByText(name, { exact: true }).isVisible()).toBe(true);
  expect(await page.evaluate(() => (window as { ran?: string }).ran)).toBeUndefined();
  expect(await page.locator('main img').count()).toBe(1); // the QR code only
  expect(consoleErrors).toEqual([]);
});

it('with JavaScript on, a press the sandbox refuses says so and leaves the buttons usable', async ({ browser }) => {
  const opened = await customerOpens(browser, true, 'qris');
  const path = new URL(opened.charge.payment_url).pathname;
  opened.sandbox.inject({ kind: 'status', status: 503, method: 'POST', path });
  await opened.page.getByRole('button', { name: 'Pay' }).click();
  const status = opened.page.getByRole('status');
  await status.filter({ hasText: 'did not go through' }).waitFor();
  expect(await status.textContent()).toBe('The press did not go through: the sandbox answered HTTP 503 without a page');
  expect(await statusOf(opened.page)).toBe('pending');
  expect((await opened.client.charges.retrieve(opened.charge.id)).status).toBe('pending');

  await opened.page.getByRole('button', { name: 'Pay' }).click();
  await allAgree({ ...opened, consoleErrors: [] }, 'success');
  expect(opened.consoleErrors).toEqual([expect.stringContaining('503')]);
});

describe('another site', () => {
  it('cannot press Pay: its form posted to payment_url gets 403, and the charge stays pending', async ({ browser }) => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    // The attacker's page: a form of its own, aimed at the charge's page, with the fields it can guess.
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><title>Win a prize</title><form method="post" action="${charge.payment_url}">` +
          '<input type="hidden" name="action" value="pay"><input type="hidden" name="token" value="guess">' +
          '<button type="submit">Claim</button></form>',
      );
    });
    const { port } = new URL(await listenForTest(attacker));
    const { page } = await openPage(browser, false);
    await page.goto(`http://${REBOUND}:${port}/`);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.url() === charge.payment_url),
      page.getByRole('button', { name: 'Claim' }).click(),
    ]);
    expect(answer.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Request refused');
    expect((await client.charges.retrieve(charge.id)).status).toBe('pending');
    expect(sandbox.events.map((event) => event.type)).toEqual(['payment_charge.created']);
  });

  it('cannot reach the sandbox under its own name rebound to 127.0.0.1: 421, nothing served or recorded', async ({
    browser,
  }) => {
    const { sandbox, client } = await start();
    const charge = await client.charges.create({ payment_method: 'qris', amount: 25_000 });
    const recorded = sandbox.requests.length;
    const { page } = await openPage(browser, true);
    const rebound = new URL(charge.payment_url);
    rebound.hostname = REBOUND;
    const answer = await page.goto(rebound.href);
    expect(answer?.status()).toBe(421);
    expect(await page.locator('body').textContent()).toContain('421 Misdirected Request');
    expect(await page.getByRole('button').count()).toBe(0);
    expect(sandbox.requests).toHaveLength(recorded);
  });
});
