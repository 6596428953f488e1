/**
 * The control surface: the handle's helpers over HTTP under `/_sandbox/`,
 * for the `lunas-sandbox` subcommands and any process that did not start the
 * sandbox. Behind the same API key as the service (answered after its check),
 * on the same port, which listens on 127.0.0.1 only. Each answer is the
 * service's success envelope around exactly what the helper returns, as JSON;
 * the wait for webhooks answers when it ends (a deferred reply, transport/http.ts).
 * Faults never hit it and `sandbox.requests` does not record it: it is the
 * sandbox's own channel, not the service's traffic.
 */
import type { SandboxControls } from './controls.js';
import { DEFAULT_WEBHOOK_WAIT_MS } from '../defaults.js';
import { successEnvelope } from '../service/envelopes.js';
import { SandboxError } from '../errors.js';
import type { Fault } from '../transport/faults.js';
import { deferredReply, errorReply, type Reply } from '../transport/http.js';
import { checkOptionNames } from '../option-names.js';
import { decodeSegment, Router, type PathParams } from '../transport/router.js';
import type { RedeliverOptions } from '../webhooks/delivery-types.js';
import type { JsonBody } from '../service/json.js';
import { VERSION } from '../../version.js';

/** Where the control surface lives on the sandbox's port. */
const CONTROL_PREFIX = '/_sandbox/';

/** The header every control answer carries: the lunas-sdk version that served it. */
const VERSION_HEADER = 'lunas-sandbox-version';

/** A JSON object body, with its numbers' literals (money is read from them). */
type JsonObject = { ok: true; value: Record<string, unknown>; numberText: JsonBody['numberText'] };

/** A request's JSON object body, or the reply refusing it (the service's own reader). */
type ReadJsonObject = () => JsonObject | { ok: false; reply: Reply };

/** Answers at once, or later (a promise): the wait for webhooks. */
type ControlHandler = (
  controls: SandboxControls,
  params: PathParams,
  readBody: ReadJsonObject,
) => Reply | Promise<Reply>;

/** What a helper returned, as the answer's `data`. */
const answer = (data: unknown): Reply => ({ status: 200, body: successEnvelope(data ?? null) });

/** The id of `:id`; one that does not decode names nothing. */
const idOf = (params: PathParams): string => decodeSegment(params.id ?? '') ?? '';

/** A body whose names were checked, and the literal each of its numbers was sent as. */
type CheckedBody =
  | { ok: true; value: Record<string, unknown>; literalOf: (name: string) => string | undefined }
  | { ok: false; reply: Reply };

/** The JSON body when it names only `names` (the helper checks the values), or the reply refusing it. */
function bodyWith(readBody: ReadJsonObject, names: readonly string[]): CheckedBody {
  const body = readBody();
  if (!body.ok) return body;
  try {
    const value = checkOptionNames(body.value, names, 'The body must be a JSON object');
    return { ok: true, value, literalOf: (name) => body.numberText(body.value, name) };
  } catch (error) {
    return { ok: false, reply: errorReply(400, (error as Error).message) };
  }
}

/** A helper acting on the charge `:id`, with an empty body: 404 for an unknown charge, before acting. */
const onCharge =
  (act: (controls: SandboxControls, id: string) => unknown): ControlHandler =>
  (controls, params, readBody) => {
    const body = bodyWith(readBody, []);
    if (!body.ok) return body.reply;
    const id = idOf(params);
    if (!controls.has('charge', id)) return errorReply(404, `No charge with id ${JSON.stringify(id)}`);
    return answer(act(controls, id));
  };

/** The longest wait for webhooks one request may ask for: the connection is held that long at most. */
const MAX_WEBHOOK_WAIT_MS = 3_600_000;

/**
 * What another process needs to drive a sandbox fully, beside the helpers:
 * wait for the webhooks to settle, and arm or clear faults.
 */
const DRIVING_ROUTES: Record<string, ControlHandler> = {
  'POST /_sandbox/webhooks/wait': async (controls, _params, readBody) => {
    const body = bodyWith(readBody, ['timeoutMs']);
    if (!body.ok) return body.reply;
    const { timeoutMs = DEFAULT_WEBHOOK_WAIT_MS } = body.value;
    if (!(Number.isInteger(timeoutMs) && (timeoutMs as number) >= 0 && (timeoutMs as number) <= MAX_WEBHOOK_WAIT_MS)) {
      return errorReply(400, `timeoutMs must be an integer from 0 to ${MAX_WEBHOOK_WAIT_MS} (an hour)`);
    }
    return answer(await controls.waitForWebhooks(timeoutMs as number));
  },
  'POST /_sandbox/faults': (controls, _params, readBody) => {
    const body = readBody();
    if (!body.ok) return body.reply;
    // JSON has no Infinity (JSON.stringify writes null): the wire spells "until cleared" as the string.
    if (body.value.times === null) {
      return errorReply(
        400,
        'times must be a whole number of at least 1, or "Infinity" (JSON.stringify writes Infinity as null)',
      );
    }
    const fault = { ...body.value, ...(body.value.times === 'Infinity' ? { times: Infinity } : {}) } as Fault;
    controls.inject(fault);
    return answer({ ...fault, times: fault.times === Infinity ? 'Infinity' : (fault.times ?? 1) });
  },
  'POST /_sandbox/faults/clear': (controls, _params, readBody) => {
    const body = bodyWith(readBody, []);
    if (!body.ok) return body.reply;
    controls.clearFaults();
    return answer(null);
  },
};

const ROUTES = new Router<ControlHandler>({
  'POST /_sandbox/charges/:id/pay': onCharge((controls, id) => controls.payCharge(id)),
  'POST /_sandbox/charges/:id/fail': onCharge((controls, id) => controls.failCharge(id)),
  'POST /_sandbox/charges/:id/expire': onCharge((controls, id) => controls.expireCharge(id)),
  'POST /_sandbox/events/:id/redeliver': (controls, params, readBody) => {
    const body = bodyWith(readBody, ['times', 'concurrently']);
    if (!body.ok) return body.reply;
    const id = idOf(params);
    if (!controls.has('event', id)) {
      return errorReply(404, `No event ${JSON.stringify(id)} was recorded by this sandbox`);
    }
    return answer(controls.redeliver(id, body.value as RedeliverOptions));
  },
  'POST /_sandbox/clock/advance': (controls, _params, readBody) => {
    const body = bodyWith(readBody, ['ms']);
    if (!body.ok) return body.reply;
    if (!('ms' in body.value)) return errorReply(400, 'The body must name ms, the milliseconds to move the clock by');
    return answer(controls.advanceClock(body.value.ms as number));
  },
  'GET /_sandbox/clock': (controls) => answer({ now: controls.now() }),
  'GET /_sandbox/accounts': (controls) => answer(controls.accounts()),
  'POST /_sandbox/accounts': (controls, _params, readBody) => {
    const body = readBody();
    if (!body.ok) return body.reply;
    // `lunas-sandbox account add <id>` may leave the name out: the id names the account then.
    const account = 'name' in body.value ? body.value : { ...body.value, name: body.value.id };
    return answer(controls.addAccount(account, body.numberText(body.value, 'balance')));
  },
  'POST /_sandbox/accounts/:id/fund': (controls, params, readBody) => {
    const body = bodyWith(readBody, ['amount']);
    if (!body.ok) return body.reply;
    const id = idOf(params);
    if (!controls.has('account', id)) return errorReply(404, `No account with id ${JSON.stringify(id)}`);
    return answer(controls.fund(id, body.value.amount, body.literalOf('amount')));
  },
  'GET /_sandbox/charges': (controls) => answer(controls.charges()),
  'GET /_sandbox/events': (controls) => answer(controls.events()),
  'GET /_sandbox/deliveries': (controls) => answer(controls.deliveries()),
  'GET /_sandbox/transfers': (controls) => answer(controls.transfers()),
  'GET /_sandbox/balances/:id': (controls, params) => {
    const id = idOf(params);
    if (!controls.has('account', id)) return errorReply(404, `No account with id ${JSON.stringify(id)}`);
    return answer(controls.balance(id));
  },
  ...DRIVING_ROUTES,
});

/** Whether `path` (raw) is the control surface's rather than the service's. */
export const isControlPath = (path: string): boolean => path.startsWith(CONTROL_PREFIX);

/**
 * Answers a control request (an authorized one: the caller checked the key).
 * A helper's {@link SandboxError} is a `409` (the state refused it), its
 * `TypeError` a `400` (the input did). A wait's answer is a deferred reply.
 */
export function serveControl(method: string, path: string, controls: SandboxControls, readBody: ReadJsonObject): Reply {
  const route = ROUTES.match(method, path);
  if (route.kind === 'wrong-method') {
    return versioned(errorReply(405, 'Method not allowed', { allow: route.allow.join(', ') }));
  }
  if (route.kind === 'not-found') return versioned(errorReply(404, 'Not found'));
  let reply: Reply | Promise<Reply>;
  try {
    reply = route.handler(controls, route.params, readBody);
  } catch (error) {
    reply = refusal(error);
  }
  return reply instanceof Promise
    ? deferredReply(reply.then(versioned, (error) => versioned(refusal(error))))
    : versioned(reply);
}

/** A helper's refusal as the answer: its {@link SandboxError} a `409`, its `TypeError` a `400`; anything else is a bug. */
function refusal(error: unknown): Reply {
  if (error instanceof SandboxError) return errorReply(409, error.message);
  if (error instanceof TypeError) return errorReply(400, error.message);
  throw error;
}

const versioned = (reply: Reply): Reply => ({ ...reply, headers: { ...reply.headers, [VERSION_HEADER]: VERSION } });
