/**
 * The sandbox records the W3C trace context headers a request carried
 * (`traceparent`, `tracestate`), as a service's logs would join a merchant's
 * trace, on both transports; a request without them records neither.
 */
import { describe, expect, it } from 'vitest';
import { call, inProcessSandbox, sandbox } from './helpers.js';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe.each([
  ['startSandbox', () => sandbox()],
  ['createSandbox', () => Promise.resolve(inProcessSandbox())],
])('%s', (_name, open) => {
  it('records traceparent and tracestate when sent, and neither when not', async () => {
    const target = await open();

    await call(target, 'GET', '/v1/payouts', { headers: { traceparent: TRACEPARENT, tracestate: 'lunas=1' } });
    await call(target, 'GET', '/v1/payouts');

    const [traced, plain] = target.requests;
    expect(traced).toMatchObject({ path: '/v1/payouts', traceparent: TRACEPARENT, tracestate: 'lunas=1' });
    expect(plain).not.toHaveProperty('traceparent');
    expect(plain).not.toHaveProperty('tracestate');
  });
});
