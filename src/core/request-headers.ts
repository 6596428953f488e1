/**
 * The headers a call sends, as one plain record: ky copies whatever it is
 * given into a `Headers`, so building our own first would cost a second copy.
 */

/** The headers of every call of a client, built once: SDK defaults, the client's, then auth. */
export function clientHeaders(
  apiKey: string,
  userAgent: string,
  defaults: Record<string, string>,
): Record<string, string> {
  return lowerCased({ accept: 'application/json', 'user-agent': userAgent }, defaults, {
    authorization: `Bearer ${apiKey}`,
  });
}

/**
 * One call's headers: the client's, copied only when the call adds to them.
 * Later sources win, whatever the case of the names: client, call, then auth.
 */
export function callHeaders(
  base: Record<string, string>,
  extra: Record<string, string> | undefined,
  idempotencyKey: string | undefined,
  json: boolean,
): Record<string, string> {
  if (extra === undefined && idempotencyKey === undefined && !json) return base;
  const headers = lowerCased(base, extra);
  // Neither can come from `extra` (checked), but they always win.
  headers.authorization = base.authorization!;
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  if (json) headers['content-type'] = 'application/json';
  return headers;
}

/** One record from several, names lower-cased so a later source replaces an earlier one in any case. */
function lowerCased(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const source of sources)
    if (source) for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
  return merged;
}
