// ChargeBook, the sandbox's charges: a Map by id beside the lists they are served in, fees and
// settlement (a paid charge's amount less its fee, handed to the Ledger through onPaid), and
// expiry as one sweep that fails every due charge in expiry order.
import { SandboxError } from '../errors.js';
import type { EventLog } from './events.js';
import { newVirtualAccountNumber, type IdSource } from './ids.js';
import { formatCents } from './money.js';
import { insertByCreation, newestFirstPage, type Page, type PageRequest } from './page.js';
import type { ChargeInput } from './rules.js';
import type { ChargeRecord, ChargeStatus, PaymentMethodType, SandboxEventType } from '../types.js';

/** 0.7 % of a QRIS amount, rounded half up to the cent. */
const qrisFee = (amount: bigint): bigint => (amount * 7n + 500n) / 1000n;
const VIRTUAL_ACCOUNT_FEE = 400_000n;

/** What the service charges for a payment of `amount` cents: 0.7 % for `qris`, Rp 4.000 for a virtual account. */
export const chargeFee = (method: PaymentMethodType, amount: bigint): bigint =>
  method === 'qris' ? qrisFee(amount) : VIRTUAL_ACCOUNT_FEE;

/**
 * What a paid charge settles to the merchant's account: its amount less its
 * fee, never below zero (a virtual-account charge under its Rp 4.000 fee
 * settles nothing, and takes nothing either).
 */
const settlementOf = (amount: bigint, fee: bigint): bigint => (amount > fee ? amount - fee : 0n);

/** What a {@link ChargeBook} tells the rest of the sandbox. */
interface ChargeBookListeners {
  /** Each change of the earliest pending expiry (`undefined`: none pending): the expiry timer. */
  onNextExpiry?: (at: Date | undefined) => void;
  /** Each charge paid, with its {@link settlementOf}, in the same turn as it is paid: the ledger. */
  onPaid?: (settlement: bigint) => void;
}

/** How long after its creation a charge expires unpaid, unless it says when. */
export const DEFAULT_EXPIRY_MS = {
  qris: 15 * 60_000,
  virtual_account: 24 * 60 * 60_000,
} as const;

/** A virtual account's name when neither it nor the customer has one. */
export const DEFAULT_ACCOUNT_NAME = 'Customer';

interface StoredCharge {
  readonly id: string;
  readonly input: ChargeInput;
  readonly fee: bigint;
  readonly virtualAccount: { account_name: string; account_number: string } | null;
  /** Moved to the time of `expire()` when a charge is expired before it. */
  expiresAt: Date;
  readonly createdAt: Date;
  status: ChargeStatus;
  paidAt: Date | null;
  updatedAt: Date;
}

/**
 * Charges ordered by creation time, with their lifecycle and events.
 *
 * Expiry is one sweep, {@link ChargeBook.sweep}: every pending charge at or
 * past its `expires_at` fails, in the order of their expiry, each recording
 * its event at that time. The sandbox's timer, `advanceClock` and every read
 * or change of a charge run it first, so an event is recorded once and the
 * log stays in time order whoever noticed the time.
 */
export class ChargeBook {
  /** Oldest first by `created_at`, the order lists serve in reverse. */
  readonly #byCreation: StoredCharge[] = [];
  readonly #byId = new Map<string, StoredCharge>();
  /** The pending charges, soonest `expires_at` first (equal ones in creation order). */
  readonly #pending: StoredCharge[] = [];
  readonly #now: () => Date;
  readonly #ids: IdSource;
  readonly #events: EventLog;
  readonly #listeners: ChargeBookListeners;

  constructor(now: () => Date, ids: IdSource, events: EventLog, listeners: ChargeBookListeners = {}) {
    this.#now = now;
    this.#ids = ids;
    this.#events = events;
    this.#listeners = listeners;
  }

  /** When the earliest pending charge expires; `undefined` when none is pending. */
  get nextExpiry(): Date | undefined {
    return this.#pending[0]?.expiresAt;
  }

  /** Stores a validated charge and records `payment_charge.created`. */
  create(input: ChargeInput): ChargeRecord {
    this.sweep();
    const record = toRecord(this.#store(input));
    this.#events.record('payment_charge.created', record);
    return record;
  }

  /** Stores a validated charge without an event: bulk seeding. */
  seed(input: ChargeInput): void {
    this.#store(input);
  }

  #store(input: ChargeInput): StoredCharge {
    const createdAt = this.#now();
    const method = input.paymentMethod;
    const charge: StoredCharge = {
      id: this.#ids.next('ch_'),
      input,
      fee: chargeFee(method, input.amount),
      virtualAccount:
        method === 'virtual_account'
          ? {
              account_name: input.virtualAccount.accountName ?? input.customer?.name ?? DEFAULT_ACCOUNT_NAME,
              account_number: input.virtualAccount.accountNumber ?? newVirtualAccountNumber(),
            }
          : null,
      expiresAt: input.expiresAt ?? new Date(createdAt.getTime() + DEFAULT_EXPIRY_MS[method]),
      createdAt,
      status: 'pending',
      paidAt: null,
      updatedAt: createdAt,
    };
    insertByCreation(this.#byCreation, charge, (stored) => stored.createdAt.getTime());
    this.#byId.set(charge.id, charge);
    this.#changingNextExpiry(() => insertByCreation(this.#pending, charge, (stored) => stored.expiresAt.getTime()));
    return charge;
  }

  /** A charge as retrieve serves it, or `undefined` when there is none. */
  retrieve(id: string): ChargeRecord | undefined {
    this.sweep();
    const charge = this.#byId.get(id);
    return charge && toRecord(charge);
  }

  page(request: PageRequest): Page<ChargeRecord> {
    this.sweep();
    return newestFirstPage(this.#byCreation, request, toRecord);
  }

  /** Every charge, oldest first. */
  all(): ChargeRecord[] {
    this.sweep();
    return this.#byCreation.map(toRecord);
  }

  /** Moves a pending charge to `success` or `failed`; throws when it cannot. */
  settle(id: string, outcome: 'success' | 'failed'): ChargeRecord {
    const charge = this.#pendingCharge(id, 'be settled');
    const at = this.#now();
    charge.status = outcome;
    charge.updatedAt = at;
    if (outcome === 'success') {
      charge.paidAt = at;
      this.#listeners.onPaid?.(settlementOf(charge.input.amount, charge.fee));
    }
    return this.#recordEnd(charge, outcome === 'success' ? 'payment_charge.succeeded' : 'payment_charge.failed', at);
  }

  /** Expires a pending charge now: `failed`, with `expires_at` and `updated_at` the sandbox's time. */
  expire(id: string): ChargeRecord {
    const charge = this.#pendingCharge(id, 'expire');
    const at = this.#now();
    charge.status = 'failed';
    charge.expiresAt = at;
    charge.updatedAt = at;
    return this.#recordEnd(charge, 'payment_charge.failed', at);
  }

  /**
   * Fails every pending charge at or past its `expires_at`, soonest first,
   * each event recorded at its charge's expiry (its creation, when a clock
   * of the caller's moved past `expires_at` between the check and the store).
   */
  sweep(): void {
    const now = this.#now().getTime();
    const head = this.#pending[0];
    if (head === undefined || head.expiresAt.getTime() > now) return;
    this.#changingNextExpiry(() => {
      for (let charge = this.#pending[0]; charge && charge.expiresAt.getTime() <= now; charge = this.#pending[0]) {
        this.#pending.shift();
        charge.status = 'failed';
        charge.updatedAt = charge.expiresAt > charge.createdAt ? charge.expiresAt : charge.createdAt;
        this.#events.record('payment_charge.failed', toRecord(charge), charge.updatedAt);
      }
    });
  }

  /** The charge `id` once due expiries are swept, refused unless it is pending. */
  #pendingCharge(id: string, action: string): StoredCharge {
    this.sweep();
    const charge = this.#byId.get(id);
    if (!charge) throw new SandboxError(`No charge with id ${JSON.stringify(id)}`);
    if (charge.status !== 'pending') {
      throw new SandboxError(`Charge ${id} is ${charge.status}, not pending: only a pending charge can ${action}`);
    }
    return charge;
  }

  /** A charge leaving `pending`: out of the expiry queue, its event recorded at `at`. */
  #recordEnd(charge: StoredCharge, type: SandboxEventType, at: Date): ChargeRecord {
    this.#changingNextExpiry(() => this.#pending.splice(this.#pending.indexOf(charge), 1));
    const record = toRecord(charge);
    this.#events.record(type, record, at);
    return record;
  }

  /** Runs `change` to the pending queue, telling the listener when the earliest expiry moved. */
  #changingNextExpiry(change: () => void): void {
    const before = this.nextExpiry;
    change();
    const after = this.nextExpiry;
    if (before !== after) this.#listeners.onNextExpiry?.(after);
  }
}

function toRecord(charge: StoredCharge): ChargeRecord {
  const { input } = charge;
  const record: ChargeRecord = {
    id: charge.id,
    payment_method: input.paymentMethod,
    channel: input.channel,
    status: charge.status,
    currency: input.currency,
    amount: formatCents(input.amount),
    fee: formatCents(charge.fee),
    client_reference_id: input.clientReferenceId,
    customer_details: input.customer && {
      name: input.customer.name,
      email: input.customer.email,
      phone_number: input.customer.phoneNumber,
    },
    items: input.items.map((item) => ({ name: item.name, price: formatCents(item.price), quantity: item.quantity })),
    description: input.description,
    expires_at: charge.expiresAt.toISOString(),
    paid_at: charge.paidAt && charge.paidAt.toISOString(),
    created_at: charge.createdAt.toISOString(),
    updated_at: charge.updatedAt.toISOString(),
  };
  if (charge.virtualAccount) {
    // Key order follows spec 2.1 so the JSON reads like the service's.
    const { expires_at, paid_at, created_at, updated_at, ...head } = record;
    return {
      ...head,
      payment_method_options: { virtual_account: { ...charge.virtualAccount } },
      expires_at,
      paid_at,
      created_at,
      updated_at,
    };
  }
  return record;
}

/** The create response: a charge plus its customer-facing addresses. */
export function withPaymentUrls(record: ChargeRecord, baseUrl: string): ChargeRecord {
  const id = encodeURIComponent(record.id);
  return {
    ...record,
    payment_url: `${baseUrl}/pay/${id}`,
    ...(record.payment_method === 'qris' ? { qr_code_url: `${baseUrl}/qr/${id}.svg` } : {}),
  };
}
