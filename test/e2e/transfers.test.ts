import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  getResponseInfo,
  PermissionDeniedError,
  RequestValidationError,
  UnprocessableEntityError,
  type TransferCreateParams,
} from 'lunas-sdk';
import { start, transferTo } from './helpers.js';
import { ISO_UTC, REQUEST_ID, UUID_V4 } from '../helpers/formats.js';
import { rejection } from '../helpers/rejection.js';

describe('transfers.create', () => {
  it('moves money to an active account and returns the succeeded transfer', async () => {
    const { sandbox, client, requestIds } = await start();
    const transfer = await client.transfers.create({
      destination_account_id: 'acc_partner',
      amount: '150000.25',
      currency: 'IDR',
      client_reference_id: 'invoice-118',
      description: 'Weekly settlement',
    });

    // Written out, not transferJson(): what the SDK returns from the sandbox, pinned field by field.
    expect(transfer).toMatchObject({
      source_account_id: 'acc_merchant',
      destination_account_id: 'acc_partner',
      source_account_name: 'Merchant',
      destination_account_name: 'Partner',
      status: 'succeeded',
      currency: 'idr',
      amount: '150000.25',
      client_reference_id: 'invoice-118',
      description: 'Weekly settlement',
    });
    expect(transfer.id).toMatch(/^tr_/);
    expect(transfer.created_at).toMatch(ISO_UTC);
    expect(sandbox.balance('acc_merchant')).toBe('849999.75');
    expect(sandbox.balance('acc_partner')).toBe('150000.25');
    expect(sandbox.transfers()).toEqual([transfer]);

    const info = getResponseInfo(transfer);
    expect(info?.attempts).toBe(1);
    expect(info?.idempotencyKey).toMatch(UUID_V4);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/transfers',
      idempotencyKey: info?.idempotencyKey,
    });
    expect(info?.requestId).toMatch(REQUEST_ID);
    expect(info?.requestId).toBe(requestIds[0]);
  });

  it('generates a fresh Idempotency-Key per call, so two identical calls make two transfers', async () => {
    const { sandbox, client } = await start();
    const first = await client.transfers.create(transferTo(100));
    const second = await client.transfers.create(transferTo(100));
    expect(second.id).not.toBe(first.id);
    const keys = sandbox.requests.map((request) => request.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
    expect(sandbox.transfers()).toHaveLength(2);
    expect(sandbox.balance('acc_partner')).toBe('200.00');
  });

  it('replays a call repeated with the caller’s idempotencyKey instead of paying twice', async () => {
    const { sandbox, client } = await start();
    const first = await client.transfers.create(transferTo(2_500), { idempotencyKey: 'invoice-2024-118' });
    const again = await client.transfers.create(transferTo(2_500), { idempotencyKey: 'invoice-2024-118' });
    expect(again).toEqual(first);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_merchant')).toBe('997500.00');
    expect(sandbox.balance('acc_partner')).toBe('2500.00');
    expect(sandbox.requests.map((request) => request.idempotencyKey)).toEqual(['invoice-2024-118', 'invoice-2024-118']);
  });

  it('throws UnprocessableEntityError when a key is reused with a different body, without retrying', async () => {
    const { sandbox, client } = await start();
    await client.transfers.create(transferTo(100), { idempotencyKey: 'k-1' });
    const error = await rejection(
      client.transfers.create(transferTo(200), { idempotencyKey: 'k-1' }),
      UnprocessableEntityError,
    );
    expect(error.status).toBe(422);
    expect(error.idempotencyKey).toBe('k-1');
    expect(sandbox.requests).toHaveLength(2);
    expect(sandbox.transfers()).toHaveLength(1);
    expect(sandbox.balance('acc_partner')).toBe('100.00');
  });

  it('throws BadRequestError with fields for an inactive destination', async () => {
    const { sandbox, client, requestIds } = await start();
    const error = await rejection(client.transfers.create(transferTo(100, 'acc_closed')), BadRequestError);
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({ destination_account_id: ['Destination account is not active'] });
    expect(error.message).toContain('Destination account is not active');
    expect(error.requestId).toBe(requestIds[0]);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.transfers()).toHaveLength(0);
    expect(sandbox.balance('acc_merchant')).toBe('1000000.00');
    expect(sandbox.balance('acc_closed')).toBe('0.00');
  });

  it('throws BadRequestError with fields for an unknown destination', async () => {
    const { sandbox, client } = await start();
    const error = await rejection(client.transfers.create(transferTo(100, 'acc_nobody')), BadRequestError);
    expect(error.fields).toEqual({ destination_account_id: ['Destination account not found'] });
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.transfers()).toHaveLength(0);
    expect(sandbox.balance('acc_merchant')).toBe('1000000.00');
  });

  it('throws PermissionDeniedError for an insufficient balance, leaving balances unchanged', async () => {
    const { sandbox, client, requestIds } = await start({
      accounts: [
        { id: 'acc_shop', name: 'Shop', balance: '500.00' },
        { id: 'acc_supplier', name: 'Supplier', balance: '12.34' },
      ],
      account: 'acc_shop',
    });
    const error = await rejection(client.transfers.create(transferTo('500.01', 'acc_supplier')), PermissionDeniedError);
    expect(error.status).toBe(403);
    expect(error.message).toContain('Insufficient balance for transfer');
    expect(error.body).toEqual({ status: 'error', message: 'Insufficient balance for transfer' });
    expect(error.requestId).toBe(requestIds[0]);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.transfers()).toHaveLength(0);
    expect(sandbox.balance('acc_shop')).toBe('500.00');
    expect(sandbox.balance('acc_supplier')).toBe('12.34');

    // The whole balance, to the cent, is still allowed.
    const all = await client.transfers.create(transferTo('500.00', 'acc_supplier'));
    expect(all.source_account_name).toBe('Shop');
    expect(sandbox.balance('acc_shop')).toBe('0.00');
    expect(sandbox.balance('acc_supplier')).toBe('512.34');
  });
});

describe('transfers.create request validation sends nothing', () => {
  const base = { destination_account_id: 'acc_partner', amount: 100, currency: 'idr' };
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['no currency', { destination_account_id: 'acc_partner', amount: 100 }, 'currency', 'Currency is required'],
    ['an empty currency', { ...base, currency: '' }, 'currency', 'Currency is required'],
    [
      'an unsupported currency',
      { ...base, currency: 'usd' },
      'currency',
      'Currency is not supported; only idr is, for now (got "usd")',
    ],
    ['amount 0', { ...base, amount: 0 }, 'amount', 'Amount must be greater than 0'],
    ['a negative amount', { ...base, amount: '-1.00' }, 'amount', 'Amount must be greater than 0'],
    ['no amount', { destination_account_id: 'acc_partner', currency: 'idr' }, 'amount', 'Amount is required'],
    ['no destination', { amount: 100, currency: 'idr' }, 'destination_account_id', 'Destination account is required'],
  ];

  it.each(cases)('with %s', async (_name, params, field, message) => {
    const { sandbox, client } = await start();
    const error = await rejection(
      client.transfers.create(params as unknown as TransferCreateParams),
      RequestValidationError,
    );
    expect(error.fields[field]).toEqual([message]);
    expect(sandbox.requests).toHaveLength(0);
    expect(sandbox.balance('acc_merchant')).toBe('1000000.00');
  });
});

describe('transfers.list', () => {
  it('lists the caller’s transfers newest first, across pages', async () => {
    const { sandbox, client } = await start();
    const made: string[] = [];
    for (let i = 1; i <= 5; i++) made.push((await client.transfers.create(transferTo(i))).id);

    const page = await client.transfers.list({ pagesize: 2 });
    expect(page.data.map((transfer) => transfer.id)).toEqual([made[4], made[3]]);
    expect(page.data.map((transfer) => transfer.amount)).toEqual(['5.00', '4.00']);
    expect(page.total_items).toBe(5);
    expect(page.page_size).toBe(2);

    const before = sandbox.requests.length;
    const walked: string[] = [];
    for await (const transfer of client.transfers.list({ pagesize: 2 })) walked.push(transfer.id);
    expect(walked).toEqual([...made].reverse());
    // Pages of 2, 2 and 1: the short third page ends the walk.
    expect(sandbox.requests.slice(before).map((request) => request.query.page)).toEqual(['1', '2', '3']);
  });

  it('is empty before any transfer', async () => {
    const { client } = await start();
    const page = await client.transfers.list();
    expect(page.data).toEqual([]);
    expect(page.total_items).toBe(0);
  });
});
