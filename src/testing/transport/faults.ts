import { checkOptionNames } from '../option-names.js';
import { isPlainObject } from '../service/rules.js';

/**
 * A fault makes the sandbox misbehave the way real infrastructure does, for a
 * given number of matching requests.
 *
 * `method` and `path` narrow which requests it hits (any, when omitted);
 * `every` hits one in that many of them (default 1, each); `times` is how
 * many it hits (default 1, `Infinity` until `clearFaults()`).
 *
 * | kind | what the client sees | request processed? |
 * |---|---|---|
 * | `status` | that status; `body` (default an `error` envelope) and `headers` | no |
 * | `html` | an HTML proxy error page, `text/html` (default 502) | no |
 * | `delay` | the normal answer, `ms` later | yes |
 * | `hang` | nothing, ever; the socket stays open | no |
 * | `drop` | the connection closed before processing | no |
 * | `lost-response` | the connection closed after processing | yes |
 * | `malformed` | truncated JSON, `application/json` (default 200) | no |
 *
 * @example
 * ```ts
 * sandbox.inject({ kind: 'status', status: 429, headers: { 'Retry-After': '1' } });
 * sandbox.inject({ kind: 'lost-response', method: 'POST', path: '/v1/transfers' });
 * sandbox.inject({ kind: 'status', status: 503, times: Infinity });
 * sandbox.inject({ kind: 'status', status: 429, path: '/v1/transfers', every: 10, times: Infinity });
 * ```
 * @category Testing
 */
export type Fault = FaultTarget & FaultKind;

/**
 * Which requests a fault hits and how many times.
 * @category Testing
 */
export interface FaultTarget {
  /** HTTP method, case-insensitive; any when omitted. */
  method?: string;
  /** Request path without the query string, matched exactly, e.g. `/v1/transfers`; any when omitted. */
  path?: string;
  /** How many matching requests it hits; default 1; `Infinity` until `clearFaults()`. */
  times?: number;
  /**
   * Hits one in `every` matching requests: the `every`-th from when it was
   * armed, then each `every`-th after it; the others pass it by (a fault
   * armed after it may hit them). Default 1, every matching request. With
   * `times: Infinity`, `every: 10` answers a tenth of the matching requests.
   */
  every?: number;
}

/**
 * What a fault does.
 * @category Testing
 */
export type FaultKind =
  | {
      /** Answer with `status`, without processing the request. */
      kind: 'status';
      /** The HTTP status, 200 to 599. */
      status: number;
      /** Sent as is (a string) or as JSON (an object); default an `error` envelope. */
      body?: string | object;
      /** Extra response headers, e.g. `Retry-After`; they may override `content-type`. */
      headers?: Record<string, string>;
    }
  | {
      /** Answer with a proxy's HTML error page, without processing the request. */
      kind: 'html';
      /** The HTTP status; default 502. */
      status?: number;
    }
  | {
      /** Process the request and answer normally, `ms` later. */
      kind: 'delay';
      /** The delay in milliseconds. */
      ms: number;
    }
  | {
      /** Never answer; the socket stays open. */
      kind: 'hang';
    }
  | {
      /** Close the connection before processing the request. */
      kind: 'drop';
    }
  | {
      /** Process the request, then close the connection without an answer. */
      kind: 'lost-response';
    }
  | {
      /** Answer with truncated JSON, without processing the request. */
      kind: 'malformed';
      /** The HTTP status; default 200. */
      status?: number;
    };

/** The longest a timer can wait in Node. */
const MAX_DELAY_MS = 2_147_483_647;

/** Each kind's own fields, beside `kind` and the target's (`method`, `path`, `times`, `every`); the command's `fault` reads them too. */
export const KIND_FIELDS: Readonly<Record<FaultKind['kind'], readonly string[]>> = {
  status: ['status', 'body', 'headers'],
  html: ['status'],
  delay: ['ms'],
  hang: [],
  drop: [],
  'lost-response': [],
  malformed: ['status'],
};

const KINDS: ReadonlySet<string> = new Set(Object.keys(KIND_FIELDS));

/** A header name as HTTP allows it (RFC 9110's token): another would break the answer it is sent with. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value both transports can send: tab and Latin-1 text, no other control character. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function assertStatus(status: unknown, kind: string): void {
  if (status !== undefined && !(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)) {
    throw new TypeError(`Fault ${kind}: status must be an integer from 200 to 599`);
  }
}

/** `method` and `path` are matched as text: anything else would fail on the request it meets, not here. */
function assertTarget({ method, path }: FaultTarget): void {
  if (method !== undefined && !(typeof method === 'string' && HEADER_NAME.test(method))) {
    throw new TypeError('Fault method must be an HTTP method such as "POST"');
  }
  if (path !== undefined && !(typeof path === 'string' && path.startsWith('/'))) {
    throw new TypeError('Fault path must be a string starting with "/", such as "/v1/transfers"');
  }
}

/** A status fault's headers must be sendable: names that are tokens, values of Latin-1 text without control characters. */
function assertHeaders(headers: unknown): void {
  if (headers === undefined) return;
  const entries = isPlainObject(headers) ? Object.entries(headers) : undefined;
  const sendable = entries?.every(
    ([name, value]) => HEADER_NAME.test(name) && typeof value === 'string' && HEADER_VALUE.test(value),
  );
  if (!sendable) {
    throw new TypeError(
      'Fault status: headers must be an object of header names to Latin-1 text without control characters, ' +
        'e.g. { "Retry-After": "1" }',
    );
  }
}

/** Throws a `TypeError` naming the problem when `fault` cannot be armed. */
function assertFault(fault: Fault): void {
  if (!isPlainObject(fault) || !KINDS.has(fault.kind)) {
    throw new TypeError(`Fault kind must be one of: ${[...KINDS].join(', ')}`);
  }
  // A misspelt field (`stauts`, `time`) would otherwise be ignored and the fault armed without it.
  const fields = ['kind', 'method', 'path', 'times', 'every', ...KIND_FIELDS[fault.kind]];
  checkOptionNames(fault, fields, 'A fault must be an object', `${fault.kind} fault field`);
  assertTarget(fault);
  const times = fault.times === undefined ? 1 : fault.times;
  if (!(times === Infinity || (Number.isInteger(times) && times >= 1))) {
    throw new TypeError('Fault times must be a positive integer or Infinity');
  }
  const { every } = fault;
  if (every !== undefined && !(Number.isSafeInteger(every) && every >= 1)) {
    throw new TypeError('Fault every must be a positive integer: 10 hits one in ten matching requests');
  }
  if (fault.kind === 'status') {
    if (fault.status === undefined) throw new TypeError('Fault status: status is required');
    assertStatus(fault.status, fault.kind);
    const { body } = fault as { body?: unknown };
    if (body !== undefined && typeof body !== 'string' && (typeof body !== 'object' || body === null)) {
      throw new TypeError('Fault status: body must be a string (sent as is) or an object (sent as JSON)');
    }
    assertHeaders(fault.headers);
  }
  if (fault.kind === 'html' || fault.kind === 'malformed') assertStatus(fault.status, fault.kind);
  if (fault.kind === 'delay' && !(Number.isFinite(fault.ms) && fault.ms >= 0 && fault.ms <= MAX_DELAY_MS)) {
    throw new TypeError(`Fault delay: ms must be a number from 0 to ${MAX_DELAY_MS}`);
  }
}

/** Armed faults, matched in the order armed. */
export class FaultQueue {
  /** `matched` counts the requests that matched it, hit or passed by (`every`). */
  #armed: { fault: Fault; remaining: number; matched: number }[] = [];

  /** Arms a copy of `fault`; throws a `TypeError` when it is invalid. */
  arm(fault: Fault): void {
    assertFault(fault);
    this.#armed.push({ fault: { ...fault }, remaining: fault.times ?? 1, matched: 0 });
  }

  /** Disarms every fault. */
  clear(): void {
    this.#armed = [];
  }

  /**
   * The first armed fault that hits the request, consuming one of its hits: it
   * matches the request and, with `every`, this is its turn; a fault whose
   * turn it is not counts the request and lets the next fault have it.
   */
  take(method: string, path: string): Fault | undefined {
    const index = this.#armed.findIndex((entry) => {
      const { fault } = entry;
      const matches =
        (fault.method === undefined || fault.method.toUpperCase() === method.toUpperCase()) &&
        (fault.path === undefined || fault.path === path);
      if (!matches) return false;
      entry.matched += 1;
      return entry.matched % (fault.every ?? 1) === 0;
    });
    const entry = this.#armed[index];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#armed.splice(index, 1);
    return entry.fault;
  }
}
