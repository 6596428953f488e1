/**
 * `lunas-sandbox --accounts FILE [--account ID]`: the accounts the command's
 * sandbox starts with, read from a JSON file in the `accounts` option's
 * shape, and checked as the sandbox checks them before it listens, so that
 * a wrong file is named with what is wrong in it.
 */
import { readFile } from 'node:fs/promises';
import { createSandbox } from '../index.js';
import { isPlainObject } from '../service/rules.js';
import type { SandboxAccount } from '../types.js';
import { UsageError } from './command-line.js';

/** What a file holds, for a message: `an object`, `a string`. */
const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`;

/**
 * The accounts in `file`: a JSON array of `{ id, name, balance?, active? }`,
 * a left-out balance `"0.00"` (as an account added later starts). Throws a
 * {@link UsageError} naming the file when it cannot be read or is not such an array.
 */
export async function readAccountsFile(file: string): Promise<SandboxAccount[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new UsageError(`--accounts ${file}: cannot read it (${code ?? message})`);
  }
  let accounts: unknown;
  try {
    accounts = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--accounts ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(accounts) || accounts.length === 0) {
    throw new UsageError(
      `--accounts ${file} must hold a non-empty JSON array of accounts, ` +
        `e.g. [{ "id": "acc_shop", "name": "Shop", "balance": "500000.00" }], not ${
          Array.isArray(accounts) ? 'an empty one' : kindOf(accounts)
        }`,
    );
  }
  return accounts.map((account: unknown, index) => {
    if (!isPlainObject(account)) {
      throw new UsageError(`--accounts ${file}: account ${index + 1} must be an object, not ${kindOf(account)}`);
    }
    return { balance: '0.00', ...account } as unknown as SandboxAccount;
  });
}

/**
 * Refuses, naming where they came from, accounts (`file`'s, else the
 * defaults) or a caller's `account` the sandbox would refuse: an in-process
 * sandbox is made of them and closed, so the checks are the sandbox's own.
 */
export async function checkAccounts(
  accounts: SandboxAccount[] | undefined,
  account: string | undefined,
  file: string | undefined,
): Promise<void> {
  try {
    await createSandbox({
      ...(accounts === undefined ? {} : { accounts }),
      ...(account === undefined ? {} : { account }),
    }).close();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new UsageError(
      `${file === undefined ? `--account ${account ?? ''}` : `--accounts ${file}`}: ${error.message}`,
    );
  }
}
