import { describe, expect, it } from 'vitest';
import { call, createTransfer, sandbox } from './helpers.js';
import { ISO_UTC } from '../helpers/formats.js';

const toPartner = (amount: unknown, extra: Record<string, unknown> = {}) => ({
  destination_account_id: 'acc_partner',
  amount,
  currency: 'idr',
  ...extra,
});

describe('POST /v1/transfers', () => {
  it('moves the amount from the caller to the destination and returns the transfer', async () => {
    const box = await sandbox();
    const response = await createTransfer(
      box,
      toPartner(100.1, { description: 'Split', client_reference_id: 'inv-7', currency: 'IDR' }),
    );
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.id).toMatch(/^tr_[0-9a-f]{24}$/);
    // Written out, not transferJson(): it pins what the sandbox sends, so no fixture change can hide a regression.
    expect(response.body).toEqual({
      status: 'success',
      data: {
        id: data.id,
        source_account_id: 'acc_merchant',
        destination_account_id: 'acc_partner',
        source_account_name: 'Merchant',
        destination_account_name: 'Partner',
        status: 'succeeded',
        currency: 'idr',
        amount: '100.10',
        description: 'Split',
        client_reference_id: 'inv-7',
        created_at: data.created_at,
        updated_at: data.created_at,
      },
    });
    expect(data.created_at).toMatch(ISO_UTC);
    expect(box.balance('acc_merchant')).toBe('999899.90');
    expect(box.balance('acc_partner')).toBe('100.10');
    expect(box.transfers()).toEqual([data]);
  });

  it('keeps balances exact to the cent over many small transfers', async () => {
    const box = await sandbox({
      accounts: [
        { id: 'a', name: 'A', balance: '1.00' },
        { id: 'b', name: 'B', balance: '0.00' },
      ],
      account: 'a',
    });
    for (let i = 0; i < 10; i++) {
      expect((await createTransfer(box, { destination_account_id: 'b', amount: 0.1, currency: 'idr' })).status).toBe(
        200,
      );
    }
    expect(box.balance('a')).toBe('0.00');
    expect(box.balance('b')).toBe('1.00');
    const overdraw = await createTransfer(box, { destination_account_id: 'b', amount: 0.01, currency: 'idr' });
    expect(overdraw.status).toBe(403);
  });

  it('accepts an amount of exactly the whole balance, as a string', async () => {
    const box = await sandbox();
    expect((await createTransfer(box, toPartner('1000000.00'))).status).toBe(200);
    expect(box.balance('acc_merchant')).toBe('0.00');
    expect(box.balance('acc_partner')).toBe('1000000.00');
  });

  it('answers 403 for insufficient balance and moves nothing', async () => {
    const box = await sandbox();
    const response = await createTransfer(box, toPartner(1000000.01));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: 'Insufficient balance for transfer' });
    expect(box.balance('acc_merchant')).toBe('1000000.00');
    expect(box.balance('acc_partner')).toBe('0.00');
    expect(box.transfers()).toHaveLength(0);
  });

  it('answers 403 when the caller’s own account is inactive', async () => {
    const box = await sandbox({
      accounts: [
        { id: 'me', name: 'Me', balance: '10.00', active: false },
        { id: 'you', name: 'You', balance: '0.00' },
      ],
      account: 'me',
    });
    const response = await createTransfer(box, { destination_account_id: 'you', amount: 1, currency: 'idr' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: 'Source account is not active' });
    expect(box.balance('me')).toBe('10.00');
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      'destination missing',
      { amount: 1, currency: 'idr' },
      'destination_account_id',
      'Destination account is required',
    ],
    [
      'destination empty',
      toPartner(1, { destination_account_id: '' }),
      'destination_account_id',
      'Destination account is required',
    ],
    [
      'destination not a string',
      toPartner(1, { destination_account_id: 7 }),
      'destination_account_id',
      'Destination account must be a string',
    ],
    [
      'destination unknown',
      toPartner(1, { destination_account_id: 'acc_nobody' }),
      'destination_account_id',
      'Destination account not found',
    ],
    [
      'destination inactive',
      toPartner(1, { destination_account_id: 'acc_closed' }),
      'destination_account_id',
      'Destination account is not active',
    ],
    [
      'destination is the source',
      toPartner(1, { destination_account_id: 'acc_merchant' }),
      'destination_account_id',
      'Destination account must differ from the source account',
    ],
    ['amount missing', { destination_account_id: 'acc_partner', currency: 'idr' }, 'amount', 'Amount is required'],
    ['amount zero', toPartner(0), 'amount', 'Amount must be greater than 0'],
    ['amount negative', toPartner(-5), 'amount', 'Amount must be greater than 0'],
    ['amount three decimals', toPartner(1.234), 'amount', 'Amount must be a number with at most two decimal places'],
    ['amount not a number', toPartner('lots'), 'amount', 'Amount must be a number with at most two decimal places'],
    ['currency missing', { destination_account_id: 'acc_partner', amount: 1 }, 'currency', 'Currency is required'],
    ['currency empty', toPartner(1, { currency: '' }), 'currency', 'Currency is required'],
    ['currency unsupported', toPartner(1, { currency: 'usd' }), 'currency', 'Currency is not supported'],
    ['currency not a string', toPartner(1, { currency: 360 }), 'currency', 'Currency is not supported'],
    ['description type', toPartner(1, { description: 5 }), 'description', 'Description must be a string'],
    [
      'description length',
      toPartner(1, { description: 'd'.repeat(256) }),
      'description',
      'Description must be at most 255 characters',
    ],
    [
      'client_reference_id type',
      toPartner(1, { client_reference_id: false }),
      'client_reference_id',
      'Client reference ID must be a string',
    ],
    [
      'client_reference_id length',
      toPartner(1, { client_reference_id: 'r'.repeat(51) }),
      'client_reference_id',
      'Client reference ID must be at most 50 characters',
    ],
  ];

  it.each(cases)('%s -> 400 %s: %s', async (_name, body, field, message) => {
    const box = await sandbox();
    const response = await createTransfer(box, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'fail', data: { [field]: [message] } });
    expect(box.balance('acc_merchant')).toBe('1000000.00');
    expect(box.transfers()).toHaveLength(0);
  });

  it('collects every failure in one envelope', async () => {
    const box = await sandbox();
    const response = await createTransfer(box, { destination_account_id: 'acc_closed', amount: 0 });
    expect(response.body).toEqual({
      status: 'fail',
      data: {
        destination_account_id: ['Destination account is not active'],
        amount: ['Amount must be greater than 0'],
        currency: ['Currency is required'],
      },
    });
  });

  it('rejects a body that is not JSON', async () => {
    const box = await sandbox();
    const response = await call(box, 'POST', '/v1/transfers', { raw: 'amount=5' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'fail', data: { message: 'Request body must be valid JSON' } });
  });
});

describe('idempotent transfers', () => {
  it('replays a repeated key with the same body: same transfer, no second movement', async () => {
    const box = await sandbox();
    const first = await createTransfer(box, toPartner(250), 'order-1');
    const again = await createTransfer(
      box,
      { currency: 'IDR', amount: '250.00', destination_account_id: 'acc_partner' },
      'order-1',
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(box.balance('acc_partner')).toBe('250.00');
    expect(box.transfers()).toHaveLength(1);
  });

  it('answers 422 for a reused key with a different body', async () => {
    const box = await sandbox();
    await createTransfer(box, toPartner(250), 'order-1');
    const response = await createTransfer(box, toPartner(251), 'order-1');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      status: 'error',
      message: 'Idempotency-Key was already used with a different request',
    });
    const described = await createTransfer(box, toPartner(250, { description: 'other' }), 'order-1');
    expect(described.status).toBe(422);
    expect(box.balance('acc_partner')).toBe('250.00');
  });

  it('does not remember failed attempts', async () => {
    const box = await sandbox();
    expect((await createTransfer(box, toPartner(5, { destination_account_id: 'acc_nobody' }), 'k')).status).toBe(400);
    expect((await createTransfer(box, toPartner(2_000_000), 'k')).status).toBe(403);
    const success = await createTransfer(box, toPartner(5), 'k');
    expect(success.status).toBe(200);
    expect(success.headers.get('idempotent-replayed')).toBeNull();
    expect(box.transfers()).toHaveLength(1);
  });

  it('creates a new transfer for each request without a key', async () => {
    const box = await sandbox();
    const a = await createTransfer(box, toPartner(1));
    const b = await createTransfer(box, toPartner(1));
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(box.balance('acc_partner')).toBe('2.00');
  });

  it('keeps keys apart: the same body under two keys makes two transfers', async () => {
    const box = await sandbox();
    await createTransfer(box, toPartner(1), 'k1');
    await createTransfer(box, toPartner(1), 'k2');
    expect(box.transfers()).toHaveLength(2);
  });

  it('creates exactly one transfer for 200 concurrent requests with one key', async () => {
    const box = await sandbox();
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => createTransfer(box, toPartner(10), 'same-key')),
    );
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(1);
    expect(box.transfers()).toHaveLength(1);
    expect(box.balance('acc_merchant')).toBe('999990.00');
    expect(box.balance('acc_partner')).toBe('10.00');
  });

  it('never overdraws under 200 concurrent transfers', async () => {
    const box = await sandbox({
      accounts: [
        { id: 'src', name: 'Source', balance: '150.00' },
        { id: 'dst', name: 'Destination', balance: '0.00' },
      ],
      account: 'src',
    });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        createTransfer(box, { destination_account_id: 'dst', amount: 1, currency: 'idr' }, `key-${i}`),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(150);
    expect(statuses.filter((status) => status === 403)).toHaveLength(50);
    expect(box.balance('src')).toBe('0.00');
    expect(box.balance('dst')).toBe('150.00');
    expect(box.transfers()).toHaveLength(150);
  });
});

describe('GET /v1/transfers', () => {
  it('lists the caller’s transfers newest first; transfers() keeps them oldest first', async () => {
    const box = await sandbox();
    for (const amount of [1, 2, 3]) await createTransfer(box, toPartner(amount));
    const response = await call(box, 'GET', '/v1/transfers');
    expect(response.status).toBe(200);
    expect(response.body.data.map((transfer: { amount: string }) => transfer.amount)).toEqual(['3.00', '2.00', '1.00']);
    expect(response.body).toMatchObject({ status: 'success', page: 1, page_size: 10, total_items: 3 });
    expect(box.transfers().map((transfer) => transfer.amount)).toEqual(['1.00', '2.00', '3.00']);
    expect(response.body.data[0]).toEqual(box.transfers()[2]);
  });

  it('is empty before any transfer', async () => {
    const box = await sandbox();
    expect((await call(box, 'GET', '/v1/transfers')).body).toEqual({
      status: 'success',
      data: [],
      page: 1,
      page_size: 10,
      total_items: 0,
    });
  });
});
