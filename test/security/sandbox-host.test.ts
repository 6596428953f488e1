/**
 * DNS rebinding against the sandbox's HTTP server: a page the developer
 * visits at `http://evil.example:PORT`, whose name then resolves to
 * 127.0.0.1, reaches the sandbox with `Host: evil.example:PORT`. The server
 * answers only the loopback names it serves (127.0.0.1, localhost and [::1],
 * at its port); any other Host gets a plain 421 before anything is recorded,
 * read or changed. The in-process sandbox answers at its own URL, as before.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from 'lunas-sdk/testing';
import { call, createCharge, inProcessSandbox, sandbox as startTestSandbox } from '../sandbox/helpers.js';

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
}

/** One request to the sandbox's socket with `host` as its Host header, as a rebound name sends it. */
function send(box: Sandbox, method: string, path: string, host: string, body?: string): Promise<Answer> {
  const { port } = new URL(box.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        setHost: false,
        headers: {
          host,
          authorization: `Bearer ${box.apiKey}`,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], text }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** An HTTP/1.0 request with no Host header at all, written on a raw socket. */
function sendWithoutHost(box: Sandbox, path: string): Promise<string> {
  const { port } = new URL(box.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.0\r\nAuthorization: Bearer ${box.apiKey}\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the Host the sandbox answers', () => {
  it('answers its loopback names at its port, in any case', async () => {
    const box = await startTestSandbox();
    const { port } = new URL(box.url);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LocalHost:${port}`]) {
      const answer = await send(box, 'GET', '/v1/payouts', host);
      expect(answer.status, host).toBe(200);
    }
    expect(box.requests).toHaveLength(4);
  });

  it('answers any other Host with a plain 421 and records, reads and changes nothing', async () => {
    const box = await startTestSandbox();
    const created = await createCharge(box);
    const chargeId = created.body.data.id as string;
    const { port } = new URL(box.url);
    const hosts = [
      `evil.example:${port}`,
      'evil.example',
      `127.0.0.1.nip.io:${port}`,
      `localhost.:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${Number(port) === 65_535 ? 1 : Number(port) + 1}`,
      '127.0.0.1',
      'localhost',
      `127.0.0.1:${port}@evil.example`,
      `[::ffff:127.0.0.1]:${port}`,
      `0x7f000001:${port}`,
      '',
    ];
    const before = box.requests.length;
    for (const host of hosts) {
      const payment = JSON.stringify({ payment_method: 'qris', amount: 10_000 });
      const answers = [
        await send(box, 'POST', '/v1/payments/charges', host, payment),
        await send(box, 'GET', `/v1/payments/charges/${chargeId}`, host),
        await send(box, 'GET', `/pay/${chargeId}`, host),
        await send(box, 'POST', `/pay/${chargeId}`, host, 'action=pay'),
      ];
      for (const answer of answers) {
        expect(answer.status, host).toBe(421);
        expect(answer.contentType, host).toBe('text/plain; charset=utf-8');
        expect(answer.text, host).toContain(`http://127.0.0.1:${port}`);
        expect(answer.text, host).not.toContain(chargeId);
      }
    }
    expect(await sendWithoutHost(box, '/v1/payouts')).toMatch(/^HTTP\/1\.1 421 /);
    expect(box.requests).toHaveLength(before);
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created']);
    const list = await call(box, 'GET', '/v1/payments/charges');
    expect(list.body.data.map((charge: { status: string }) => charge.status)).toEqual(['pending']);
  });

  it('leaves the in-process sandbox answering at its own URL', async () => {
    const box = inProcessSandbox();
    const created = await createCharge(box);
    expect(created.status).toBe(200);
    const page = await box.fetch(created.body.data.payment_url as string);
    expect(page.status).toBe(200);
    expect((await call(box, 'GET', '/v1/payouts')).status).toBe(200);
  });
});
