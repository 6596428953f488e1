/**
 * What a person or a test can do to a sandbox from outside the service: the
 * helpers the handle offers and the control surface (`/_sandbox/…`) serves,
 * written once so the two answer alike. Synchronous, as the service is.
 */
import type { ChargeBook } from '../service/charges.js';
import type { ExpiryTimer, SandboxClock } from '../service/clock.js';
import type { WebhookDeliveries } from '../webhooks/deliveries.js';
import type { RedeliverOptions, WebhookDelivery, WebhookGivenUp } from '../webhooks/delivery-types.js';
import type { EventLog } from '../service/events.js';
import type { Fault, FaultQueue } from '../transport/faults.js';
import type { Ledger } from '../service/ledger.js';
import type { Page } from '../service/page.js';
import type { AccountRecord, ChargeRecord, SandboxEvent, TransferRecord } from '../types.js';
import { readAccountId, readFundAmount, readNewAccount } from './account-input.js';

/** The parts of one sandbox the controls act on. */
export interface ControlParts {
  clock: SandboxClock;
  expiryTimer: ExpiryTimer;
  charges: ChargeBook;
  events: EventLog;
  webhooks: WebhookDeliveries;
  ledger: Ledger;
  faults: FaultQueue;
}

/**
 * The newest records of each kind, newest first (copies), each with how many
 * there are in all: what the sandbox page shows.
 */
interface RecentRecords {
  charges: Page<ChargeRecord>;
  events: Page<SandboxEvent>;
  /** `total` counts the deliveries kept (the log keeps the newest). */
  deliveries: Page<WebhookDelivery>;
  transfers: Page<TransferRecord>;
}

/** The controls of one sandbox; each throws as its helper on {@link Sandbox} documents. */
export interface SandboxControls {
  payCharge(id: string): ChargeRecord;
  failCharge(id: string): ChargeRecord;
  expireCharge(id: string): ChargeRecord;
  /** Moves the clock and sweeps; the events that fell due, oldest first. */
  advanceClock(ms: number): SandboxEvent[];
  redeliver(eventId: string, options: RedeliverOptions | undefined): void;
  charges(): ChargeRecord[];
  events(): SandboxEvent[];
  deliveries(): WebhookDelivery[];
  transfers(): TransferRecord[];
  /** The newest `limit` records of each kind: only those are read and copied, however many there are. */
  recent(limit: number): RecentRecords;
  balance(accountId: string): string;
  /** `literal` is a JSON body's text of `balance` (money is read from its digits). */
  addAccount(account: unknown, balanceLiteral?: string): AccountRecord;
  /** `literal` is a JSON body's text of `amount`. */
  fund(accountId: unknown, amount: unknown, amountLiteral?: string): AccountRecord;
  accounts(): AccountRecord[];
  /** The sandbox's time, ISO 8601 UTC. */
  now(): string;
  /** Whether a charge, an event or an account has this id: the control surface's 404 before acting. */
  has(kind: 'charge' | 'event' | 'account', id: string): boolean;

  // What another process needs to drive a sandbox fully: wait for its webhooks, make it misbehave.
  /**
   * Resolves once no webhook delivery is pending (at `close()` too), or after
   * `timeoutMs`, with how many still are and every event given up since the
   * sandbox started (whenever it was); its timer goes when it resolves.
   */
  waitForWebhooks(timeoutMs: number): Promise<WebhookWait>;
  inject(fault: Fault): void;
  clearFaults(): void;
}

/**
 * How a wait for webhooks ended: `settled` when no delivery is pending, else
 * how many still are; `failed`, the events given up since the sandbox started
 * (before the wait too), each until a later delivery of it is delivered.
 */
export interface WebhookWait {
  settled: boolean;
  pending: number;
  failed: WebhookGivenUp[];
}

/** The controls over one sandbox's parts. */
export function sandboxControls({
  clock,
  expiryTimer,
  charges,
  events,
  webhooks,
  ledger,
  faults,
}: ControlParts): SandboxControls {
  return {
    payCharge: (id) => charges.settle(id, 'success'),
    failCharge: (id) => charges.settle(id, 'failed'),
    expireCharge: (id) => charges.expire(id),
    advanceClock(ms) {
      clock.advance(ms);
      const before = events.all.length;
      charges.sweep();
      // The clock jumped, so the wait for the next expiry is shorter even when the next expiry is not.
      expiryTimer.arm(charges.nextExpiry);
      return events.all.slice(before);
    },
    redeliver: (eventId, options) => webhooks.redeliver(eventId, options),
    charges: () => charges.all(),
    events: () => events.all.slice(),
    deliveries: () => webhooks.all,
    transfers: () => ledger.all(),
    recent: (limit) => ({
      charges: charges.page({ page: 1, pageSize: limit }),
      events: { data: structuredClone(events.newest(limit)), total: events.all.length },
      deliveries: webhooks.newest(limit),
      // Every transfer leaves the caller's account (never to itself), so its list holds every transfer once.
      transfers: ledger.page(ledger.sourceAccountId, { page: 1, pageSize: limit }),
    }),
    balance: (accountId) => ledger.balance(accountId),
    addAccount: (account, balanceLiteral) => ledger.open(readNewAccount(account, balanceLiteral)),
    fund(accountId, amount, amountLiteral) {
      const id = readAccountId(accountId);
      return ledger.credit(id, readFundAmount(amount, amountLiteral));
    },
    accounts: () => ledger.accounts(),
    now: () => clock.now().toISOString(),
    has(kind, id) {
      if (kind === 'charge') return charges.retrieve(id) !== undefined;
      if (kind === 'event') return events.all.some((event) => event.id === id);
      return ledger.isActive(id) !== undefined;
    },

    async waitForWebhooks(timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      // settled() resolves at close() too, so a wait never outlives its sandbox.
      const settled = await Promise.race([webhooks.settled().then(() => true), timedOut]);
      clearTimeout(timer);
      return { settled, pending: webhooks.pendingCount, failed: webhooks.givenUp() };
    },
    inject: (fault) => faults.arm(fault),
    clearFaults: () => faults.clear(),
  };
}
