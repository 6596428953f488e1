/**
 * The headers a call sends, as one plain record: ky copies whatever it is
 * given into a `Headers`, so building our own first would cost a second copy.
 */

/** What the headers of every call of a client are built from. */
export interface HeaderSources {
  apiKey: string;
  userAgent: string;
  /** The client's `defaultHeaders`, already checked. */
  defaultHeaders: Record<string, string>;
}

/** A client's headers: built once, copied only for a call that adds to them. */
export class RequestHeaders {
  readonly #base: Record<string, string>;

  constructor({ apiKey, userAgent, defaultHeaders }: HeaderSources) {
    this.#base = lowerCased({ accept: 'application/json', 'user-agent': userAgent }, defaultHeaders, {
      authorization: `Bearer ${apiKey}`,
    });
  }

  /** Later sources win, whatever the case of the names: SDK defaults, client, call, then auth. */
  forCall(
    extra: Record<string, string> | undefined,
    idempotencyKey: string | undefined,
    json: boolean,
  ): Record<string, string> {
    const base = this.#base;
    if (extra === undefined && idempotencyKey === undefined && !json) return base;
    const headers = lowerCased(base, extra);
    // Neither can come from `extra` (checked), but they always win.
    headers.authorization = base.authorization!;
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    if (json) headers['content-type'] = 'application/json';
    return headers;
  }
}

/** One record from several, names lower-cased so a later source replaces an earlier one in any case. */
function lowerCased(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of sources)
    if (source) for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
  return merged;
}
