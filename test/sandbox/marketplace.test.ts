/**
 * A marketplace in the sandbox: accounts added and funded on a running
 * sandbox (addAccount, fund, accounts and their control routes), and a paid
 * charge settling its amount less its fee into the caller's account, however
 * it is paid. Each test is written once and run against startSandbox (over
 * HTTP) and createSandbox (in process), with plain fetch.
 */
import { describe, expect, it } from 'vitest';
import { SandboxError, type InProcessSandboxOptions, type Sandbox } from '../../src/testing/index.js';
import { VERSION } from '../../src/version.js';
import { thrown } from '../helpers/rejection.js';
import {
  call,
  createCharge,
  createTransfer,
  formTokenOf,
  inProcessSandbox,
  sandbox,
  type CallOptions,
} from './helpers.js';

const T0 = new Date('2025-03-01T10:00:00.000Z');

const ENTRIES = [
  ['startSandbox', (options?: InProcessSandboxOptions) => sandbox(options)],
  ['createSandbox', async (options?: InProcessSandboxOptions) => inProcessSandbox(options)],
] as const;

/** A two-decimal amount in integer cents, for exact sums. */
const cents = (amount: string): bigint => {
  const [whole, fraction] = amount.split('.') as [string, string];
  return BigInt(whole) * 100n + BigInt(fraction);
};

const control = (box: Sandbox, method: 'GET' | 'POST', path: string, options?: CallOptions) =>
  call(box, method, `/_sandbox/${path}`, options);

/** The `data` of a successful control answer; fails the test on anything else. */
async function data(box: Sandbox, method: 'GET' | 'POST', path: string, options?: CallOptions): Promise<unknown> {
  const response = await control(box, method, path, options);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('lunas-sandbox-version')).toBe(VERSION);
  return response.body.data;
}

/** Pays `id` as the customer does: the payment page's form, with its token. */
async function payOnPage(box: Sandbox, id: string): Promise<number> {
  const send = 'fetch' in box ? (box as { fetch: typeof fetch }).fetch : fetch;
  const page = await send(`${box.url}/pay/${id}`);
  const token = formTokenOf(await page.text());
  const pressed = await send(`${box.url}/pay/${id}`, {
    method: 'POST',
    body: new URLSearchParams({ token, action: 'pay' }),
    redirect: 'manual',
  });
  return pressed.status;
}

describe.each(ENTRIES)('%s: accounts on a running sandbox', (_entry, open) => {
  it('addAccount opens an account after the others, balance 0.00 and active by default, ready for transfers', async () => {
    const box = await open();
    const seller = box.addAccount({ id: 'acc_seller', name: 'Toko Kopi' });
    expect(seller).toEqual({ id: 'acc_seller', name: 'Toko Kopi', balance: '0.00', active: true });
    expect(box.addAccount({ id: 'acc_rich', name: 'Rich', balance: 250000.5 }).balance).toBe('250000.50');
    expect(box.addAccount({ id: 'acc_exact', name: 'Exact', balance: '1.50' }).balance).toBe('1.50');
    expect(box.addAccount({ id: 'acc_shut', name: 'Shut', balance: '10', active: false })).toEqual({
      id: 'acc_shut',
      name: 'Shut',
      balance: '10.00',
      active: false,
    });

    expect(box.accounts().map(({ id }) => id)).toEqual([
      'acc_merchant',
      'acc_partner',
      'acc_closed',
      'acc_seller',
      'acc_rich',
      'acc_exact',
      'acc_shut',
    ]);
    const sale = await createTransfer(box, { destination_account_id: 'acc_seller', amount: '45000', currency: 'idr' });
    expect(sale.status, sale.text).toBe(200);
    expect(sale.body.data).toMatchObject({
      destination_account_id: 'acc_seller',
      destination_account_name: 'Toko Kopi',
    });
    expect(box.balance('acc_seller')).toBe('45000.00');
    const shut = await createTransfer(box, { destination_account_id: 'acc_shut', amount: 1, currency: 'idr' });
    expect([shut.status, shut.body.data]).toEqual([
      400,
      { destination_account_id: ['Destination account is not active'] },
    ]);
  });

  it('hands out copies: editing what addAccount, fund or accounts returned changes nothing', async () => {
    const box = await open();
    const added = box.addAccount({ id: 'acc_seller', name: 'Seller' });
    added.balance = '999.00';
    const funded = box.fund('acc_seller', 5);
    funded.active = false;
    box.accounts()[3]!.name = 'Renamed';
    expect(box.accounts()[3]).toEqual({ id: 'acc_seller', name: 'Seller', balance: '5.00', active: true });
  });

  it('addAccount refuses an id already used with a SandboxError, and bad fields with a TypeError, adding nothing', async () => {
    const box = await open();
    const taken = thrown(() => box.addAccount({ id: 'acc_partner', name: 'Again' }), SandboxError);
    expect(taken.message).toBe('An account with id "acc_partner" already exists');
    const cases: [unknown, string][] = [
      [undefined, "The account must be an object like { id: 'acc_seller', name: 'Seller' } (got undefined)"],
      ['acc_seller', `The account must be an object like { id: 'acc_seller', name: 'Seller' } (got "acc_seller")`],
      [{ id: '', name: 'Seller' }, 'id must be a non-empty string (got "")'],
      [{ id: 7, name: 'Seller' }, 'id must be a non-empty string (got 7)'],
      [{ id: 'acc_seller' }, 'name must be a string (got undefined)'],
      [{ id: 'acc_seller', name: 'Seller', active: 'yes' }, 'active must be true or false (got "yes")'],
      ...(['-1', -0.01, '10.000,00', true, Number.NaN, {}] as unknown[]).map((balance): [unknown, string] => [
        { id: 'acc_seller', name: 'Seller', balance },
        expect.stringMatching(
          /^balance must be a number or a decimal string at least 0 with at most two decimals, like 250000 or "250000\.50" \(got /,
        ) as unknown as string,
      ]),
      [{ id: 'acc_seller', name: 'Seller', blance: '5.00' }, 'Unknown account field "blance": did you mean "balance"?'],
    ];
    for (const [given, message] of cases) {
      const error = thrown(() => box.addAccount(given as never), TypeError);
      expect(error.message, JSON.stringify(given)).toEqual(message);
    }
    expect(box.accounts()).toHaveLength(3);
  });

  it('fund adds money to any account, inactive ones included, records no transfer, and refuses what is not money above 0', async () => {
    const box = await open();
    expect(box.fund('acc_partner', '250000.25')).toEqual({
      id: 'acc_partner',
      name: 'Partner',
      balance: '250000.25',
      active: true,
    });
    expect(box.fund('acc_partner', 0.75).balance).toBe('250001.00');
    expect(box.fund('acc_closed', 100)).toMatchObject({ balance: '100.00', active: false });
    expect(box.balance('acc_closed')).toBe('100.00');
    expect(box.transfers()).toEqual([]);

    expect(thrown(() => box.fund('acc_nobody', 1), SandboxError).message).toBe('No account with id "acc_nobody"');
    expect(thrown(() => box.fund(42 as unknown as string, 1), TypeError).message).toBe(
      'accountId must be a string (got 42)',
    );
    for (const amount of [0, -5, '0.00', 'lots', undefined, Number.POSITIVE_INFINITY]) {
      const error = thrown(() => box.fund('acc_partner', amount as number), TypeError);
      expect(error.message, String(amount)).toMatch(
        /^amount must be a number or a decimal string greater than 0 with at most two decimals, like 50000 or "50000\.00" \(got /,
      );
    }
    expect(box.balance('acc_partner')).toBe('250001.00');
  });
});

describe.each(ENTRIES)('%s: a paid charge settles into the caller’s account', (_entry, open) => {
  it('credits amount less fee when paid by payCharge, the payment page or the control route, and nothing when failed or expired', async () => {
    const box = await open({ now: () => T0 });
    const before = cents(box.balance('acc_merchant'));
    const va = (await createCharge(box, { payment_method: 'virtual_account', amount: '25000.50' })).body.data;
    const qris = (await createCharge(box, { payment_method: 'qris', amount: '333.33' })).body.data;
    const onPage = (await createCharge(box, { payment_method: 'qris', amount: 25000 })).body.data;
    const failed = (await createCharge(box, { payment_method: 'qris', amount: 50000 })).body.data.id;
    const expired = (await createCharge(box, { payment_method: 'virtual_account', amount: 90000 })).body.data.id;
    const lapsed = (await createCharge(box, { payment_method: 'qris', amount: 70000 })).body.data.id;

    await box.payCharge(va.id);
    expect(cents(box.balance('acc_merchant')) - before).toBe(cents(va.amount) - cents(va.fee));
    // The virtual-account fee is a flat 4000.00.
    expect(box.balance('acc_merchant')).toBe('1021000.50');

    await data(box, 'POST', `charges/${qris.id}/pay`);
    // 0.7 % of 333.33 is 2.33331: the fee rounds to 2.33, so 331.00 is credited.
    expect(qris.fee).toBe('2.33');
    expect(box.balance('acc_merchant')).toBe('1021331.50');

    expect(await payOnPage(box, onPage.id)).toBe(303);
    expect(cents(box.balance('acc_merchant'))).toBe(cents('1021331.50') + cents('25000.00') - cents(onPage.fee));

    const settled = box.balance('acc_merchant');
    await box.failCharge(failed);
    await box.expireCharge(expired);
    await box.advanceClock(15 * 60_000);
    expect(box.charges().find(({ id }) => id === lapsed)?.status).toBe('failed');
    expect(box.balance('acc_merchant')).toBe(settled);
  });

  it('never goes below zero: a charge under its fee credits nothing; the `account` option names who is credited', async () => {
    const box = await open({
      accounts: [
        { id: 'acc_market', name: 'Market', balance: '0.00' },
        { id: 'acc_other', name: 'Other', balance: '0.00' },
      ],
      account: 'acc_market',
    });
    const small = (await createCharge(box, { payment_method: 'virtual_account', amount: 1000 })).body.data;
    await box.payCharge(small.id);
    expect([small.fee, box.balance('acc_market')]).toEqual(['4000.00', '0.00']);
    const one = (await createCharge(box, { payment_method: 'qris', amount: 1 })).body.data;
    await box.payCharge(one.id);
    expect([one.fee, box.balance('acc_market'), box.balance('acc_other')]).toEqual(['0.01', '0.99', '0.00']);
    // What was credited can be transferred on at once.
    const onward = await createTransfer(box, { destination_account_id: 'acc_other', amount: '0.99', currency: 'idr' });
    expect(onward.status, onward.text).toBe(200);
    expect([box.balance('acc_market'), box.balance('acc_other')]).toEqual(['0.00', '0.99']);
  });
});

describe.each(ENTRIES)('%s: the accounts control routes', (_entry, open) => {
  it('GET /_sandbox/accounts answers accounts(); POST adds one (its name the id when left out); POST …/fund funds one', async () => {
    const box = await open();
    const minimal = await data(box, 'POST', 'accounts', { body: { id: 'acc_cli' } });
    expect(minimal).toEqual({ id: 'acc_cli', name: 'acc_cli', balance: '0.00', active: true });
    const full = await data(box, 'POST', 'accounts', {
      body: { id: 'acc_full', name: 'Full', balance: '1500.25', active: false },
    });
    expect(full).toEqual({ id: 'acc_full', name: 'Full', balance: '1500.25', active: false });
    // A JSON number is read from its digits, up to the SDK's largest amount: ...993 is past it.
    const exact = await data(box, 'POST', 'accounts', {
      raw: '{"id":"acc_big","name":"Big","balance":9007199254740991}',
    });
    expect(exact).toMatchObject({ balance: '9007199254740991.00' });
    const past = await control(box, 'POST', 'accounts', {
      raw: '{"id":"acc_past","name":"P","balance":9007199254740993}',
    });
    expect([past.status, past.body.message]).toEqual([
      400,
      expect.stringMatching(/^balance must be at most 9007199254740991/),
    ]);
    expect(await data(box, 'POST', 'accounts/acc_cli/fund', { body: { amount: 2500 } })).toEqual({
      id: 'acc_cli',
      name: 'acc_cli',
      balance: '2500.00',
      active: true,
    });
    expect(await data(box, 'POST', 'accounts/acc_big/fund', { raw: '{"amount":1e2}' })).toMatchObject({
      balance: '9007199254741091.00',
    });
    expect(await data(box, 'GET', 'accounts')).toEqual(box.accounts());
    expect(box.accounts()).toHaveLength(6);
  });

  it('refuses a taken id 409, a bad field or amount 400, an unknown account 404, and nothing without the key', async () => {
    const box = await open();
    const refusals: ['GET' | 'POST', string, CallOptions, number, string | RegExp][] = [
      ['POST', 'accounts', { body: { id: 'acc_partner' } }, 409, 'An account with id "acc_partner" already exists'],
      ['POST', 'accounts', {}, 400, 'id must be a non-empty string (got undefined)'],
      [
        'POST',
        'accounts',
        { body: { id: 'acc_x', balanse: 1 } },
        400,
        'Unknown account field "balanse": did you mean "balance"?',
      ],
      [
        'POST',
        'accounts',
        { body: { id: 'acc_x', balance: -1 } },
        400,
        /^balance must be a number or a decimal string/,
      ],
      ['POST', 'accounts', { raw: '[1]' }, 400, 'Request body must be a JSON object'],
      ['POST', 'accounts/acc_nobody/fund', { body: { amount: 1 } }, 404, 'No account with id "acc_nobody"'],
      ['POST', 'accounts/acc_partner/fund', { body: { amount: 0 } }, 400, /^amount must be a number/],
      ['POST', 'accounts/acc_partner/fund', { raw: '{"amount":1.005}' }, 400, /^amount must be a number/],
      ['POST', 'accounts/acc_partner/fund', {}, 400, /\(got undefined\)$/],
      ['POST', 'accounts/acc_partner/fund', { body: { amount: 1, note: 'x' } }, 400, /"note"/],
      ['GET', 'accounts', { key: null }, 401, 'Invalid or missing API key'],
      ['POST', 'accounts', { key: 'sk_test_wrong', body: { id: 'acc_x' } }, 401, 'Invalid or missing API key'],
      ['POST', 'accounts/acc_partner/fund', { key: null, body: { amount: 1 } }, 401, 'Invalid or missing API key'],
    ];
    for (const [method, path, options, status, message] of refusals) {
      const refused = await control(box, method, path, options);
      const label = `${method} ${path} ${JSON.stringify(options)}`;
      expect(refused.status, label).toBe(status);
      expect(refused.body.message ?? refused.body.data?.message, label).toMatch(message);
    }
    expect(box.accounts()).toHaveLength(3);
    expect(box.balance('acc_partner')).toBe('0.00');
    const wrongMethod = await control(box, 'GET', 'accounts/acc_partner/fund');
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
  });
});
