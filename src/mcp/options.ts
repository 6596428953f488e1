/**
 * The MCP server's options, checked by name and value as the client's are
 * (plain JavaScript callers and the command line get no compiler), and the
 * service they lead to. Safe by default: without `live`, the server serves a
 * sandbox on this machine and nothing else; the environment's `LUNAS_*`
 * variables, which may name the live service, are read in live mode only.
 * Loads no MCP package: the command checks its flags here before loading one.
 */
import { readOptionsObject } from '../core/checks/options.js';
import { readEnv } from '../core/runtime.js';
import { describeKind, describeValue } from '../core/report/describe-value.js';
import { LunasError } from '../core/report/errors.js';
import { moneyParam } from '../core/checks/schemas.js';
import { maskRefusal, MIN_KEY_LENGTH, Secret } from '../core/report/secrets.js';
import { closestNames } from '../shared/closest-names.js';
import { normalizeMoney } from '../shared/money.js';
import type { McpAuditEntry } from './audit.js';
import { TOOLS, TOOL_NAMES, type McpToolName } from './tools.js';

/**
 * Options of {@link createMcpServer}. Without `live`, it serves the sandbox at
 * `baseURL` (one on this machine: `127.0.0.1`, `localhost` or `[::1]`), with
 * the sandbox's tools; with `live: true`, the service at `baseURL` with a
 * real key, where the tools that move money ask the person first.
 *
 * @example
 * ```ts
 * import { createMcpServer } from 'lunas-sdk/mcp';
 *
 * const server = createMcpServer({ live: true, maxAmount: 1_000_000, tools: ['charges_create', 'charges_retrieve'] });
 * ```
 * @category MCP
 */
export interface CreateMcpServerOptions {
  /**
   * Serve the live service: no sandbox tools, and `charges_create` and
   * `transfers_create` ask the person to confirm through MCP elicitation (and
   * are refused when the MCP client cannot ask). Default `false`: a sandbox.
   */
  live?: boolean | undefined;
  /**
   * The service's URL. Live: default `LUNAS_BASE_URL`. Sandbox: the URL of a
   * running sandbox on this machine (`startSandbox()`'s `url`); required.
   */
  baseURL?: string | undefined;
  /**
   * The API key. Live: default `LUNAS_API_KEY`. Sandbox: default
   * `sk_test_sandbox`, the sandbox's own default key. Never shown in a tool's
   * result or error.
   */
  apiKey?: string | undefined;
  /**
   * The most any tool may send as an amount, in any mode: a number or a
   * decimal string with at most two decimals (`1000000`, `'1000000.00'`),
   * compared exactly. A larger amount is refused and nothing is sent.
   */
  maxAmount?: number | string | undefined;
  /**
   * The tools to serve, by name; default every tool of the mode. Fewer tools
   * cost the agent less context. An unknown name is refused, naming the
   * closest one; so is a sandbox tool in live mode.
   */
  tools?: readonly McpToolName[] | undefined;
  /**
   * The most the money tools (`transfers_create`, `charges_create`) may move
   * in all, across the calls of the servers made from this very options
   * object (the `lunas-mcp` command: the process): a number or a decimal
   * string, as `maxAmount`. A call that would go past it is refused before
   * the person is asked and before anything is sent, saying how much is
   * left. A call counts once it is sent, and stops counting when the service
   * refuses it; a call whose outcome is unknown (a lost answer) keeps
   * counting, and its retry with the same `idempotency_key` does not count
   * again.
   */
  maxTotal?: number | string | undefined;
  /**
   * Serve only the tools that read: no create, pay, fail, expire or clock
   * advance. Default `false`. With `tools`, naming a tool that changes
   * anything is refused.
   */
  readOnly?: boolean | undefined;
  /**
   * The only accounts `transfers_create` may send to, by id; a transfer to
   * any other is refused before the person is asked and before anything is
   * sent. Default: any account.
   */
  allowDestinations?: readonly string[] | undefined;
  /**
   * Where each money tool call's audit line goes: a file's path (a JSON line
   * appended per call), or a function given each {@link McpAuditEntry}.
   * Default: a JSON line on stderr.
   */
  audit?: string | ((entry: McpAuditEntry) => void) | undefined;
}

/** How a caller spells each option in messages: the option's name, or the command's flag. */
export type OptionSpelling = Readonly<Record<keyof CreateMcpServerOptions, string>>;

/** The option names themselves, for {@link createMcpServer}'s messages. */
const OPTION_NAMES: OptionSpelling = {
  live: 'live',
  baseURL: 'baseURL',
  apiKey: 'apiKey',
  maxAmount: 'maxAmount',
  tools: 'tools',
  maxTotal: 'maxTotal',
  readOnly: 'readOnly',
  allowDestinations: 'allowDestinations',
  audit: 'audit',
};

/** The options checked, with what the mode leaves to the service: its URL and key, checked by the client. */
export interface McpSettings {
  /** The live service (confirmation before money moves, no sandbox tool), or a sandbox. */
  readonly live: boolean;
  /** As given: {@link serviceOf} applies the mode's default and rules. */
  readonly baseURL: string | undefined;
  /** As given: {@link serviceOf} applies the mode's default. */
  readonly apiKey: string | undefined;
  /** The cap, exactly, with two decimals (`"1000000.00"`), or none. */
  readonly maxAmount: string | undefined;
  /** The tools served, in the table's order. */
  readonly tools: readonly McpToolName[];
  /** The session's cap, exactly, with two decimals, or none. */
  readonly maxTotal: string | undefined;
  /** Only the tools that read are served. */
  readonly readOnly: boolean;
  /** The accounts transfers may go to, or any (`undefined`). */
  readonly allowDestinations: readonly string[] | undefined;
  /** Where audit lines go: a file's path, a function, or stderr (`undefined`). */
  readonly audit: string | ((entry: McpAuditEntry) => void) | undefined;
}

/** The key every sandbox accepts unless told otherwise. */
const SANDBOX_KEY = 'sk_test_sandbox';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The options read by name and checked by value: unknown names get the
 * closest known one, as the client's do. The URL and the key are checked by
 * the client when the server is made ({@link serviceOf}).
 *
 * @throws {@link LunasError} naming the first problem.
 */
export function checkMcpOptions(given: unknown, spelled: OptionSpelling = OPTION_NAMES): McpSettings {
  const { values, problems } = readOptionsObject(given, Object.keys(OPTION_NAMES), 'The MCP server options');
  try {
    const unknown = Object.values(problems).flat();
    if (unknown.length > 0) throw new LunasError(unknown.join('; '));
    return settingsOf(values as CreateMcpServerOptions, spelled);
  } catch (error) {
    // A name or a value is quoted to point at a mistake, and the caller may have put a key there.
    throw maskedRefusal(maskedRefusal(error, values.apiKey), readEnv('LUNAS_API_KEY'));
  }
}

function settingsOf(values: CreateMcpServerOptions, spelled: OptionSpelling): McpSettings {
  const {
    live = false,
    baseURL,
    apiKey,
    maxAmount,
    tools,
    maxTotal,
    readOnly = false,
    allowDestinations,
    audit,
  } = values;
  if (typeof live !== 'boolean')
    throw new LunasError(`${spelled.live} must be true or false (got ${describeValue(live)})`);
  if (typeof readOnly !== 'boolean')
    throw new LunasError(`${spelled.readOnly} must be true or false (got ${describeValue(readOnly)})`);
  if (baseURL !== undefined && typeof baseURL !== 'string') {
    throw new LunasError(`${spelled.baseURL} must be a URL string (got ${describeValue(baseURL)})`);
  }
  // Never quoted: what was given as a key is not shown, whatever its type.
  if (apiKey !== undefined && typeof apiKey !== 'string') {
    throw new LunasError(`${spelled.apiKey} must be a string (got ${describeKind(apiKey)})`);
  }
  return {
    live,
    baseURL,
    apiKey,
    maxAmount: maxAmount === undefined ? undefined : checkMaxAmount(maxAmount, spelled.maxAmount),
    tools:
      tools === undefined
        ? TOOLS.filter((tool) => (!live || !tool.sandboxOnly) && (!readOnly || tool.readOnly)).map((tool) => tool.name)
        : checkTools(tools, live, readOnly, spelled),
    maxTotal: maxTotal === undefined ? undefined : checkMaxAmount(maxTotal, spelled.maxTotal),
    readOnly,
    allowDestinations: allowDestinations === undefined ? undefined : checkDestinations(allowDestinations, spelled),
    audit: audit === undefined ? undefined : checkAudit(audit, spelled),
  };
}

/** Account ids: a non-empty list of non-empty strings, each once. */
function checkDestinations(value: unknown, spelled: OptionSpelling): readonly string[] {
  const name = spelled.allowDestinations;
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && id.trim() !== '')) {
    throw new LunasError(`${name} must be a list of account ids, e.g. acc_partner (got ${describeValue(value)})`);
  }
  if (value.length === 0) throw new LunasError(`${name} names no account; leave it out to allow any`);
  return [...new Set(value as string[])];
}

/** A file's path (not empty) or a function. */
function checkAudit(value: unknown, spelled: OptionSpelling): string | ((entry: McpAuditEntry) => void) {
  if ((typeof value === 'string' && value !== '') || typeof value === 'function') {
    return value as string | ((entry: McpAuditEntry) => void);
  }
  throw new LunasError(`${spelled.audit} must be a file's path or a function (got ${describeValue(value)})`);
}

/**
 * The cap, read as a request's money is (the SDK's own rule and messages: more
 * than two decimals is refused, since `1.000` is one thousand in Indonesia),
 * exactly, with two decimals.
 */
function checkMaxAmount(value: unknown, name: string): string {
  const read = moneyParam(name).safeParse(value);
  if (!read.success) throw new LunasError(read.error.issues[0]?.message ?? `${name} is not an amount`);
  // The parsed number's literal is the amount exactly, which normalizeMoney reads without a float.
  return normalizeMoney(read.data)!;
}

function checkTools(value: unknown, live: boolean, readOnly: boolean, spelled: OptionSpelling): McpToolName[] {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new LunasError(
      `${spelled.tools} must be a list of tool names, e.g. charges_create (got ${describeValue(value)})`,
    );
  }
  if (value.length === 0) throw new LunasError(`${spelled.tools} names no tool; leave it out to serve them all`);
  for (const name of value as string[]) {
    const tool = TOOLS.find((each) => each.name === name);
    if (tool === undefined) {
      const closest = closestNames(name, TOOL_NAMES);
      const hint =
        closest.length > 0 ? `did you mean "${closest.join('" or "')}"?` : `the tools are ${TOOL_NAMES.join(', ')}`;
      throw new LunasError(`Unknown tool ${describeValue(name)} in ${spelled.tools}: ${hint}`);
    }
    if (live && tool.sandboxOnly) {
      throw new LunasError(
        `${name} acts on a sandbox, and live mode serves no sandbox tool: take it out of ${spelled.tools}`,
      );
    }
    if (readOnly && !tool.readOnly) {
      throw new LunasError(
        `${name} changes things, and ${spelled.readOnly} serves only tools that read: take it out of ${spelled.tools}`,
      );
    }
  }
  // The table's order, each once: what tools/list shows does not depend on how the list was typed.
  return TOOL_NAMES.filter((name) => value.includes(name));
}

/** The service a server calls: its URL and key, from the options, else the mode's defaults. */
export interface Service {
  readonly baseURL: string;
  readonly apiKey: string;
}

/**
 * The service `settings` lead to. Live: the URL and key given, else
 * `LUNAS_BASE_URL` and `LUNAS_API_KEY`. Sandbox: the URL given, which must be
 * on this machine (a sandbox listens on loopback only), and the key given,
 * else the sandbox's default; the environment is not read, so a shell set up
 * for the live service never points a sandbox server at it.
 *
 * @throws {@link LunasError} when the URL or key is missing, or a sandbox's URL is not on this machine.
 */
export function serviceOf(settings: McpSettings, spelled: OptionSpelling = OPTION_NAMES): Service {
  if (settings.live) {
    const baseURL = settings.baseURL ?? readEnv('LUNAS_BASE_URL');
    const apiKey = settings.apiKey ?? readEnv('LUNAS_API_KEY');
    if (baseURL === undefined) {
      throw new LunasError(`Live mode needs the service's URL: pass ${spelled.baseURL} or set LUNAS_BASE_URL`);
    }
    if (apiKey === undefined) {
      throw new LunasError(`Live mode needs an API key: pass ${spelled.apiKey} or set LUNAS_API_KEY`);
    }
    return { baseURL, apiKey };
  }
  if (settings.baseURL === undefined) {
    throw new LunasError(
      `Without ${spelled.live}, the server serves a sandbox: pass ${spelled.baseURL}, the URL of one running on this ` +
        `machine (startSandbox() from lunas-sdk/testing, or the lunas-sandbox command), or ${spelled.live} for the live service`,
    );
  }
  const host = URL.canParse(settings.baseURL) ? new URL(settings.baseURL).hostname : undefined;
  if (host === undefined || !LOOPBACK.test(host)) {
    throw new LunasError(
      `Without ${spelled.live}, ${spelled.baseURL} must be a sandbox's, on this machine (127.0.0.1, localhost or [::1]); ` +
        `got ${describeValue(settings.baseURL)}. Pass ${spelled.live} to serve the live service, with its API key`,
    );
  }
  return { baseURL: settings.baseURL, apiKey: settings.apiKey ?? SANDBOX_KEY };
}

/**
 * A refusal with every form of `apiKey` masked in what it quotes (a URL given
 * where the key was meant, say), when `apiKey` can be a key at all.
 */
export function maskedRefusal(refusal: unknown, apiKey: unknown): unknown {
  return typeof apiKey === 'string' && apiKey.length >= MIN_KEY_LENGTH
    ? maskRefusal(refusal, new Secret(apiKey))
    : refusal;
}
