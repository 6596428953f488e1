import { describe, expect, it } from 'vitest';
import { SandboxError, startSandbox, type SandboxOptions } from '../../src/testing/index.js';
import { call, createCharge, createTransfer, sandbox } from './helpers.js';

describe('startSandbox options', () => {
  it('listens on 127.0.0.1 with the default key and accounts', async () => {
    const box = await sandbox();
    expect(box.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(box.apiKey).toBe('sk_test_sandbox');
    expect(box.balance('acc_merchant')).toBe('1000000.00');
    expect(box.balance('acc_partner')).toBe('0.00');
    expect(box.balance('acc_closed')).toBe('0.00');
    expect(
      (await createTransfer(box, { destination_account_id: 'acc_closed', amount: 1, currency: 'idr' })).body.data,
    ).toEqual({ destination_account_id: ['Destination account is not active'] });
  });

  it('throws for an unknown account balance', async () => {
    const box = await sandbox();
    expect(() => box.balance('acc_nobody')).toThrow(/No account/);
  });

  it('uses the given accounts and caller account', async () => {
    const box = await sandbox({
      accounts: [
        { id: 'acc_a', name: 'Alpha', balance: '10.5' },
        { id: 'acc_b', name: 'Beta', balance: '0' },
      ],
      account: 'acc_b',
    });
    expect(box.balance('acc_a')).toBe('10.50');
    const response = await createTransfer(box, { destination_account_id: 'acc_a', amount: 1, currency: 'idr' });
    expect(response.status).toBe(403);
  });

  it('takes the first account as the caller when acc_merchant is absent', async () => {
    const box = await sandbox({
      accounts: [
        { id: 'acc_first', name: 'First', balance: '5.00' },
        { id: 'acc_second', name: 'Second', balance: '0.00' },
      ],
    });
    const response = await createTransfer(box, { destination_account_id: 'acc_second', amount: 5, currency: 'idr' });
    expect(response.body.data.source_account_id).toBe('acc_first');
    expect(box.balance('acc_first')).toBe('0.00');
  });

  it('is not affected by later changes to the option arrays', async () => {
    const accounts = [
      { id: 'x', name: 'X', balance: '1.00' },
      { id: 'y', name: 'Y', balance: '0.00' },
    ];
    const payouts = [{ id: 'po_1' }];
    const box = await sandbox({ accounts, payouts, account: 'x' });
    accounts[0]!.balance = '999.00';
    payouts[0]!.id = 'po_changed';
    expect(box.balance('x')).toBe('1.00');
    expect((await call(box, 'GET', '/v1/payouts')).body.data).toEqual([{ id: 'po_1' }]);
  });

  it('serves the given payouts and payment methods exactly', async () => {
    const payouts = [{ id: 'po_b', amount: '5.00', extra: { nested: true } }, { id: 'po_a' }];
    const paymentMethods = [{ id: 'pm_x', type: 'qris' }];
    const box = await sandbox({ payouts, paymentMethods });
    expect((await call(box, 'GET', '/v1/payouts')).body.data).toEqual(payouts);
    expect((await call(box, 'GET', '/v1/payments/methods')).body.data).toEqual(paymentMethods);
  });

  it('listens on the given port and rejects when it is taken', async () => {
    const first = await sandbox();
    const port = Number(new URL(first.url).port);
    await expect(startSandbox({ port })).rejects.toThrow(/EADDRINUSE/);
    await first.close();
    const second = await sandbox({ port });
    expect(second.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('closes idempotently and stops answering', async () => {
    const box = await startSandbox();
    await box.close();
    await box.close();
    await expect(fetch(`${box.url}/v1/payouts`)).rejects.toThrow(TypeError);
  });

  it('after close, every helper throws SandboxError, saying to start a new sandbox', async () => {
    const box = await startSandbox();
    const { id } = (await createCharge(box)).body.data as { id: string };
    await box.close();
    const expected = (helper: string) =>
      `The sandbox was closed, so ${helper}() has nothing to act on; start a new one with startSandbox()`;
    // Valid arguments, so that only the closed state can make a helper throw.
    // A helper added later is found below and called without arguments: it
    // must still refuse, before looking at them.
    const validArguments: Record<string, unknown[]> = {
      balance: ['acc_partner'],
      addAccount: [{ id: 'acc_after_close', name: 'After close' }],
      fund: ['acc_partner', 1],
      payCharge: [id],
      failCharge: [id],
      seedCharges: [1],
      addPayouts: [[{ id: 'po_after_close', amount: '1.00' }]],
      inject: [{ kind: 'status', status: 503 }],
      redeliver: ['evt_any'],
    };
    // webhooksSettled waits on the records, which outlive the sandbox: nothing is pending after close.
    await box.webhooksSettled();
    const helpers = Object.keys(box).filter(
      (name) =>
        !['close', 'webhooksSettled'].includes(name) &&
        typeof (box as unknown as Record<string, unknown>)[name] === 'function',
    );
    expect(helpers).toEqual(
      expect.arrayContaining([
        ...Object.keys(validArguments),
        'accounts',
        'now',
        'transfers',
        'clearFaults',
        'redeliver',
        'holdWebhooks',
      ]),
    );
    for (const helper of helpers) {
      const act = (box as unknown as Record<string, (...args: unknown[]) => unknown>)[helper]!;
      let error: unknown;
      try {
        const result = act(...(validArguments[helper] ?? []));
        error =
          result instanceof Promise
            ? await result.then(
                () => undefined,
                (reason: unknown) => reason,
              )
            : undefined;
      } catch (thrown) {
        error = thrown;
      }
      expect(error, helper).toBeInstanceOf(SandboxError);
      expect((error as SandboxError).name).toBe('SandboxError');
      expect((error as SandboxError).message).toBe(expected(helper));
    }
    // What happened stays readable for assertions after close, and addPayouts changed nothing.
    expect(box.requests).toHaveLength(1);
    expect(box.events.map((event) => event.type)).toEqual(['payment_charge.created']);
    expect(box.webhookFailures).toBe(0);
    expect(box.deliveries).toEqual([]);
    await box.close();
  });

  it('an unknown account or charge is a SandboxError too, not a plain Error', async () => {
    const box = await sandbox();
    expect(() => box.balance('acc_nobody')).toThrow(SandboxError);
    await expect(box.payCharge('ch_missing')).rejects.toBeInstanceOf(SandboxError);
  });

  it('null options count as none; options that are not an object are a TypeError', async () => {
    const box = await startSandbox(null as unknown as SandboxOptions);
    try {
      expect(box.apiKey).toBe('sk_test_sandbox');
    } finally {
      await box.close();
    }
    await expect(startSandbox('fast' as unknown as SandboxOptions)).rejects.toThrow(
      new TypeError('options must be an object'),
    );
  });

  it.each([
    ['webhookURL', 'webhookUrl'],
    ['api_key', 'apiKey'],
    ['Port', 'port'],
    ['acount', 'account'],
    ['payment_methods', 'paymentMethods'],
    ['webhookRetryDelays', 'webhookRetryDelaysMs'],
    ['webhook_timeout_ms', 'webhookTimeoutMs'],
    ['onWebhookAttempts', 'onWebhookAttempt'],
  ])('rejects the unknown option %s, naming %s, and starts nothing', async (given, known) => {
    const options = { [given]: undefined } as SandboxOptions;
    await expect(startSandbox(options)).rejects.toThrow(
      new TypeError(`Unknown sandbox option "${given}": did you mean "${known}"?`),
    );
  });

  it('a name near nothing known lists the options; the name is quoted and cut short', async () => {
    const name = `verbose\n${'x'.repeat(100)}`;
    const error = await startSandbox({ [name]: true } as SandboxOptions).then(
      () => undefined,
      (reason: unknown) => reason as TypeError,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error!.message).toBe(
      `Unknown sandbox option "verbose\\n${'x'.repeat(32)}…"; known sandbox options: ` +
        'apiKey, port, accounts, account, payouts, paymentMethods, webhookUrl, webhook, webhookRetryDelaysMs, ' +
        'webhookTimeoutMs, onWebhookAttempt, now',
    );
  });

  it('reads a null-prototype object, and ignores inherited and Object.prototype properties', async () => {
    const bare = Object.assign(Object.create(null) as SandboxOptions, { apiKey: 'sk_test_bare' });
    const inherited = Object.create({ apiKey: 'sk_test_inherited', webhookURL: 'x' }) as SandboxOptions;
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.apiKey = 'sk_test_polluted';
    polluted.acount = 'acc_nobody';
    try {
      const first = await sandbox(bare);
      expect(first.apiKey).toBe('sk_test_bare');
      const second = await sandbox(inherited);
      expect(second.apiKey).toBe('sk_test_sandbox');
    } finally {
      delete polluted.apiKey;
      delete polluted.acount;
    }
  });

  it.each<[string, SandboxOptions]>([
    ['an apiKey with a space', { apiKey: 'sk test' }],
    ['an empty apiKey', { apiKey: '' }],
    ['an apiKey under 12 characters, which lunas-sdk refuses', { apiKey: 'sk_test_abc' }],
    ['a port out of range', { port: 70_000 }],
    ['no accounts', { accounts: [] }],
    ['a balance with three decimals', { accounts: [{ id: 'a', name: 'A', balance: '1.001' }] }],
    ['a negative balance', { accounts: [{ id: 'a', name: 'A', balance: '-1.00' }] }],
    ['a numeric balance', { accounts: [{ id: 'a', name: 'A', balance: 5 as unknown as string }] }],
    [
      'a duplicate account',
      {
        accounts: [
          { id: 'a', name: 'A', balance: '1' },
          { id: 'a', name: 'B', balance: '1' },
        ],
      },
    ],
    ['an unknown caller account', { account: 'acc_nobody' }],
    ['a webhook URL that is not http', { webhookUrl: 'ftp://example.com' }],
    ['a webhook URL that is not a URL', { webhookUrl: 'not a url' }],
    ['a relative webhook URL', { webhookUrl: '/hooks' }],
    ['a webhook URL object that is not http', { webhookUrl: new URL('ftp://127.0.0.1/') }],
    ['a webhook URL that is neither a string nor a URL', { webhookUrl: 80 as unknown as string }],
    ['retry delays that are not an array', { webhookRetryDelaysMs: 1000 as unknown as number[] }],
    ['a negative retry delay', { webhookRetryDelaysMs: [-1] }],
    ['a fractional retry delay', { webhookRetryDelaysMs: [1.5] }],
    ['a retry delay over an hour', { webhookRetryDelaysMs: [3_600_001] }],
    ['more than 20 retries', { webhookRetryDelaysMs: Array<number>(21).fill(1) }],
    ['a zero webhook timeout', { webhookTimeoutMs: 0 }],
    ['a webhook timeout that is a string', { webhookTimeoutMs: '100' as unknown as number }],
    ['an onWebhookAttempt that is not a function', { onWebhookAttempt: 'log' as unknown as () => void }],
    ['payouts that are not objects', { payouts: [1 as unknown as Record<string, unknown>] }],
  ])('rejects %s', async (_name, options) => {
    await expect(startSandbox(options)).rejects.toThrow(TypeError);
  });
});
