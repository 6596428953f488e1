/**
 * A webhook URL with credentials (`http://alice:secret@host/hook`), as a
 * receiver behind Basic auth needs: the sandbox delivers with them as
 * `Authorization: Basic …` to the URL without them, and the password never
 * shows in what it records or prints (`deliveries`, errors, the listener's copies).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryLines } from '../../src/testing/webhooks/delivery-lines.js';
import type { WebhookDelivery } from '../../src/testing/index.js';
import { maskedWebhookUrl } from '../../src/testing/webhooks/webhook.js';
import { createCharge, inProcessSandbox, sandbox } from './helpers.js';
import { webhookReceiver } from './webhook-receiver.js';

/** A loopback port nothing listens on (it did a moment ago): a connection there is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `user:password` as Basic auth carries it: UTF-8, then base64. */
const basic = (userPass: string) => `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a webhook URL with credentials', () => {
  it('delivers with them as Basic auth, to the URL without them', async () => {
    const hook = await webhookReceiver();
    const { host } = new URL(hook.url);
    const box = await sandbox({ webhookUrl: `http://alice:s3cr%C3%A9t%40x@${host}/hooks?source=lunas` });
    await createCharge(box);
    await box.webhooksSettled();
    expect(box.deliveries.map((delivery) => delivery.state)).toEqual(['delivered']);
    const [received] = hook.received;
    expect(received?.headers.authorization).toBe(basic('alice:s3cr\u00e9t@x'));
    expect(received?.headers['lunas-event-id']).toBe(received?.event.id);
  });

  it('delivers a user name alone as Basic auth with an empty password', async () => {
    const hook = await webhookReceiver();
    const box = await sandbox({ webhookUrl: hook.url.replace('http://', 'http://ops@') });
    await createCharge(box);
    await box.webhooksSettled();
    expect(hook.received[0]?.headers.authorization).toBe(basic('ops:'));
  });

  it('never records nor reports the password of a failing delivery', async () => {
    const reports: WebhookDelivery[] = [];
    const box = await sandbox({
      webhookUrl: `http://alice:hunter2@127.0.0.1:${await closedPort()}/hooks`,
      webhookRetryDelaysMs: [1],
      onWebhookAttempt: (delivery) => void reports.push(delivery),
    });
    await createCharge(box);
    await box.webhooksSettled();
    const [delivery] = box.deliveries;
    expect(delivery?.state).toBe('failed');
    const errors = delivery!.attempts.map((attempt) => attempt.error);
    expect(errors).toEqual([expect.stringContaining('ECONNREFUSED'), expect.stringContaining('ECONNREFUSED')]);
    const everything = JSON.stringify([box.deliveries, reports, reports.map(deliveryLines)]);
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain(Buffer.from('alice:hunter2').toString('base64'));
  });

  it('masks the password in an error text that quotes it, in every form', async () => {
    const password = 'pa ss/w:rd';
    const encoded = encodeURIComponent(password);
    const token = Buffer.from(`alice:${password}`).toString('base64');
    // A fetch whose error quotes what it was given, as a proxy's or a polyfill's might.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('fetch failed', {
          cause: new Error(`http://alice:${encoded}@hooks.test/ said no to ${password} (Basic ${token})`),
        });
      }),
    );
    const box = inProcessSandbox({ webhookUrl: `http://alice:${encoded}@hooks.test/`, webhookRetryDelaysMs: [] });
    await createCharge(box);
    await box.webhooksSettled();
    const error = box.deliveries[0]?.attempts[0]?.error ?? '';
    expect(error).toBe('fetch failed (http://alice:***@hooks.test/ said no to *** (Basic ***))');
  });

  it('refuses credentials that are not percent-encoded UTF-8, without quoting them', async () => {
    for (const webhookUrl of ['http://alice:100%zz@127.0.0.1:3000/hooks', 'http://%C3%28:x@127.0.0.1:3000/hooks']) {
      let thrown: unknown;
      try {
        inProcessSandbox({ webhookUrl });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toBe(
        "webhookUrl's user name and password must be percent-encoded UTF-8 (write % as %25)",
      );
    }
  });
});

describe('maskedWebhookUrl', () => {
  it('shows a URL with its password as ***, and one without a password as it is', () => {
    expect(maskedWebhookUrl('http://alice:secret@127.0.0.1:3000/hook')).toBe('http://alice:***@127.0.0.1:3000/hook');
    expect(maskedWebhookUrl('https://:secret@hooks.test/a?b=c')).toBe('https://:***@hooks.test/a?b=c');
    expect(maskedWebhookUrl('http://ops@127.0.0.1:3000/hook')).toBe('http://ops@127.0.0.1:3000/hook');
    expect(maskedWebhookUrl('http://127.0.0.1:3000/hook')).toBe('http://127.0.0.1:3000/hook');
  });
});
