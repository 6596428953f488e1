/**
 * The sandbox reads its own input as lunas-sdk reads a request: the accounts
 * option and `--accounts FILE` refuse what addAccount refuses (a non-boolean
 * `active`, a misspelt field), and every amount the sandbox takes outside
 * the API (fund, addAccount's balance, the accounts option, the command and
 * the control surface) is money as the SDK reads it: a string with more than
 * two decimals is refused (`'1.000'` is a thousand in Indonesia), and no
 * amount the SDK would not send is taken: every whole one up to
 * Number.MAX_SAFE_INTEGER, with cents up to 9999999999999.99, a larger one
 * only when a JSON number holds it exactly, none from 1e21.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { thrown } from '../helpers/rejection.js';
import { runSandboxCli as cli } from '../helpers/commands.js';
import { call, createTransfer, sandbox } from './helpers.js';

const CLI_TEST_MS = 60_000;
const LARGEST = '9007199254740991';

const envOf = (box: Sandbox) => ({ LUNAS_BASE_URL: box.url, LUNAS_API_KEY: box.apiKey });

describe('the accounts option refuses what addAccount refuses', () => {
  it('a non-boolean active, a misspelt field, an ambiguous or too large balance', () => {
    const account = { id: 'acc_seller', name: 'Seller', balance: '0.00' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...account, active: 'false' }, /active must be true or false \(got "false"\)/],
      [
        { id: 'acc_seller', name: 'Seller', balanse: '10.00' },
        /Unknown account field "balanse": did you mean "balance"\?/,
      ],
      [{ ...account, balance: '1.000' }, /balance .*in Indonesia '\.' groups thousands/],
      [{ ...account, balance: '9007199254740993' }, /balance must be at most 9007199254740991/],
    ];
    for (const [given, message] of cases) {
      const accounts = [{ id: 'acc_merchant', name: 'Merchant', balance: '10.00' }, given];
      expect(
        thrown(() => createSandbox({ accounts: accounts as never }), TypeError).message,
        JSON.stringify(given),
      ).toMatch(message);
      expect(thrown(() => createSandbox().addAccount(given as never), TypeError).message).toMatch(message);
    }
  });

  it('an inactive account given as active: false still refuses transfers', async () => {
    const box = createSandbox({
      accounts: [
        { id: 'acc_merchant', name: 'Merchant', balance: '10000.00' },
        { id: 'acc_shut', name: 'Shut', balance: '0.00', active: false },
      ],
    });
    expect(box.accounts()[1]).toMatchObject({ id: 'acc_shut', active: false });
    const refused = await createTransfer(box, { destination_account_id: 'acc_shut', amount: 1, currency: 'idr' });
    expect(refused.status).not.toBe(200);
  });

  it(
    '--accounts FILE with active "false" or a misspelt field exits 2 naming the file and the field',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'lunas-accounts-'));
      onTestFinished(() => rm(dir, { recursive: true, force: true }));
      const file = join(dir, 'accounts.json');
      await writeFile(file, JSON.stringify([{ id: 'acc_merchant', name: 'M', balance: '1.00', active: 'false' }]));
      const inactive = await cli(['--accounts', file]);
      expect(inactive.code).toBe(2);
      expect(inactive.stderr).toContain(`--accounts ${file}`);
      expect(inactive.stderr).toContain('active must be true or false (got "false")');
      await writeFile(file, JSON.stringify([{ id: 'acc_merchant', name: 'M', balanse: '1.00' }]));
      const misspelt = await cli(['--accounts', file]);
      expect(misspelt.code).toBe(2);
      expect(misspelt.stderr).toContain('did you mean "balance"?');
    },
    CLI_TEST_MS,
  );
});

describe('money the sandbox takes is read as the SDK reads it', () => {
  it('fund and addAccount refuse "1.000" (a thousand, or one?) and anything past the largest amount', () => {
    const box = createSandbox();
    for (const amount of ['1.000', '10.000', '1.500']) {
      const error = thrown(() => box.fund('acc_partner', amount), TypeError);
      expect(error.message).toMatch(/^amount must have at most two digits after the '\.' \(got "1/);
      expect(error.message).toContain('groups thousands');
    }
    expect(thrown(() => box.fund('acc_partner', '10.000'), TypeError).message).toContain(
      'so it may mean 10000; write 10000, or 10.00',
    );
    expect(thrown(() => box.fund('acc_partner', '9007199254740993'), TypeError).message).toMatch(
      /^amount must be at most 9007199254740991/,
    );
    expect(thrown(() => box.fund('acc_partner', '99999999999999.99'), TypeError).message).toMatch(/at most/);
    expect(box.fund('acc_partner', LARGEST).balance).toBe(`${LARGEST}.00`);
    expect(box.fund('acc_partner', '1.00').balance).toBe('9007199254740992.00');
    // Larger amounts a JSON number holds exactly are sent by the SDK, so taken: none from 1e21.
    expect(box.fund('acc_partner', '100000000000000000000').balance).toBe('100009007199254740992.00');
    expect(thrown(() => box.fund('acc_partner', '1000000000000000000000'), TypeError).message).toMatch(/at most/);
    expect(box.addAccount({ id: 'acc_ten', name: 'Ten', balance: '10.00' }).balance).toBe('10.00');
  });

  it('the control surface refuses a million-digit amount, "1.000" and past the largest, adding nothing', async () => {
    const box = await sandbox();
    const headers = { authorization: `Bearer ${box.apiKey}`, 'content-type': 'application/json' };
    const post = (path: string, body: string) =>
      fetch(`${box.url}/_sandbox/${path}`, { method: 'POST', headers, body }).then(async (response) => ({
        status: response.status,
        text: await response.text(),
      }));
    const huge = await post('accounts/acc_partner/fund', '{"amount": 1e1048570}');
    expect(huge.status).toBe(400);
    expect(huge.text.length).toBeLessThan(1_000);
    expect((await post('accounts/acc_partner/fund', '{"amount": "1.000"}')).status).toBe(400);
    expect((await post('accounts/acc_partner/fund', `{"amount": ${LARGEST}1}`)).status).toBe(400);
    expect((await post('accounts', '{"id": "acc_big", "name": "Big", "balance": 1e30}')).status).toBe(400);
    expect((await post('accounts', '{"id": "acc_thou", "name": "T", "balance": "1.000"}')).status).toBe(400);
    expect(box.balance('acc_partner')).toBe('0.00');
    expect(box.accounts()).toHaveLength(3);
    expect((await call(box, 'POST', '/_sandbox/accounts/acc_partner/fund', { body: { amount: 1.5 } })).status).toBe(
      200,
    );
    expect(box.balance('acc_partner')).toBe('1.50');
  });

  it(
    'lunas-sandbox fund and account add --balance refuse "1.000" with the reason, exit 2 (a bad argument)',
    async () => {
      const box = await sandbox();
      const [fund, add] = await Promise.all([
        cli(['fund', 'acc_partner', '1.000'], envOf(box)),
        cli(['account', 'add', 'acc_shop', '--balance', '1.000'], envOf(box)),
      ]);
      expect(fund.code, fund.stderr).toBe(2);
      expect(fund.stderr).toContain('groups thousands');
      expect(add.code, add.stderr).toBe(2);
      expect(add.stderr).toContain('groups thousands');
      expect(box.balance('acc_partner')).toBe('0.00');
      expect(box.accounts()).toHaveLength(3);
    },
    CLI_TEST_MS,
  );
});
