/**
 * The accounts and amounts the sandbox takes outside the API (`addAccount`,
 * `fund`, the `accounts` option and `--accounts FILE`, the command and the
 * control surface), checked as a plain JavaScript caller or a control
 * request may send them: field names with "did you mean", and money read as
 * lunas-sdk reads a request's (a number or a decimal string with at most
 * two decimals, no more digits after the '.' however they are meant, up to
 * the SDK's largest amount), each refusal a `TypeError` naming the value.
 */
import { DECIMAL, normalizeMoney } from '../../shared/money.js';
import { shown } from '../describe-value.js';
import { formatCents, parseCents } from '../service/money.js';
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
  const cents =
    balance === undefined ? 0n : readMoney('balance', balance, balanceLiteral, 'at least 0', '250000 or "250000.50"');
  return { id, name, balance: cents, active: active ?? true };
}

/** An amount to fund an account with, in cents: money greater than 0; `literal` as {@link readNewAccount}'s. */
export function readFundAmount(amount: unknown, literal?: string): bigint {
  return readMoney('amount', amount, literal, 'greater than 0', '50000 or "50000.00"');
}

/** The largest whole amount lunas-sdk promises to send exactly: `Number.MAX_SAFE_INTEGER`. */
const LARGEST_WHOLE_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);
/** The largest amount with cents it promises to send exactly: 15 significant digits survive a double. */
const LARGEST_AMOUNT_WITH_CENTS = '9999999999999.99';
/** From 1e21 on a JSON number is written with an exponent: no amount that large is sent. */
const EXPONENT_FROM = 1e21;

/**
 * Money the sandbox takes, in cents, read as lunas-sdk reads a request's: a
 * number or a decimal string; a string with more than two digits after the
 * '.' is refused whatever they are (`"1.000"` is a thousand in Indonesia,
 * where '.' groups thousands: the SDK never guesses); and bounded as the SDK
 * bounds what it sends, an amount a JSON number holds exactly (the literal
 * `JSON.stringify` writes reads back as the same amount): every whole amount
 * up to {@link LARGEST_WHOLE_AMOUNT} and every one with cents up to
 * {@link LARGEST_AMOUNT_WITH_CENTS}, some larger ones, none from 1e21.
 * `literal` is a JSON body's text of the number, read exactly.
 */
function readMoney(
  name: string,
  value: unknown,
  literal: string | undefined,
  least: 'at least 0' | 'greater than 0',
  example: string,
): bigint {
  const given = typeof value === 'number' && literal !== undefined ? quotedLiteral(literal) : shown(value);
  const decimal = typeof value === 'string' ? DECIMAL.exec(value) : null;
  if (decimal && (decimal[3]?.length ?? 0) > 2 && decimal[1] === '') {
    throw new TypeError(`${name} must have at most two digits after the '.' (got ${given})${thousandsHint(decimal)}`);
  }
  // A JSON number past the bound (1e1048570 is Infinity to JSON.parse) is refused before its digits are read.
  const tooLarge =
    typeof value === 'number' &&
    (Number.isFinite(value) || literal !== undefined) &&
    !(Math.abs(value) < EXPONENT_FROM);
  const cents = tooLarge ? undefined : parseCents(value, literal);
  if (cents === undefined && !tooLarge) {
    throw new TypeError(`${name} must be ${moneyRule(least, example)} (got ${given})`);
  }
  if (cents !== undefined && (least === 'at least 0' ? cents < 0n : cents <= 0n)) {
    throw new TypeError(`${name} must be ${moneyRule(least, example)} (got ${given})`);
  }
  if (cents === undefined || !sentExactly(cents)) {
    throw new TypeError(
      `${name} must be at most ${LARGEST_WHOLE_AMOUNT} (Number.MAX_SAFE_INTEGER), or ${LARGEST_AMOUNT_WITH_CENTS} ` +
        `with cents, or a larger amount a JSON number holds exactly: what lunas-sdk sends (got ${given})`,
    );
  }
  return cents;
}

/** Whether lunas-sdk would send this amount: the JSON number it writes reads back as exactly it. */
function sentExactly(cents: bigint): boolean {
  const wire = formatCents(cents);
  return normalizeMoney(String(Number(wire))) === wire;
}

/** A JSON number's text for a message, cut at 40 characters: `1e1048570`, never a million digits. */
const quotedLiteral = (literal: string): string => (literal.length > 40 ? `${literal.slice(0, 40)}…` : literal);

/**
 * Why `"1.000"` is refused, as lunas-sdk says it: three digits after the '.'
 * may be a thousands group (`"10.000"` is ten thousand in Indonesia), so
 * both readings are spelled out; more are rounded to cents by the caller.
 */
function thousandsHint([, , whole = '', fraction = '']: RegExpExecArray): string {
  const cents = fraction.slice(0, 2);
  const exact = !/[1-9]/.test(fraction.slice(2));
  const decimal = exact ? formatCents(BigInt(whole + cents)) : undefined;
  const rounding = `round it to cents, e.g. ${formatCents(BigInt(whole + cents) + (fraction[2]! >= '5' ? 1n : 0n))}`;
  if (fraction.length !== 3) {
    return `: lunas never guesses whether a '.' groups thousands, as it does in Indonesia; ${
      decimal === undefined ? rounding : `write ${decimal}`
    }`;
  }
  const thousands = BigInt(whole + fraction).toString();
  return `: in Indonesia '.' groups thousands, so it may mean ${thousands}; write ${thousands}, or ${decimal ?? rounding}`;
}

/** An account id as a helper takes it: a string (an unknown one is the ledger's {@link SandboxError}). */
export function readAccountId(accountId: unknown): string {
  if (typeof accountId !== 'string') throw new TypeError(`accountId must be a string (got ${shown(accountId)})`);
  return accountId;
}
