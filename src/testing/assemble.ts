/**
 * One sandbox's parts wired together, and the handle over them: written once
 * for both transports, so `startSandbox` and `createSandbox` cannot drift
 * apart. A new part (a store, a helper) goes here, and both get it.
 *
 * The handle hands out copies: what a helper returns or a record getter reads
 * is the caller's to change, and changing it changes nothing inside (an event
 * edited in a test must not be what `redeliver` sends).
 */
import { BoundedLog } from './bounded-log.js';
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
import { KEPT_DELIVERIES, KEPT_REQUESTS } from './defaults.js';
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
    handler: settings.webhook,
    retryDelaysMs: settings.webhookRetryDelaysMs,
    timeoutMs: settings.webhookTimeoutMs,
    onAttempt: settings.onWebhookAttempt,
    keep: KEPT_DELIVERIES,
  });
  const events = new EventLog(now, ids, (event) => webhooks.send(event));
  const expiryTimer = new ExpiryTimer(clock, () => {
    charges.sweep();
    expiryTimer.arm(charges.nextExpiry);
  });
  const ledger = new Ledger(settings.accounts, settings.account, now, ids);
  const charges = new ChargeBook(now, ids, events, {
    onNextExpiry: (at) => expiryTimer.arm(at),
    // The sandbox's choice (the spec shows no settlement): a paid charge credits the caller's account at once.
    onPaid: (settlement) => ledger.credit(ledger.sourceAccountId, settlement),
  });
  const faults = new FaultQueue();
  const controls = sandboxControls({ clock, expiryTimer, charges, events, webhooks, ledger, faults });
  const requests = new BoundedLog<RecordedRequest>(KEPT_REQUESTS);
  const state = {
    baseUrl: '',
    clock,
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
      addAccount: (account) => whileOpen('addAccount', () => controls.addAccount(account)),
      fund: (accountId, amount) => whileOpen('fund', () => controls.fund(accountId, amount)),
      accounts: () => whileOpen('accounts', () => controls.accounts()),
      // The charge resolved is also the data of the event just recorded: the caller gets its own.
      payCharge: async (id) => whileOpen('payCharge', () => structuredClone(controls.payCharge(id))),
      failCharge: async (id) => whileOpen('failCharge', () => structuredClone(controls.failCharge(id))),
      expireCharge: async (id) => whileOpen('expireCharge', () => structuredClone(controls.expireCharge(id))),
      advanceClock: async (ms) => whileOpen('advanceClock', () => structuredClone(controls.advanceClock(ms))),
      now: () => whileOpen('now', () => controls.now()),
      // Built afresh from the store on every call (as transfers() and accounts() are): already the caller's own.
      charges: () => whileOpen('charges', () => controls.charges()),
      seedCharges(count, template = {}) {
        whileOpen('seedCharges', () => {
          if (!(Number.isSafeInteger(count) && count >= 0)) throw new TypeError('count must be a non-negative integer');
          const checked = checkCharge({ payment_method: 'qris', amount: 10_000, ...template }, undefined, now());
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
        return structuredClone(events.all);
      },
      get requests() {
        return structuredClone(requests.all());
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
