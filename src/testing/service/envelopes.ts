/**
 * The service's envelopes, as merchants' mocks return them: `success` (one
 * object or a page of a list), `fail` (field messages, or one message) and
 * `error`.
 */

/** The service's answer to a call that succeeded. @category Testing */
export interface SuccessEnvelope<T> {
  /** Always `success`. */
  status: 'success';
  /** The object, or a list's items. */
  data: T;
}

/** One page of a list, as the service sends it. @category Testing */
export interface ListPageEnvelope<T> extends SuccessEnvelope<T[]> {
  /** The page number, 1-based. */
  page: number;
  /** The page size applied. */
  page_size: number;
  /** The items across all pages. */
  total_items: number;
}

/** A `fail` envelope's data when it carries one message rather than fields. @category Testing */
export interface FailMessage {
  /** What failed, e.g. `Charge not found`. */
  message: string;
}

/** The service's answer to a request it refused (400, 404). @category Testing */
export interface FailEnvelope {
  /** Always `fail`. */
  status: 'fail';
  /** Field names (dotted for nested fields) to messages, or one message. */
  data: Record<string, string[]> | FailMessage;
}

/** The service's answer to a call that failed on its side (5xx). @category Testing */
export interface ErrorEnvelope {
  /** Always `error`. */
  status: 'error';
  /** What went wrong. */
  message: string;
}

/** `{ status: 'success', data }`: the answer of a create or a retrieve. @category Testing */
export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { status: 'success', data };
}

/** A list's paging fields; each defaults from the items given (page 1, one page holding them all). @category Testing */
export interface PageFields {
  /** The page number, 1-based. Default 1. */
  page?: number;
  /** The page size applied. Default: the number of items, at least 1. */
  page_size?: number;
  /** The items across all pages. Default: the number of items. */
  total_items?: number;
}

/**
 * One page of a list: `{ status: 'success', data, page, page_size, total_items }`.
 *
 * @example
 * ```ts
 * HttpResponse.json(pageEnvelope([fakeCharge(), fakeCharge()], { page_size: 10 }));
 * ```
 * @throws `TypeError` when `data` is not an array, or `page`, `page_size` or `total_items` is not a non-negative integer.
 * @category Testing
 */
export function pageEnvelope<T>(data: T[], fields: PageFields = {}): ListPageEnvelope<T> {
  if (!Array.isArray(data)) throw new TypeError('A page envelope takes an array of items');
  const { page = 1, page_size = Math.max(data.length, 1), total_items = data.length } = fields;
  for (const [name, value] of Object.entries({ page, page_size, total_items })) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`The ${name} of a page must be an integer`);
  }
  return { status: 'success', data, page, page_size, total_items };
}

/**
 * A validation failure, as a 400 carries it: a field map (`{ amount:
 * 'Amount must be greater than 0' }`; a string becomes a list of one), or one
 * message (`'Charge not found'`, as a 404 carries it).
 *
 * @example
 * ```ts
 * HttpResponse.json(failEnvelope({ 'customer_details.email': 'Invalid email format' }), { status: 400 });
 * ```
 * @throws `TypeError` when `fields` is neither a string nor a map, or a field's messages are not a string or an array of strings.
 * @category Testing
 */
export function failEnvelope(fields: Record<string, string | string[]> | string): FailEnvelope {
  if (typeof fields === 'string') return { status: 'fail', data: { message: fields } };
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new TypeError('A fail envelope takes a map of field names to messages, or one message');
  }
  const entries = Object.entries(fields).map(([name, messages]): [string, string[]] => {
    const list: unknown = typeof messages === 'string' ? [messages] : messages;
    if (!Array.isArray(list) || !list.every((message) => typeof message === 'string')) {
      throw new TypeError(`The messages of ${JSON.stringify(name)} must be a string or an array of strings`);
    }
    return [name, [...(list as string[])]];
  });
  // fromEntries: a field named __proto__ stays a field.
  return { status: 'fail', data: Object.fromEntries(entries) };
}

/**
 * `{ status: 'error', message }`: a server-side failure, as a 5xx carries it.
 *
 * @throws `TypeError` when `message` is not a string.
 * @category Testing
 */
export function errorEnvelope(message: string): ErrorEnvelope {
  if (typeof message !== 'string') throw new TypeError('An error envelope takes a message string');
  return { status: 'error', message };
}
