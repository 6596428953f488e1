// Ledger, the sandbox's accounts, balances and transfers: accounts opened and funded, a paid
// charge's settlement credited to the caller's account (ChargeBook's onPaid → Ledger.credit),
// and transfers by id and in the order they are listed.
import { SandboxError } from '../errors.js';
import type { IdSource } from './ids.js';
import { formatCents, parseCents } from './money.js';
import { insertByCreation, newestFirstPage, type Page, type PageRequest } from './page.js';
import type { AccountLookup, TransferInput } from './rules.js';
import type { AccountRecord, SandboxAccount, TransferRecord } from '../types.js';

interface Account {
  readonly id: string;
  readonly name: string;
  readonly active: boolean;
  balance: bigint;
}

/** An account to open, its values already checked: {@link Ledger.open}. */
export interface NewLedgerAccount {
  id: string;
  name: string;
  balance: bigint;
  active: boolean;
}

type TransferOutcome =
  | { kind: 'created' | 'replayed'; transfer: TransferRecord }
  | { kind: 'key-conflict' | 'insufficient-balance' | 'source-inactive' };

/**
 * Accounts, their balances in integer cents, and the transfers between them.
 * Every method is synchronous: with the request body already read, a transfer
 * is checked and applied in one turn of the event loop, so concurrent
 * requests can neither overdraw an account nor both claim one idempotency key.
 */
export class Ledger implements AccountLookup {
  readonly sourceAccountId: string;
  readonly #accounts = new Map<string, Account>();
  /** Every transfer by id, in the order made. */
  readonly #byId = new Map<string, TransferRecord>();
  /** Account id -> the transfers it took part in, oldest first by `created_at`. */
  readonly #byAccount = new Map<string, TransferRecord[]>();
  /** Idempotency-Key -> the successful request it answered. Kept for the sandbox's lifetime. */
  readonly #byKey = new Map<string, { fingerprint: string; transfer: TransferRecord }>();
  readonly #now: () => Date;
  readonly #ids: IdSource;

  constructor(accounts: readonly SandboxAccount[], sourceAccountId: string, now: () => Date, ids: IdSource) {
    this.sourceAccountId = sourceAccountId;
    this.#now = now;
    this.#ids = ids;
    for (const account of accounts) {
      const balance = parseCents(account.balance);
      if (typeof account.balance !== 'string' || balance === undefined || balance < 0n) {
        throw new TypeError(
          `Account ${account.id}: balance must be a decimal string of at least 0 with at most two decimals, like "1000.00"`,
        );
      }
      if (this.#accounts.has(account.id)) throw new TypeError(`Account ${account.id} is listed twice`);
      this.#add({ id: account.id, name: account.name, active: account.active ?? true, balance });
    }
    if (!this.#accounts.has(sourceAccountId)) {
      throw new TypeError(`The caller's account ${sourceAccountId} is not among the sandbox accounts`);
    }
  }

  /** Whether the account is active; `undefined` when there is no such account. */
  isActive(accountId: string): boolean | undefined {
    return this.#accounts.get(accountId)?.active;
  }

  /** An account's balance in wire form; throws a {@link SandboxError} when there is no such account. */
  balance(accountId: string): string {
    return formatCents(this.#account(accountId).balance);
  }

  /** Opens an account after the others (`addAccount`); a {@link SandboxError} when its id is taken. */
  open(account: NewLedgerAccount): AccountRecord {
    if (this.#accounts.has(account.id)) {
      throw new SandboxError(`An account with id ${JSON.stringify(account.id)} already exists`);
    }
    return recordOf(this.#add({ ...account }));
  }

  /**
   * Adds `cents` to an account, active or not (`fund`, and the settlement of
   * a paid charge); a {@link SandboxError} when there is no such account.
   */
  credit(accountId: string, cents: bigint): AccountRecord {
    const account = this.#account(accountId);
    account.balance += cents;
    return recordOf(account);
  }

  /** Applies a validated transfer from the caller's account, honouring `idempotencyKey`. */
  transfer(input: TransferInput, idempotencyKey: string | undefined): TransferOutcome {
    const fingerprint = JSON.stringify([
      input.destinationAccountId,
      input.amount.toString(),
      input.currency,
      input.clientReferenceId,
      input.description,
    ]);
    if (idempotencyKey !== undefined) {
      const earlier = this.#byKey.get(idempotencyKey);
      if (earlier) {
        return earlier.fingerprint === fingerprint
          ? { kind: 'replayed', transfer: earlier.transfer }
          : { kind: 'key-conflict' };
      }
    }
    const source = this.#account(this.sourceAccountId);
    const destination = this.#account(input.destinationAccountId);
    if (!source.active) return { kind: 'source-inactive' };
    if (source.balance < input.amount) return { kind: 'insufficient-balance' };

    source.balance -= input.amount;
    destination.balance += input.amount;
    const at = this.#now().toISOString();
    const transfer: TransferRecord = {
      id: this.#ids.next('tr_'),
      source_account_id: source.id,
      destination_account_id: destination.id,
      source_account_name: source.name,
      destination_account_name: destination.name,
      status: 'succeeded',
      currency: input.currency,
      amount: formatCents(input.amount),
      description: input.description,
      client_reference_id: input.clientReferenceId,
      created_at: at,
      updated_at: at,
    };
    Object.freeze(transfer);
    this.#byId.set(transfer.id, transfer);
    for (const accountId of [source.id, destination.id]) {
      const list = this.#byAccount.get(accountId);
      if (list) insertByCreation(list, transfer, (stored) => Date.parse(stored.created_at));
    }
    if (idempotencyKey !== undefined) this.#byKey.set(idempotencyKey, { fingerprint, transfer });
    return { kind: 'created', transfer };
  }

  /** Transfers involving `accountId`, newest first. */
  page(accountId: string, request: PageRequest): Page<TransferRecord> {
    return newestFirstPage(this.#byAccount.get(accountId) ?? [], request, (transfer) => ({ ...transfer }));
  }

  /** Every account with its balance in wire form: the options' in their order, then those opened since. */
  accounts(): AccountRecord[] {
    return Array.from(this.#accounts.values(), recordOf);
  }

  /** Every transfer, in the order made (oldest first). */
  all(): TransferRecord[] {
    return Array.from(this.#byId.values(), (transfer) => ({ ...transfer }));
  }

  #add(account: Account): Account {
    this.#accounts.set(account.id, account);
    this.#byAccount.set(account.id, []);
    return account;
  }

  #account(id: string): Account {
    const account = this.#accounts.get(id);
    if (!account) throw new SandboxError(`No account with id ${JSON.stringify(id)}`);
    return account;
  }
}

/** An account as the helpers hand it out: a copy, its balance in wire form. */
const recordOf = ({ id, name, balance, active }: Account): AccountRecord => ({
  id,
  name,
  balance: formatCents(balance),
  active,
});
