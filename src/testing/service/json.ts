/**
 * A request body's JSON, read the way `JSON.parse` reads it (same values, same
 * refusals), that also keeps each number's literal as sent. Money must be read
 * from those digits: `JSON.parse` turns `9007199254740993` into ...992 and
 * `100.0000000000000001` into 100, and Node.js 20 has no way to see the source
 * text behind a parsed number. Plain code with no Node.js API, so the sandbox
 * reads bodies the same way in process, on Bun, Deno and Workers.
 */

/** A parsed body, and the literal each of its numbers was written as. */
export interface JsonBody {
  /** What `JSON.parse` gives for the same text. */
  value: unknown;
  /**
   * The literal of the number at `holder[key]` as sent (`"1.50e3"`), or
   * undefined when that member is not a number. `holder` is an object or
   * array of `value`; an array's key is the index as a string.
   */
  numberText(holder: object, key: string): string | undefined;
}

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/**
 * A run of string characters that need no decoding: code units from U+0020
 * up, but for the quote and the backslash (JSON forbids control characters).
 */
const PLAIN = /[ !#-[\]-\uffff]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** An object or array being filled, and the key its next member goes to. */
interface Open {
  holder: Record<string, unknown> | unknown[];
  key: string;
}

/**
 * Reads JSON text as `JSON.parse` does: strict RFC 8259, a repeated name's
 * last value kept in its first place, `__proto__` an ordinary member. Depth is
 * held on a heap stack, so any nesting that fits in memory is read.
 * @throws `SyntaxError` where `JSON.parse` would throw.
 */
export function readJson(text: string): JsonBody {
  const literals = new WeakMap<object, Map<string, string>>();
  const stack: Open[] = [];
  let at = 0;

  const fail = (): never => {
    throw new SyntaxError(`Invalid JSON at position ${at}`);
  };
  const skipWhitespace = () => {
    WHITESPACE.lastIndex = at;
    WHITESPACE.test(text);
    at = WHITESPACE.lastIndex;
  };
  const readString = (): string => {
    if (text[at] !== '"') fail();
    at++;
    let result = '';
    for (;;) {
      PLAIN.lastIndex = at;
      PLAIN.test(text);
      result += text.slice(at, PLAIN.lastIndex);
      at = PLAIN.lastIndex;
      const char = text[at];
      if (char === '"') {
        at++;
        return result;
      }
      if (char !== '\\') return fail(); // A control character, or the end of the text.
      const escape = text[at + 1] ?? '';
      if (escape === 'u') {
        const hex = text.slice(at + 2, at + 6);
        if (!/^[\da-fA-F]{4}$/.test(hex)) fail();
        result += String.fromCharCode(Number.parseInt(hex, 16));
        at += 6;
      } else {
        const decoded = ESCAPES[escape];
        if (decoded === undefined) fail();
        result += decoded;
        at += 2;
      }
    }
  };
  /** Opens the member `key` of `holder`: the next value read goes there. */
  const openMember = (holder: Record<string, unknown>) => {
    skipWhitespace();
    const key = readString();
    skipWhitespace();
    if (text[at] !== ':') fail();
    at++;
    stack.push({ holder, key });
  };

  let root: unknown;
  for (;;) {
    // One value, or the opening of an object or array whose first member comes next.
    skipWhitespace();
    let value: unknown;
    let literal: string | undefined;
    const char = text[at];
    if (char === '{') {
      at++;
      const object: Record<string, unknown> = {};
      skipWhitespace();
      if (text[at] !== '}') {
        openMember(object);
        continue;
      }
      at++;
      value = object;
    } else if (char === '[') {
      at++;
      const array: unknown[] = [];
      skipWhitespace();
      if (text[at] !== ']') {
        stack.push({ holder: array, key: '0' });
        continue;
      }
      at++;
      value = array;
    } else if (char === '"') {
      value = readString();
    } else if (text.startsWith('true', at)) {
      at += 4;
      value = true;
    } else if (text.startsWith('false', at)) {
      at += 5;
      value = false;
    } else if (text.startsWith('null', at)) {
      at += 4;
      value = null;
    } else {
      NUMBER.lastIndex = at;
      if (!NUMBER.test(text)) fail();
      literal = text.slice(at, NUMBER.lastIndex);
      at = NUMBER.lastIndex;
      value = Number(literal);
    }

    // The value is complete: store it, then close every object and array it completes.
    for (;;) {
      const open = stack.at(-1);
      if (open === undefined) {
        root = value;
        break;
      }
      const { holder, key } = open;
      // A data property, as JSON.parse defines it: "__proto__" is a member, never the prototype.
      Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
      if (literal === undefined) literals.get(holder)?.delete(key);
      else {
        let members = literals.get(holder);
        if (members === undefined) literals.set(holder, (members = new Map()));
        members.set(key, literal);
      }
      skipWhitespace();
      const next = text[at++];
      const closing = Array.isArray(holder) ? ']' : '}';
      if (next === ',') {
        if (Array.isArray(holder)) open.key = String(holder.length);
        else {
          stack.pop();
          openMember(holder);
        }
        break;
      }
      if (next !== closing) fail();
      stack.pop();
      value = holder;
      literal = undefined;
    }
    if (stack.length === 0) break;
  }
  skipWhitespace();
  if (at !== text.length) fail();
  return {
    value: root,
    numberText: (holder, key) => literals.get(holder)?.get(key),
  };
}
