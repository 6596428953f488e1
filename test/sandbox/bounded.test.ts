/**
 * A sandbox's memory and its page stay bounded however long it serves: the
 * deliveries log and the request log keep the newest 10,000 (a delivery still
 * pending is never dropped), and the root page shows the newest 50 records of
 * each kind and counts the rest. The API still lists everything.
 */
import { describe, expect, it } from 'vitest';
import { KEPT_DELIVERIES, KEPT_REQUESTS } from '../../src/testing/defaults.js';
import { dashboardPage, DASHBOARD_ROWS } from '../../src/testing/pages/dashboard-page.js';
import { WebhookDeliveries } from '../../src/testing/webhooks/deliveries.js';
import type { SandboxEvent, WebhookHandler } from '../../src/testing/index.js';
import { eventually } from '../helpers/waiting.js';
import { call, createCharge, createTransfer, inProcessSandbox } from './helpers.js';

const rowsOf = (html: string, kind: string): number => html.split(`<tr data-${kind}="`).length - 1;

describe('the deliveries log', () => {
  it('keeps the newest 10,000; an event whose deliveries went is still recorded and redelivered', async () => {
    expect(KEPT_DELIVERIES).toBe(10_000);
    let failFirst = true;
    const webhook: WebhookHandler = () => {
      const status = failFirst ? 500 : 204;
      failFirst = false;
      return new Response(null, { status });
    };
    const box = inProcessSandbox({ webhook, webhookRetryDelaysMs: [1] });
    await createCharge(box);
    await createCharge(box);
    await box.webhooksSettled();
    const [early, late] = box.events;
    // 100 sequences of 100, one after another within each: 2 + 10,000 deliveries in all.
    for (let sequence = 0; sequence < 100; sequence++) box.redeliver(late!.id, { times: 100 });
    await box.webhooksSettled();

    const kept = box.deliveries;
    expect(kept).toHaveLength(10_000);
    expect(kept.every(({ eventId, redelivery }) => eventId === late!.id && redelivery)).toBe(true);
    // The failed attempt of a delivery no longer kept still counts.
    expect(box.webhookFailures).toBe(1);
    expect(box.events.map(({ id }) => id)).toEqual([early!.id, late!.id]);

    box.redeliver(early!.id);
    await box.webhooksSettled();
    expect(box.deliveries).toHaveLength(10_000);
    expect(box.deliveries.at(-1)).toMatchObject({ eventId: early!.id, redelivery: true, state: 'delivered' });
  }, 60_000);

  it('never drops a delivery still pending, however old: the settled ones go first', async () => {
    let release: (response: Response) => void = () => {};
    const handler: WebhookHandler = (request) =>
      request.headers.get('lunas-event-id') === 'evt_1'
        ? new Promise((resolve) => (release = resolve))
        : new Response(null, { status: 204 });
    const webhooks = new WebhookDeliveries({
      url: undefined,
      handler,
      retryDelaysMs: [],
      timeoutMs: 10_000,
      onAttempt: undefined,
      keep: 2,
    });
    const event = (id: string) => ({ id, type: 'payment_charge.created', created_at: '', data: {} }) as SandboxEvent;
    const kept = () => webhooks.all.map(({ eventId, state }) => `${eventId} ${state}`);

    for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4']) webhooks.send(event(id));
    await eventually(() => webhooks.all.filter(({ state }) => state === 'delivered').length === 1);
    expect(kept()).toEqual(['evt_1 pending', 'evt_4 delivered']);

    release(new Response(null, { status: 204 }));
    await webhooks.settled();
    expect(kept()).toEqual(['evt_1 delivered', 'evt_4 delivered']);
    webhooks.send(event('evt_5'));
    await webhooks.settled();
    expect(kept()).toEqual(['evt_4 delivered', 'evt_5 delivered']);
  });
});

describe('the request log', () => {
  it('keeps the newest 10,000 requests', async () => {
    expect(KEPT_REQUESTS).toBe(10_000);
    const box = inProcessSandbox();
    for (let index = 0; index < 10_005; index++) await box.fetch(`${box.url}/v1/nope/${index}`);
    const { requests } = box;
    expect(requests).toHaveLength(10_000);
    expect([requests[0]?.path, requests.at(-1)?.path]).toEqual(['/v1/nope/5', '/v1/nope/10004']);
  }, 60_000);
});

describe('the root page', () => {
  it('renders the newest 50 of each kind, newest first, and counts the rest', async () => {
    expect(DASHBOARD_ROWS).toBe(50);
    const box = inProcessSandbox({ webhook: () => new Response(null, { status: 204 }) });
    const ids: string[] = [];
    for (let index = 0; index < 55; index++) {
      const { id } = (await createCharge(box)).body.data;
      ids.push(id);
      await box.payCharge(id);
      await createTransfer(box, { destination_account_id: 'acc_partner', amount: 1, currency: 'idr' });
    }
    await box.webhooksSettled();

    const { text: html } = await call(box, 'GET', '/');
    expect([rowsOf(html, 'charge'), rowsOf(html, 'event'), rowsOf(html, 'delivery'), rowsOf(html, 'transfer')]).toEqual(
      [50, 50, 50, 50],
    );
    expect(html).toContain('<h2 id="charges">Charges (55)</h2>');
    expect(html).toContain('<h2 id="events">Events (110)</h2>');
    expect(html).toContain('<h2 id="deliveries">Webhook deliveries (110)</h2>');
    expect(html).toContain('<h2 id="transfers">Transfers (55)</h2>');
    expect(html).toContain('The newest 50 shown, and 5 older charges: use the API');
    expect(html).toContain('The newest 50 shown, and 60 older events: read <code>sandbox.events</code>');
    expect(html).toContain('The newest 50 shown, and 60 older deliveries: read <code>sandbox.deliveries</code>');
    expect(html).toContain('The newest 50 shown, and 5 older transfers: use the API');
    // Newest first: the last charge leads, the first five are left out.
    expect(html.indexOf(`<tr data-charge="${ids[54]}">`)).toBeLessThan(html.indexOf(`<tr data-charge="${ids[5]}">`));
    expect(html).not.toContain(`<tr data-charge="${ids[4]}">`);
    // Balances are few: every account is shown.
    expect(rowsOf(html, 'account')).toBe(3);
  });

  it('says nothing of older records when every one is shown', () => {
    const none = { data: [], total: 0 };
    const html = dashboardPage(
      {
        charges: none,
        events: none,
        deliveries: none,
        transfers: none,
        accounts: [],
        time: { now: '2026-11-28T08:00:00.000Z', advancedMs: 0, realClock: true },
      },
      'f'.repeat(64),
    ).html;
    expect(html).not.toContain('older');
    expect(html).toContain('<h2 id="charges">Charges (0)</h2>');
  });
});
