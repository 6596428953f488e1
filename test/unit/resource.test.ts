/**
 * The published declarations leave internal constructors out (stripInternal),
 * so `new Charges()` compiles for a caller: the constructor refuses it by
 * name instead of failing later on a missing request primitive.
 */
import { describe, expect, it } from 'vitest';
import { Charges, Client, LunasError, PaymentMethods, Payouts, Transfers } from '../../src/index.js';

describe('a resource built outside Client', () => {
  it.each([
    [Charges, 'client.charges'],
    [Transfers, 'client.transfers'],
    [Payouts, 'client.payouts'],
    [PaymentMethods, 'client.paymentMethods'],
  ] as const)('%o throws a LunasError naming %s', (Resource, property) => {
    const build = Resource as unknown as new (api?: unknown) => unknown;
    expect(() => new build()).toThrow(LunasError);
    expect(() => new build({ get: () => undefined })).toThrow(`is created by Client: use ${property}`);
  });

  it('is what Client builds, of the named class', () => {
    const client = new Client({ apiKey: 'sk_test_resource', baseURL: 'http://127.0.0.1:9' });
    expect(client.charges).toBeInstanceOf(Charges);
    expect(client.paymentMethods).toBeInstanceOf(PaymentMethods);
  });
});
