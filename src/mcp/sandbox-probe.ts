/**
 * Whether a URL given without live mode is a lunas sandbox: it is when its
 * control surface answers, with the key, as a sandbox's does (`GET
 * /_sandbox/accounts`: the accounts, each with id, name, balance and
 * whether it is active). Being on loopback proves nothing: a tunnel to the
 * live service listens there too, and answers the API the same way; it has
 * no control surface. Asked at each call that needs it (a money tool, a
 * sandbox tool), so what answers at that moment decides.
 */
import * as z from 'zod/mini';
import { Client } from '../client.js';
import { STDERR } from './stderr.js';

/** An account as a sandbox's control surface lists it. */
export interface SandboxAccount {
  id: string;
  name: string;
  /** Its balance as the wire writes money: `"1000000.00"`. */
  balance: string;
  active: boolean;
}

const sandboxAccounts = z.array(
  z.object({ id: z.string(), name: z.string(), balance: z.string(), active: z.boolean() }),
) as z.ZodMiniType<SandboxAccount[]>;

/** A loopback sandbox answers at once; a service that does not answer in this time is not taken for one. */
const PROBE_TIMEOUT_MS = 5_000;

/** The sandbox's accounts, or `undefined` when `client`'s URL does not answer as a lunas sandbox. */
export async function probeSandbox(client: Client, signal?: AbortSignal): Promise<SandboxAccount[] | undefined> {
  try {
    return await client.get('/_sandbox/accounts', {
      schema: sandboxAccounts,
      maxRetries: 0,
      timeout: PROBE_TIMEOUT_MS,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch {
    return undefined;
  }
}

/** Whether the service at `baseURL` answers, with `apiKey`, as a lunas sandbox: the command's check at start. */
export async function answersAsSandbox(baseURL: string, apiKey: string): Promise<boolean> {
  return (await probeSandbox(new Client({ baseURL, apiKey, logger: STDERR, maxRetries: 0 }))) !== undefined;
}
