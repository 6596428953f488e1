/**
 * The sandbox's own page at `/` in a real browser: Debian's Chromium (or the
 * binary `CHROMIUM` names) driven by playwright-core. With JavaScript on and
 * off, a developer presses `Pay`, `Fail` and `Expire` on pending charges and
 * `Redeliver` on an event, each by its accessible name, and the page, the
 * API and the webhook receiver agree; the page refreshes by itself (a
 * `<noscript>` meta refresh, or the script swapping `<main>`). Under a name
 * rebound to 127.0.0.1 the sandbox does not answer it.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, onTestFinished } from 'vitest';
import type { Client } from 'lunas-sdk';
import type { Sandbox } from 'lunas-sdk/testing';
import { start } from '../e2e/helpers.js';
import { browserTest, REBOUND } from '../helpers/browser-test.js';
import { webhookReceiver } from '../sandbox/webhook-receiver.js';

const it = browserTest;

/** How often the page says it refreshes itself. */
const REFRESH_MS = 5_000;

/**
 * The page open at the sandbox's root in a fresh context, and the errors its console reports (CSP refusals
 * included); with `clock`, the page's timers on Playwright's clock, which a test moves on.
 */
async function openDashboard(
  browser: Browser,
  sandbox: Sandbox,
  javaScriptEnabled: boolean,
  { refreshing = true, clock = false } = {},
) {
  const context = await browser.newContext({ javaScriptEnabled });
  onTestFinished(() => context.close());
  if (clock) await context.clock.install();
  if (!refreshing) {
    // The page's own refresh (a meta refresh with JavaScript off, every few seconds) is a
    // navigation of its own: on a loaded machine it can land in the middle of a test's press or
    // reload. Tests of the buttons take it out; the refresh has its own test below.
    await context.route(
      (url) => url.pathname === '/',
      async (route) => {
        // Only the page itself: a press (a POST) goes to the sandbox untouched, once.
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        const body = (await response.text()).replace(/<noscript><meta http-equiv="refresh"[^>]*><\/noscript>/, '');
        await route.fulfill({ response, body });
      },
    );
  }
  const consoleErrors: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const response = await page.goto(`${sandbox.url}/`);
  expect(response?.status()).toBe(200);
  return { page, consoleErrors };
}

/** The row of the charges' table (or, with `kind`, another table) for `id`. */
const rowOf = (page: Page, id: string, kind: 'charge' | 'event' = 'charge') => page.locator(`tr[data-${kind}="${id}"]`);

/**
 * Presses `button` and waits until the page it leads to (POST, 303 to `/#section`, GET) has
 * loaded. A click does not wait for the navigation it starts: a reload issued while that
 * navigation is still committing fails in Chromium with "Not attached to an active page".
 */
async function press(page: Page, button: Locator, section: 'charges' | 'events'): Promise<void> {
  // The redirect is not committed: the page's one navigation is the GET it leads to.
  const navigated = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
  await button.click();
  await navigated;
  await page.waitForLoadState('load');
  expect(new URL(page.url()).hash).toBe(`#${section}`);
}

/** The status a charge's row shows, once it shows `status`. */
async function rowShows(page: Page, id: string, status: string): Promise<void> {
  await rowOf(page, id).locator(`td[data-status="${status}"]`).waitFor();
}

async function charge(client: Client, description: string): Promise<string> {
  const created = await client.charges.create({ payment_method: 'qris', amount: 25_000, description });
  return created.id;
}

describe.each([
  { mode: 'JavaScript on', javaScriptEnabled: true },
  { mode: 'JavaScript off', javaScriptEnabled: false },
])('the sandbox page in Chromium, $mode', ({ javaScriptEnabled }) => {
  it('Pay, Fail, Expire and Redeliver act as the helpers do; the page, the API and the webhooks agree', async ({
    browser,
  }) => {
    const hook = await webhookReceiver();
    const { sandbox, client } = await start({ webhookUrl: hook.url });
    const [toPay, toFail, toExpire] = [
      await charge(client, 'order 1'),
      await charge(client, 'order 2'),
      await charge(client, 'order 3'),
    ];
    const { page, consoleErrors } = await openDashboard(browser, sandbox, javaScriptEnabled, { refreshing: false });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sandbox');
    const payRow = rowOf(page, toPay);
    expect(await payRow.getByRole('cell', { name: 'Rp 25.000' }).isVisible()).toBe(true);
    const amountWraps = payRow
      .getByRole('cell', { name: 'Rp 25.000' })
      .evaluate((td) => getComputedStyle(td).whiteSpace);
    expect(await amountWraps).toBe('nowrap');
    expect(await payRow.getByRole('link', { name: toPay }).getAttribute('href')).toBe(`/pay/${toPay}`);

    await press(page, payRow.getByRole('button', { name: 'Pay', exact: true }), 'charges');
    await rowShows(page, toPay, 'success');
    await press(page, rowOf(page, toFail).getByRole('button', { name: 'Fail', exact: true }), 'charges');
    await rowShows(page, toFail, 'failed');
    await press(page, rowOf(page, toExpire).getByRole('button', { name: 'Expire', exact: true }), 'charges');
    await rowShows(page, toExpire, 'failed');
    expect(new URL(page.url()).pathname).toBe('/');
    // A settled charge offers no button.
    expect(await rowOf(page, toPay).getByRole('button').count()).toBe(0);
    const statuses = await Promise.all(
      [toPay, toFail, toExpire].map(async (id) => (await client.charges.retrieve(id)).status),
    );
    expect(statuses).toEqual(['success', 'failed', 'failed']);

    await sandbox.webhooksSettled();
    const succeeded = sandbox.events.find((event) => event.type === 'payment_charge.succeeded')!;
    const before = hook.received.length;
    await page.reload();
    await press(
      page,
      rowOf(page, succeeded.id, 'event').getByRole('button', { name: 'Redeliver', exact: true }),
      'events',
    );
    await expect.poll(() => hook.received.length).toBe(before + 1);
    expect(hook.received.at(-1)?.event.id).toBe(succeeded.id);
    await sandbox.webhooksSettled();
    // The redelivery appears among the deliveries, with its attempt.
    await page.reload();
    const redelivery = page.getByRole('row').filter({ hasText: 'payment_charge.succeeded (redelivery)' });
    expect(await redelivery.locator('td[data-state="delivered"]').count()).toBe(1);
    expect(await redelivery.getByRole('listitem').first().textContent()).toMatch(/^HTTP 204 · \d+ ms · \d{4}-/);
    expect(consoleErrors).toEqual([]);
  });

  it('refreshes by itself: a charge created while it is open appears', async ({ browser }) => {
    const { sandbox, client } = await start();
    // With JavaScript on, the page's own timer is moved on rather than waited for; a meta
    // refresh (JavaScript off) is the browser's, which no clock of the page's moves.
    const { page, consoleErrors } = await openDashboard(browser, sandbox, javaScriptEnabled, {
      clock: javaScriptEnabled,
    });
    expect(await page.getByText(`This page refreshes every ${REFRESH_MS / 1000} seconds.`).isVisible()).toBe(true);
    expect(await page.getByText('No charges yet.').isVisible()).toBe(true);
    const id = await charge(client, 'while open');
    if (javaScriptEnabled) await page.clock.fastForward(REFRESH_MS);
    await rowOf(page, id).waitFor({ timeout: 15_000 });
    expect(await rowOf(page, id).getByRole('button', { name: 'Pay', exact: true }).isVisible()).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});

it('is not served under a name rebound to 127.0.0.1', async ({ browser }) => {
  const { sandbox } = await start();
  const context = await browser.newContext();
  onTestFinished(() => context.close());
  const page = await context.newPage();
  const response = await page.goto(`http://${REBOUND}:${new URL(sandbox.url).port}/`);
  expect(response?.status()).toBe(421);
  expect(await page.content()).not.toContain('Sandbox');
});
