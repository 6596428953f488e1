/** What a sandbox holds when its options leave something out. */
import type { SandboxAccount } from './types.js';

export const DEFAULT_API_KEY = 'sk_test_sandbox';
export const DEFAULT_SOURCE_ACCOUNT = 'acc_merchant';

/**
 * Retries of a failed webhook delivery, as a service does them: soon (1 s, a
 * blip), then spaced out (5 s, 30 s, 2 min) for a receiver being restarted.
 * Five attempts in about 2.6 minutes, short enough to watch while developing.
 */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000];
/**
 * How long the control surface's wait for webhooks (and `lunas-sandbox wait`)
 * waits when not told: long enough for a delivery's first two retries on the
 * default schedule (1 s and 5 s after), short of the later ones, so a
 * receiver that keeps failing fails the wait rather than holding a test.
 */
export const DEFAULT_WEBHOOK_WAIT_MS = 30_000;
/** One attempt's time limit: a receiver should answer at once and do its work after. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * How many webhook deliveries `sandbox.deliveries` keeps: the newest, plus any
 * older one still pending until it settles. Enough for a test to read back
 * its own; a sandbox left serving for days holds no more.
 */
export const KEPT_DELIVERIES = 10_000;
/** How many requests `sandbox.requests` keeps: the newest (a dashboard left open adds one every 5 s). */
export const KEPT_REQUESTS = 10_000;

export const DEFAULT_ACCOUNTS: readonly SandboxAccount[] = [
  { id: 'acc_merchant', name: 'Merchant', balance: '1000000.00' },
  { id: 'acc_partner', name: 'Partner', balance: '0.00' },
  { id: 'acc_closed', name: 'Closed', balance: '0.00', active: false },
];

/**
 * Example payouts, newest first. The service does not show a payout's
 * fields; these are the sandbox's own illustration.
 */
export const DEFAULT_PAYOUTS: readonly Record<string, unknown>[] = [
  payout('po_3c1f0b7a9e2d4c6b8a0f1e2d', '750000.00', 'pending', 'bni', '2024-03-03T09:30:00.000Z'),
  payout('po_2b0e9a6f8d1c3b5a7f9e0d1c', '125000.50', 'failed', 'mandiri', '2024-03-02T14:05:00.000Z'),
  payout('po_1a9d8f5e7c0b2a4f6e8d9c0b', '250000.00', 'succeeded', 'bca', '2024-03-01T08:00:00.000Z'),
];

function payout(id: string, amount: string, status: string, bank: string, at: string): Record<string, unknown> {
  return {
    id,
    amount,
    currency: 'idr',
    status,
    bank_code: bank,
    account_number: '1234567890',
    account_holder_name: 'Merchant Owner',
    description: `Payout to ${bank.toUpperCase()}`,
    created_at: at,
    updated_at: at,
  };
}

/** QRIS plus the common virtual-account banks. The service does not show these fields either. */
export const DEFAULT_PAYMENT_METHODS: readonly Record<string, unknown>[] = [
  { id: 'pm_qris', type: 'qris', channel: 'qris', name: 'QRIS', active: true },
  ...Object.entries({ bca: 'BCA', bni: 'BNI', bri: 'BRI', mandiri: 'Mandiri', permata: 'Permata' }).map(
    ([channel, bank]) => ({
      id: `pm_va_${channel}`,
      type: 'virtual_account',
      channel,
      name: `${bank} Virtual Account`,
      active: true,
    }),
  ),
];
