/**
 * What a test's fake service (an msw handler, a fake `fetch`) records of each
 * request it receives: one shape for every recorder.
 */

/** A request as a fake service received it. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The body as text ('' when there is none). */
  body: string;
  /** `Date.now()` when it arrived: fake under fake timers, so retry delays can be measured exactly. */
  at: number;
  /** The request's own signal: aborted when the client gives the request up. */
  signal: AbortSignal;
}

/** Records `request` without consuming its body, so it can still be answered from. */
export async function seeRequest(request: Request): Promise<SeenRequest> {
  return {
    method: request.method,
    url: new URL(request.url),
    headers: new Headers(request.headers),
    body: await request.clone().text(),
    at: Date.now(),
    signal: request.signal,
  };
}
