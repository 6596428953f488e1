/**
 * The arguments of `addAccount` and `fund`, checked as a plain JavaScript
 * caller or a control request may send them: field names with "did you
 * mean", money by the requests' own rules (a number or a decimal string, at
 * most two decimals), each refusal a `TypeError` naming the value.
 */
import { shown } from '../describe-value.js';
import { parseCents } from '../service/money.js';
import type { NewLedgerAccount } from '../service/ledger.js';
import { checkOptionNames } from '../option-names.js';

/** The fields of {@link NewAccount}; a name not among them is refused with the closest one. */
const NEW_ACCOUNT_FIELDS = ['id', 'name', 'balance', 'active'] as const;

/** How a refusal describes money, from `least` up. */
const moneyRule = (least: 'at least 0' | 'greater than 0', example: string): string =>
  `a number or a decimal string ${least} with at most two decimals, like ${example}`;

/**
 * A new account's values, checked: `id` a non-empty string, `name` a string,
 * `balance` money of at least 0 (default 0), `active` a boolean (default
 * true). `balanceLiteral` is a JSON body's text of `balance`, read exactly.
 */
export function readNewAccount(given: unknown, balanceLiteral?: string): NewLedgerAccount {
  const { id, name, balance, active } = checkOptionNames(
    given,
    NEW_ACCOUNT_FIELDS,
    `The account must be an object like { id: 'acc_seller', name: 'Seller' } (got ${shown(given)})`,
    'account field',
  );
  if (typeof id !== 'string' || id === '') throw new TypeError(`id must be a non-empty string (got ${shown(id)})`);
  if (typeof name !== 'string') throw new TypeError(`name must be a string (got ${shown(name)})`);
  if (active !== undefined && typeof active !== 'boolean') {
    throw new TypeError(`active must be true or false (got ${shown(active)})`);
  }
  const cents = balance === undefined ? 0n : parseCents(balance, balanceLiteral);
  if (cents === undefined || cents < 0n) {
    throw new TypeError(`balance must be ${moneyRule('at least 0', '250000 or "250000.50"')} (got ${shown(balance)})`);
  }
  return { id, name, balance: cents, active: active ?? true };
}

/** An amount to fund an account with, in cents: money greater than 0; `literal` as {@link readNewAccount}'s. */
export function readFundAmount(amount: unknown, literal?: string): bigint {
  const cents = parseCents(amount, literal);
  if (cents === undefined || cents <= 0n) {
    throw new TypeError(`amount must be ${moneyRule('greater than 0', '50000 or "50000.00"')} (got ${shown(amount)})`);
  }
  return cents;
}

/** An account id as a helper takes it: a string (an unknown one is the ledger's {@link SandboxError}). */
export function readAccountId(accountId: unknown): string {
  if (typeof accountId !== 'string') throw new TypeError(`accountId must be a string (got ${shown(accountId)})`);
  return accountId;
}
