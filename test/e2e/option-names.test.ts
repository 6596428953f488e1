/**
 * Options checked by name, over real HTTP against the sandbox: a misspelt
 * option is refused before anything reaches the service (the sandbox records
 * no request and no money moves), and correctly named options in a
 * `null`-prototype object are honoured end to end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, type ClientOptions, LunasError, RequestValidationError } from 'lunas-sdk';
import { start, transferTo } from './helpers.js';
import { rejection, thrown } from '../helpers/rejection.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('unknown option names, end to end', () => {
  it('idempotency_key is refused: no transfer, no generated key in its place', async () => {
    const { sandbox, client } = await start();
    const options = { idempotency_key: 'settle-INV-9' } as never;
    const error = await rejection(client.transfers.create(transferTo(100), options), RequestValidationError);
    expect(error.fields).toEqual({
      idempotency_key: ['Unknown option "idempotency_key": did you mean "idempotencyKey"?'],
    });
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.balance('acc_partner')).toBe('0.00');
  });

  it('maxRetry and timeOut on a charge, querry and bdy on raw calls: refused, nothing sent', async () => {
    const { sandbox, client } = await start();
    const charge = { payment_method: 'qris', amount: 25_000 } as const;
    await rejection(client.charges.create(charge, { maxRetry: 0 } as never), RequestValidationError);
    await rejection(client.charges.list({}, { timeOut: 100 } as never), RequestValidationError);
    const get = await rejection(client.get('/v1/payouts', { querry: { page: 2 } } as never), RequestValidationError);
    expect(Object.keys(get.fields)).toEqual(['querry']);
    const post = await rejection(client.post('/v1/transfers', { bdy: transferTo(1) } as never), RequestValidationError);
    expect(post.fields.bdy).toEqual(['Unknown option "bdy": did you mean "body"?']);
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.events).toHaveLength(0);
  });

  it('baseUrl is refused at construction rather than replaced by LUNAS_BASE_URL', async () => {
    const { sandbox } = await start();
    vi.stubEnv('LUNAS_BASE_URL', sandbox.url);
    const options = { apiKey: sandbox.apiKey, baseUrl: sandbox.url } as ClientOptions;
    expect(() => new Client(options)).toThrow(new LunasError('Unknown option "baseUrl": did you mean "baseURL"?'));
  });

  it('a null-prototype idempotencyKey is honoured: the second call is a replay, money moves once', async () => {
    const { sandbox, client } = await start();
    const options = () => Object.assign(Object.create(null) as object, { idempotencyKey: 'settle-INV-9' });
    const first = await client.transfers.create(transferTo(100), options());
    const second = await client.transfers.create(transferTo(100), options());
    expect(second.id).toBe(first.id);
    expect(sandbox.balance('acc_partner')).toBe('100.00');
    expect(sandbox.requests.map((request) => request.idempotencyKey)).toEqual(['settle-INV-9', 'settle-INV-9']);
  });
});

describe('unknown request fields, end to end: the closest field named, as for options', () => {
  it('list({ page_size }) (the response spelling): did you mean pagesize?, nothing sent', async () => {
    const { sandbox, client } = await start();
    const error = await rejection(client.charges.list({ page_size: 50 } as never), RequestValidationError);
    expect(error.fields).toEqual({ page_size: ['Unknown field: did you mean "pagesize"?'] });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('transfers.create({ ammount }): did you mean amount?, no money moves', async () => {
    const { sandbox, client } = await start();
    const { amount, ...rest } = transferTo(100);
    const error = await rejection(
      client.transfers.create({ ...rest, ammount: amount } as never),
      RequestValidationError,
    );
    expect(error.fields).toEqual({
      amount: [expect.any(String)],
      ammount: ['Unknown field: did you mean "amount"?'],
    });
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.balance('acc_partner')).toBe('0.00');
  });

  it('charges.create({ payment_methd, items: [{ pric }] }): each under its dotted name', async () => {
    const { sandbox, client } = await start();
    const params = { payment_methd: 'qris', amount: 25_000, items: [{ name: 'Kopi', pric: 25_000, quantity: 1 }] };
    const error = await rejection(client.charges.create(params as never), RequestValidationError);
    expect(error.fields).toMatchObject({
      payment_methd: ['Unknown field: did you mean "payment_method"?'],
      'items.0.pric': ['Unknown field: did you mean "price"?'],
    });
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('an API key too short to mask safely, end to end', () => {
  it('is refused at construction, naming no key and sending nothing; the sandbox key works', async () => {
    const { sandbox } = await start();
    const error = thrown(
      () => new Client({ apiKey: 'k', baseURL: sandbox.url, timeOut: 1 } as ClientOptions),
      LunasError,
    );
    expect(error.message).toBe('Unknown option "timeOut": did you mean "timeout"?');
    expect(() => new Client({ apiKey: 'sk_test', baseURL: sandbox.url })).toThrow(
      new LunasError(
        'The API key is shorter than 12 characters, which no real key is: ' +
          'check that the whole key was read from your secret store, not a placeholder',
      ),
    );
    const client = new Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, logLevel: 'off' });
    await expect(client.paymentMethods.list()).resolves.toBeDefined();
    expect(sandbox.requests).toHaveLength(1);
  });
});
