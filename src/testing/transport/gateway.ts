/**
 * What stands in front of the service, whatever carries the request: each
 * request is recorded, an armed fault acts the way the infrastructure in front
 * of a real service would, and the rest goes to the service. The two transports
 * (node:http in `server.ts`, `fetch` in `in-process.ts`) only translate.
 */
import { isControlPath } from '../control/control-routes.js';
import { equalInConstantTime } from './constant-time.js';
import { errorEnvelope } from '../service/envelopes.js';
import type { Fault, FaultQueue } from './faults.js';
import type { RequestSite } from '../pages/form-token.js';
import { BODY_LIMIT, errorReply, splitTarget, toWire, type WireResponse } from './http.js';
import type { IdSource } from '../service/ids.js';
import { serve, type ServiceState } from '../service/routes.js';
import { Sleeps } from './sleeps.js';
import type { RecordedRequest } from '../types.js';

/** A request as it arrives, before its body is read. */
interface ArrivingRequest {
  method: string;
  /** The raw target: path and query, as sent. */
  target: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** The W3C trace context headers, recorded as sent. */
  traceparent: string | undefined;
  tracestate: string | undefined;
  contentType: string | undefined;
  /** The origin it was addressed to and the browser's headers about where it came from. */
  site: RequestSite;
}

/** What a transport does for the gateway with one request. */
export interface Connection {
  /** The body, or `'too-large'` past `limit` bytes; rejects when the client went away. */
  readBody(limit: number): Promise<Uint8Array | 'too-large'>;
  /** Answers; called at most once. */
  respond(response: WireResponse): void;
  /** Ends the exchange without an answer, as a closed connection does. */
  cut(): void;
}

/** What the gateway serves with: the key it accepts, the service's state, faults, the request log. */
interface GatewayOptions {
  apiKey: string;
  ids: IdSource;
  state: ServiceState;
  faults: FaultQueue;
  /** Where each request is recorded (a log that keeps the newest). */
  requests: { push(request: RecordedRequest): void };
}

/** What a `malformed` fault answers: JSON cut off mid-value. */
const TRUNCATED_JSON = '{"status":"succ';

/** The reason phrases a proxy's error page shows; another status shows `Error`. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function proxyErrorPage(status: number): WireResponse {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  const text = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  return { status, headers: { 'content-type': 'text/html' }, text };
}

/** One sandbox's front door, shared by whichever transport serves it. */
export class Gateway {
  readonly #options: GatewayOptions;
  /** Pending `delay` faults, released unprocessed when the sandbox closes. */
  readonly #delays = new Sleeps();

  constructor(options: GatewayOptions) {
    this.#options = options;
  }

  /** Serves one request through `connection`; never rejects (a failure answers 500, or cuts). */
  async handle(request: ArrivingRequest, connection: Connection): Promise<void> {
    let responded = false;
    const respond = (response: WireResponse): void => {
      responded = true;
      connection.respond(response);
    };
    try {
      await this.#handle(request, { ...connection, respond });
    } catch {
      if (responded) connection.cut();
      else connection.respond(toWire(errorReply(500, 'Internal sandbox error'), undefined));
    }
  }

  /** The sandbox is closing: pending `delay` faults end unprocessed, and later ones at once. */
  close(): void {
    this.#delays.stop();
  }

  /** Compared in constant time: how long a wrong key takes says nothing of how much of it was right. */
  #isAuthorized(header: string | undefined): boolean {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    return match !== null && equalInConstantTime(match[1] as string, this.#options.apiKey);
  }

  async #handle(request: ArrivingRequest, connection: Connection): Promise<void> {
    const { faults, requests, state, ids } = this.#options;
    const requestId = ids.next('req_');
    const { method } = request;
    const { path, query } = splitTarget(request.target);
    const idempotencyKey = request.idempotencyKey || undefined;
    const authorized = this.#isAuthorized(request.authorization);
    // The control surface is the sandbox's own channel: not the service's traffic, so neither recorded nor faulted.
    const control = isControlPath(path);
    if (!control) {
      const { traceparent, tracestate } = request;
      requests.push({
        method,
        path,
        query,
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(traceparent ? { traceparent } : {}),
        ...(tracestate ? { tracestate } : {}),
        authorized,
        at: new Date(),
      });
    }

    const fault = control ? undefined : faults.take(method, path);
    if (fault && this.#answeredByFault(fault, connection, requestId)) return;

    let body: Uint8Array | 'too-large';
    try {
      body = await connection.readBody(BODY_LIMIT);
    } catch {
      return; // The client went away mid-body: there is nothing to process.
    }
    if (fault?.kind === 'delay' && !(await this.#delays.sleep(fault.ms))) return;

    const served = serve(
      { method, path, query, contentType: request.contentType, idempotencyKey, authorized, body, site: request.site },
      state,
    );
    // Only a control answer waits (no fault hits those): a service reply is sent in the turn it was decided.
    const reply = served.later === undefined ? served : await served.later;
    if (fault?.kind === 'lost-response') {
      connection.cut();
      return;
    }
    connection.respond(toWire(reply, requestId));
  }

  /** Applies the faults that stand in front of the service; true when the request is finished with. */
  #answeredByFault(fault: Fault, connection: Connection, requestId: string): boolean {
    switch (fault.kind) {
      case 'status': {
        const body = fault.body ?? errorEnvelope(`Injected fault: HTTP ${fault.status}`);
        connection.respond(
          toWire({ status: fault.status, body, ...(fault.headers ? { headers: fault.headers } : {}) }, requestId),
        );
        return true;
      }
      case 'html':
        connection.respond(proxyErrorPage(fault.status ?? 502));
        return true;
      case 'malformed':
        connection.respond(toWire({ status: fault.status ?? 200, body: TRUNCATED_JSON }, requestId));
        return true;
      case 'hang':
        return true; // Never answered: the transport keeps the exchange open until the client leaves or close().
      case 'drop':
        connection.cut();
        return true;
      case 'delay':
      case 'lost-response':
        return false;
    }
  }
}
