/**
 * One sandbox's parts wired together, and the handle over them: written once
 * for both transports, so `startSandbox` and `createSandbox` cannot drift
 * apart. A new part (a store, a helper) goes here, and both get it.
 */
import { ChargeBook } from './service/charges.js';
import { ExpiryTimer, SandboxClock } from './service/clock.js';
import { sandboxControls } from './control/controls.js';
import { WebhookDeliveries } from './webhooks/deliveries.js';
import { closedError } from './errors.js';
import { EventLog } from './service/events.js';
import { FaultQueue } from './transport/faults.js';
import { FormTokens } from './pages/form-token.js';
import { Gateway } from './transport/gateway.js';
import { IdSource } from './service/ids.js';
import { Ledger } from './service/ledger.js';
import { assertObjectList, type SandboxSettings } from './options.js';
import { checkCharge } from './service/rules.js';
import type { Sandbox } from './sandbox.js';
import type { RecordedRequest } from './types.js';

/** A sandbox's parts, waiting for a transport: the gateway to serve, then the handle at its URL. */
interface AssembledSandbox {
  /** What a transport hands each request to. */
  readonly gateway: Gateway;
  /**
   * The handle, once a transport serves the gateway at `url` (which
   * `payment_url` starts with); `stopTransport` ends that transport on
   * `close()`; `entry` (the function that made it) is named in the closed
   * sandbox's errors.
   */
  handle(url: string, stopTransport: () => Promise<void>, entry: 'startSandbox' | 'createSandbox'): Sandbox;
}

/** Builds one sandbox's state and gateway from checked settings. */
export function assembleSandbox(settings: SandboxSettings): AssembledSandbox {
  const { apiKey } = settings;
  const clock = new SandboxClock(settings.now);
  const { now } = clock;
  const ids = new IdSource();
  const webhooks = new WebhookDeliveries({
    url: settings.webhookUrl,
    retryDelaysMs: settings.webhookRetryDelaysMs,
    timeoutMs: settings.webhookTimeoutMs,
    onAttempt: settings.onWebhookAttempt,
  });
  const events = new EventLog(now, ids, (event) => webhooks.send(event));
  const expiryTimer = new ExpiryTimer(clock, () => {
    charges.sweep();
    expiryTimer.arm(charges.nextExpiry);
  });
  const charges = new ChargeBook(now, ids, events, (at) => expiryTimer.arm(at));
  const ledger = new Ledger(settings.accounts, settings.account, now, ids);
  const faults = new FaultQueue();
  const controls = sandboxControls({ clock, expiryTimer, charges, events, webhooks, ledger, faults });
  const requests: RecordedRequest[] = [];
  const state = {
    baseUrl: '',
    ledger,
    charges,
    controls,
    forms: new FormTokens(),
    // Mutable: addPayouts puts new ones at its head.
    payouts: structuredClone([...settings.payouts]),
    paymentMethods: structuredClone(settings.paymentMethods),
  };
  const gateway = new Gateway({ apiKey, ids, state, faults, requests });

  const handle: AssembledSandbox['handle'] = (url, stopTransport, entry) => {
    state.baseUrl = url;
    let closed = false;
    /** Runs a helper, or refuses once the sandbox is closed: its state went with it. */
    const whileOpen = <T>(helper: string, act: () => T): T => {
      if (closed) throw closedError(helper, entry);
      return act();
    };
    return {
      url,
      apiKey,
      balance: (accountId) => whileOpen('balance', () => controls.balance(accountId)),
      payCharge: async (id) => whileOpen('payCharge', () => controls.payCharge(id)),
      failCharge: async (id) => whileOpen('failCharge', () => controls.failCharge(id)),
      expireCharge: async (id) => whileOpen('expireCharge', () => controls.expireCharge(id)),
      advanceClock: async (ms) => whileOpen('advanceClock', () => controls.advanceClock(ms)),
      charges: () => whileOpen('charges', () => controls.charges()),
      seedCharges(count, template = {}) {
        whileOpen('seedCharges', () => {
          if (!(Number.isSafeInteger(count) && count >= 0)) throw new TypeError('count must be a non-negative integer');
          const checked = checkCharge({ payment_method: 'qris', amount: 10_000, ...template });
          if (!checked.ok) throw new TypeError(`Invalid charge template: ${JSON.stringify(checked.errors)}`);
          for (let i = 0; i < count; i++) charges.seed(checked.value);
        });
      },
      addPayouts(payouts) {
        whileOpen('addPayouts', () => {
          assertObjectList('payouts', payouts);
          state.payouts.unshift(...structuredClone(payouts));
        });
      },
      get events() {
        return controls.events();
      },
      get requests() {
        return requests.slice();
      },
      get webhookFailures() {
        return webhooks.failedAttempts;
      },
      get deliveries() {
        return controls.deliveries();
      },
      redeliver: (eventId, options) => whileOpen('redeliver', () => controls.redeliver(eventId, options)),
      holdWebhooks: () => whileOpen('holdWebhooks', () => webhooks.hold()),
      releaseWebhooks: (options) => whileOpen('releaseWebhooks', () => webhooks.release(options)),
      webhooksSettled: () => webhooks.settled(),
      transfers: () => whileOpen('transfers', () => controls.transfers()),
      inject: (fault) => whileOpen('inject', () => controls.inject(fault)),
      clearFaults: () => whileOpen('clearFaults', () => controls.clearFaults()),
      async close() {
        closed = true;
        expiryTimer.stop();
        webhooks.close();
        gateway.close();
        await stopTransport();
      },
    };
  };
  return { gateway, handle };
}
