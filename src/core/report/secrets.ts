/**
 * Keeping the API key out of everything lunas shows: text is masked in every
 * form the key can take in a URL or a JSON body, and a value thrown by code
 * lunas did not write (a custom `fetch`) is rebuilt from safe parts only.
 */
import { addFieldMessages, type FieldErrors, LunasError, RequestValidationError } from './errors.js';

const MASK = '[REDACTED]';
/** What a quote cut short ends with (describe-value.ts). */
const CUT = '…';
/**
 * The fewest of the key's first characters a cut quote must show to be masked:
 * fewer are no key (the prefix keys share is no secret), and a cut text that
 * merely ends as the key begins keeps its words.
 */
const MIN_CUT_PREFIX = 8;

/**
 * The shortest API key lunas takes. Masking replaces the key wherever it
 * stands, glued to other text included (after `%2F` in an encoded URL, after
 * `\n` in a JSON string), which is what keeps it from leaking; so the key must
 * be too long to be ordinary text. Below 12 characters a key is a word or a
 * placeholder (`k`, `test`, `changeme`), which masking would cut out of
 * lunas's own messages ("Un[REDACTED]nown option"), and too short to be a
 * secret that no one can guess; the shortest lunas documents, the sandbox's
 * `sk_test_sandbox`, has 15.
 */
export const MIN_KEY_LENGTH = 12;

/** How deep a foreign cause chain is followed: enough for fetch's own two levels, and bounded. */
const MAX_CAUSES = 4;

/**
 * The API key and one matcher for all its forms, built once per client from
 * a key the client checked ({@link MIN_KEY_LENGTH}+ printable ASCII characters). The key sits in
 * private fields: a `Secret` prints and serialises as `{}`.
 */
export class Secret {
  readonly #key: string;
  /** Each character as itself, `%XX` (either case, once or twice encoded) or a JSON escape. */
  readonly #forms: RegExp;

  constructor(key: string) {
    this.#key = key;
    this.#forms = new RegExp(keyPieces(key).join(''), 'g');
  }

  /** `text` with every form of the key replaced by `[REDACTED]`. */
  mask(text: string): string {
    // Only `%` and `\` start an encoded character: text without either can hold the
    // literal key alone, and skips the slower expression (most bodies and URLs).
    if (!text.includes('%') && !text.includes('\\'))
      return text.includes(this.#key) ? text.replaceAll(this.#key, MASK) : text;
    return text.replace(this.#forms, MASK);
  }

  /**
   * Whether `text` holds the key in any form {@link mask} replaces: what a
   * request's parameters are refused for (request.ts), so what lunas refuses
   * to send and what it masks are one set.
   */
  holds(text: string): boolean {
    if (!text.includes('%') && !text.includes('\\')) return text.includes(this.#key);
    // `search` ignores the global expression's lastIndex: no state carried between calls.
    return text.search(this.#forms) !== -1;
  }

  /**
   * `text` masked as {@link mask} does, and also where a message quoted a
   * string of the caller's holding the key and cut it short (describe-value.ts
   * shows 40 characters, then `…`): the key's first characters, eight or more,
   * right before the `…`. For refusals only, which quote the caller's input.
   */
  maskQuoted(text: string): string {
    const masked = this.mask(text);
    const pieces = keyPieces(this.#key);
    if (!masked.includes(CUT) || pieces.length <= MIN_CUT_PREFIX) return masked;
    const rest = pieces.slice(MIN_CUT_PREFIX).reduceRight((after, piece) => `(?:${piece}${after})?`, '');
    const cut = new RegExp(`${pieces.slice(0, MIN_CUT_PREFIX).join('')}${rest}${CUT}`, 'g');
    return masked.replace(cut, `${MASK}${CUT}`);
  }
}

/**
 * The key as a list of pieces, each matching one character (or one run of
 * backslashes with the `/` or `"` after it) in any of its forms.
 */
function keyPieces(key: string): string[] {
  return (key.match(/\\+[/"]?|[^\\]/g) ?? []).map((piece) => {
    if (piece[0] !== '\\') return charForms(piece);
    // A run of backslashes, and the `/` or `"` after it, is one choice: raw, JSON-escaped
    // (each backslash doubled) or encoded. As a choice per character, `\\/` read as `\\`
    // then `/` or as `\` then `\/` gave a hostile body exponential backtracking.
    const r = piece.replace(/[/"]$/, '').length;
    const last = piece.slice(r);
    const after = last && charForms(last);
    return `(?:\\\\{${2 * r}}${after}|\\\\{${r}}${last}|(?:%(?:25)?5[cC]|\\\\u005[cC]){${r}}${after})`;
  });
}

/**
 * A character of the key (printable ASCII, checked at construction) as a URL
 * or a JSON text may carry it. Twice-encoded (`%252B`) covers a value the
 * caller encoded before the query builder did. No `+` for a space: a key has
 * no space, and lunas sends a `+` of the key as `%2B` in a query, which a
 * form decoder reads back as `+`.
 */
function charForms(char: string): string {
  const hex = char.charCodeAt(0).toString(16).padStart(2, '0');
  const anyCase = hex.replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
  const forms = [char.replace(/[\\^$.*+?()[\]{}|/-]/, '\\$&'), `%(?:25)?${anyCase}`, `\\\\u00${anyCase}`];
  // JSON's short escapes of the printable characters other than `\` (a run of its own).
  if (char === '/' || char === '"') forms.push(`\\\\\\${char}`);
  return `(?:${forms.join('|')})`;
}

/** Replaces every form of the key in `text`. */
export function redact(text: string, secret: Secret): string {
  return secret.mask(text);
}

/** The response headers, with any echo of the key masked (a debugging proxy may reflect Authorization). */
export function withoutSecret(headers: Headers, secret: Secret): Headers {
  let echoed = false;
  headers.forEach((value) => (echoed ||= secret.mask(value) !== value));
  if (!echoed) return headers;
  const masked = new Headers();
  headers.forEach((value, name) => masked.append(name, secret.mask(value)));
  return masked;
}

/**
 * A fresh `Error` holding only what is safe to keep of a value lunas did not
 * throw: its `name`, its `message` (masked), a string or number `code`, and
 * its `cause` reduced the same way. Never the value itself nor its other
 * properties: an HTTP client's error may carry the `Request`, its `Headers` or
 * an axios-style `config`, with the key in `authorization`. Reading is guarded
 * too: a thrown Proxy, getter or `null`-prototype object cannot break it.
 */
export function foreignError(thrown: unknown, secret?: Secret, seen: unknown[] = []): Error {
  const mask = (text: string) => secret?.mask(text) ?? text;
  // Undefined when absent or unreadable: a throwing getter, a Proxy, `null`.
  const read = (key: string): unknown => {
    try {
      return (thrown as Record<string, unknown>)[key];
    } catch {
      return undefined;
    }
  };
  const text = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? mask(String(value)) : undefined;
  seen.push(thrown);
  const cause = read('cause');
  const error = new Error(
    text(read('message')) ??
      // An object (a Proxy included) is never turned into a string: its toString is not ours to call.
      (Object(thrown) === thrown ? 'a thrown object without a message' : mask(String(thrown))),
    cause === undefined || seen.length > MAX_CAUSES || seen.includes(cause)
      ? undefined
      : { cause: foreignError(cause, secret, seen) },
  );
  // V8 wrote the stack's `Error:` header at construction: `util.inspect` shows `Error [TypeError]`, a copy.
  const name = text(read('name'));
  if (name) Object.defineProperty(error, 'name', { value: name, configurable: true, writable: true });
  const code = read('code');
  if (typeof code === 'number') Object.assign(error, { code });
  else if (typeof code === 'string') Object.assign(error, { code: mask(code) });
  return error;
}

/**
 * One line for a message: the error's message and its causes', or its code
 * where a message is empty (Node's `AggregateError` of a refused connection).
 */
export function describeError(error: Error): string {
  const parts: unknown[] = [];
  for (let each: unknown = error; each instanceof Error; each = each.cause)
    parts.push(each.message || (each as { code?: unknown }).code);
  return parts.filter(Boolean).join(': ');
}

/**
 * A refusal lunas threw before sending, with every form of the key masked in
 * what it quotes of the caller's input: the names of options, fields and
 * headers, quoted to point at a typo, and values such as a `since` time.
 * Rebuilt, not edited: V8 wrote the message into the stack at construction.
 * Anything else is returned as it is.
 */
export function maskRefusal(error: unknown, secret: Secret | undefined): unknown {
  // A RequestValidationError's message quotes every field name and message it holds.
  if (secret === undefined || !(error instanceof LunasError) || secret.maskQuoted(error.message) === error.message) {
    return error;
  }
  if (error instanceof RequestValidationError) {
    const fields: FieldErrors = {};
    for (const [name, messages] of Object.entries(error.fields)) {
      addFieldMessages(
        fields,
        secret.maskQuoted(name),
        messages.map((message) => secret.maskQuoted(message)),
      );
    }
    return new RequestValidationError(fields);
  }
  // Only lunas's plain refusals: a subclass carries more than a message, and is built masked.
  return error.constructor === LunasError
    ? new LunasError(secret.maskQuoted(error.message), { idempotencyKey: error.idempotencyKey })
    : error;
}
