/**
 * The subcommands over the marketplace's and the clock's control routes
 * (`accounts`, `account add`, `fund`, `clock`, and `advance`'s lines, which
 * read the clock), run as a merchant runs them against a sandbox this test
 * started. cli-subcommands.test.ts pins what each one asks and prints against
 * a stand-in; here the routes are the sandbox's own.
 */
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/testing/index.js';
import { type Run, runSandboxCli } from '../helpers/commands.js';
import { createCharge, createTransfer, sandbox } from './helpers.js';

/** A slow start of the command on a loaded machine, a few times per test. */
const CLI_TEST_MS = 60_000;

const T0 = new Date('2026-05-04T10:00:00.000Z');

/** Runs `lunas-sandbox …args` against `box`. */
const cli = (box: Sandbox, args: string[]): Promise<Run> =>
  runSandboxCli(args, { LUNAS_BASE_URL: box.url, LUNAS_API_KEY: box.apiKey });

describe('lunas-sandbox subcommands for a marketplace and the clock', () => {
  it(
    'account add, fund and accounts: a new account takes a transfer, for a person and as JSON',
    async () => {
      const box = await sandbox();
      const added = await cli(box, ['account', 'add', 'acc_shop', '--name', 'Shop', '--balance', '500']);
      expect(added).toEqual({ code: 0, stdout: 'acc_shop  "Shop"  Rp 500\n', stderr: '' });
      const inactive = await cli(box, ['account', 'add', 'acc_gone', '--name', 'Gone', '--inactive', '--json']);
      expect(JSON.parse(inactive.stdout)).toEqual({ id: 'acc_gone', name: 'Gone', balance: '0.00', active: false });
      const funded = await cli(box, ['fund', 'acc_shop', '49500.50']);
      expect(funded).toEqual({ code: 0, stdout: 'acc_shop  "Shop"  Rp 50.000,50\n', stderr: '' });
      expect(box.balance('acc_shop')).toBe('50000.50');
      const transfer = await createTransfer(box, { destination_account_id: 'acc_shop', amount: 1000, currency: 'idr' });
      expect(transfer.status).toBe(200);

      const [listed, listedJson] = await Promise.all([cli(box, ['accounts']), cli(box, ['accounts', '--json'])]);
      expect(listed.stdout.split('\n')).toEqual([
        'acc_merchant  "Merchant"  Rp 999.000',
        'acc_partner  "Partner"  Rp 0',
        'acc_closed  "Closed"  Rp 0  inactive',
        'acc_shop  "Shop"  Rp 51.000,50',
        'acc_gone  "Gone"  Rp 0  inactive',
        '',
      ]);
      expect(JSON.parse(listedJson.stdout)).toContainEqual({
        id: 'acc_shop',
        name: 'Shop',
        balance: '51000.50',
        active: true,
      });
    },
    CLI_TEST_MS,
  );

  it(
    'fund refuses an unknown account (exit 1) and an amount that is not positive (exit 2)',
    async () => {
      const box = await sandbox();
      const [unknown, negative] = await Promise.all([
        cli(box, ['fund', 'acc_nobody', '100']),
        cli(box, ['fund', 'acc_partner', '-5']),
      ]);
      expect([unknown.code, unknown.stdout]).toEqual([1, '']);
      expect(unknown.stderr).toMatch(/^lunas-sandbox fund: .*acc_nobody/);
      expect([negative.code, negative.stdout]).toEqual([2, '']);
      expect(negative.stderr).toMatch(/^lunas-sandbox fund: /);
      expect(box.balance('acc_partner')).toBe('0.00');
    },
    CLI_TEST_MS,
  );

  it(
    'clock prints the sandbox time, and advance the new time with what fell due',
    async () => {
      const box = await sandbox({ now: () => T0 });
      const id = (await createCharge(box)).body.data.id as string;
      const [clock, clockJson] = await Promise.all([cli(box, ['clock']), cli(box, ['clock', '--json'])]);
      expect(clock).toEqual({ code: 0, stdout: `Sandbox time: ${T0.toISOString()}\n`, stderr: '' });
      expect(JSON.parse(clockJson.stdout)).toEqual({ now: T0.toISOString() });

      const advanced = await cli(box, ['advance', '16m']);
      expect(advanced.code).toBe(0);
      const [failed] = box.events.slice(-1);
      expect(advanced.stdout).toBe(
        'Clock moved forward 16m (960000 ms) to 2026-05-04T10:16:00.000Z; 1 event fell due:\n' +
          `${failed!.id}  payment_charge.failed  ${id} failed  ${failed!.created_at}\n`,
      );
      expect((await cli(box, ['advance', '90s'])).stdout).toBe(
        'Clock moved forward 90s (90000 ms) to 2026-05-04T10:17:30.000Z; nothing fell due.\n',
      );
    },
    CLI_TEST_MS,
  );
});
