/**
 * The subcommands' side of the control surface (`/_sandbox/…`,
 * control/control-routes.ts): which sandbox, with which key, and one call to
 * it with plain `fetch`. Only a loopback URL is accepted: the call carries
 * the API key, and a sandbox only ever listens on 127.0.0.1.
 */
import { DEFAULT_API_KEY } from '../defaults.js';
import { UsageError } from './command-line.js';

/** The sandbox refused, could not be reached, or did not get what was asked (a wait timed out): exit 1. */
export class CommandFailure extends Error {}

/** How long a call may take beyond its own wait: the control surface answers at once. */
const ANSWER_TIMEOUT_MS = 15_000;

/** The host names a sandbox answers at (transport/server.ts refuses any other `Host`). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The variables the subcommands read: the sandbox's URL and key, as the SDK reads them. */
export interface SandboxEnv {
  LUNAS_BASE_URL?: string | undefined;
  LUNAS_API_KEY?: string | undefined;
}

/** One control request: a GET without `body`, else a POST of it as JSON. */
export interface ControlRequest {
  /** Under `/_sandbox/`, segments encoded. */
  path: string;
  body?: unknown;
  /** How long the sandbox may take on purpose before it answers (a wait): added to the answer's timeout. */
  waitMs?: number;
}

/** A running sandbox found from `--url`/`--api-key`, or the environment. */
export interface SandboxAddress {
  origin: string;
  apiKey: string;
}

/** The sandbox's origin (loopback http(s) only) and key, from the flags or else the environment. */
export function sandboxAddress(url: string | undefined, apiKey: string | undefined, env: SandboxEnv): SandboxAddress {
  const text = url ?? env.LUNAS_BASE_URL;
  if (text === undefined || text === '') {
    throw new UsageError('which sandbox? Pass its URL with --url (or set LUNAS_BASE_URL), e.g. http://127.0.0.1:4010');
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new UsageError(`--url must be an absolute URL like http://127.0.0.1:4010, not ${JSON.stringify(text)}`);
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || !LOOPBACK_HOSTS.has(parsed.hostname)) {
    // The origin only: the rest may hold credentials.
    throw new UsageError(
      `--url must name a sandbox on this machine (127.0.0.1, localhost or [::1]), not ${parsed.protocol}//${parsed.host}: ` +
        'the subcommands send the API key, and a sandbox listens on loopback only',
    );
  }
  return { origin: parsed.origin, apiKey: apiKey ?? (env.LUNAS_API_KEY || DEFAULT_API_KEY) };
}

/** What the control surface answered: its `data`, or a {@link CommandFailure} (a {@link UsageError} for a 400) saying why not. */
export async function callSandbox({ origin, apiKey }: SandboxAddress, request: ControlRequest): Promise<unknown> {
  const { path, body, waitMs = 0 } = request;
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${origin}/_sandbox/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(waitMs + ANSWER_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    throw new CommandFailure(unreachable(origin, error));
  }
  let envelope: { status?: unknown; data?: unknown; message?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  if (response.status === 401) {
    throw new CommandFailure(
      `the sandbox at ${origin} refused the API key (HTTP 401): pass the key it printed with --api-key or LUNAS_API_KEY`,
    );
  }
  if (!response.headers.has('lunas-sandbox-version') || typeof envelope !== 'object' || envelope === null) {
    throw new CommandFailure(`the server at ${origin} is not a lunas sandbox (HTTP ${response.status})`);
  }
  if (response.ok) return envelope.data;
  const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${response.status}`;
  // The sandbox says the input was wrong: a usage error, as when the command line checks it.
  if (response.status === 400) throw new UsageError(message);
  throw new CommandFailure(message);
}

/** Why no answer came: nothing listening, the connection cut (the sandbox stopped), or no answer in time. */
function unreachable(origin: string, error: unknown): string {
  // fetch's own message is only "fetch failed": the reason (ECONNREFUSED, "bad port") is its cause's.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause?.code === 'UND_ERR_SOCKET') {
    return `the sandbox at ${origin} closed the connection before answering: it was stopped, or is stopping`;
  }
  if ((error as Error).name === 'TimeoutError') return `the sandbox at ${origin} did not answer in time`;
  const reason = String(cause?.code ?? cause?.message ?? (error as Error).message);
  return (
    `no sandbox answered at ${origin} (${reason}): start one with \`npx lunas-sandbox\` ` +
    'and pass the URL it prints with --url or LUNAS_BASE_URL'
  );
}
