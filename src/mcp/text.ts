/**
 * Text the person reads, made of lunas's own words and the agent's, quoted.
 * The agent writes a transfer's reference and destination, and whatever it
 * writes must not pass for lunas's words: a line break would start a
 * question of its own ("…?\nTransfer Rp 1 to…"), and a bidi control would
 * reorder what the person sees. So the agent's text is always quoted as JSON
 * quotes a string, with every character that could break the line, hide or
 * reorder text escaped as `\uXXXX`, and lunas's question stays one line.
 */

/**
 * What is escaped beyond JSON's own escapes: control characters (C0, DEL,
 * C1: `\p{Cc}`), format characters (`\p{Cf}`: the bidi controls U+202A–202E,
 * U+2066–2069, U+200E/200F and U+061C, zero-width characters, soft hyphen,
 * tag characters), and the line and paragraph separators U+2028 and U+2029.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Anything but printable ASCII: an identifier is shown as ASCII, so a look-alike letter shows as `\u0430`. */
const NOT_ASCII = /[^\x20-\x7e]/gu;

/** `char` as JSON escapes (`\n`), else as `\uXXXX` per UTF-16 unit: the same value read back as JSON. */
function escaped(char: string): string {
  const json = JSON.stringify(char).slice(1, -1);
  if (json !== char) return json;
  let text = '';
  for (let at = 0; at < char.length; at++) text += `\\u${char.charCodeAt(at).toString(16).padStart(4, '0')}`;
  return text;
}

/** `text` on one line with nothing hidden: every character {@link HIDDEN} lists escaped. Not quoted. */
export function oneLine(text: string): string {
  return text.replace(HIDDEN, escaped);
}

/**
 * The agent's `text`, quoted as JSON quotes it (`"inv-7"`, `\n`, `\"`), with
 * control, format and separator characters escaped too: valid JSON for the
 * same string, on one line, showing every character it holds.
 */
export function quoted(text: string): string {
  return oneLine(JSON.stringify(text));
}

/**
 * An identifier the agent gave (an account id), quoted with every character
 * outside printable ASCII escaped: `"acc_p\u0430rtner"` shows the Cyrillic
 * letter that would otherwise pass for `a`.
 */
export function quotedId(text: string): string {
  return JSON.stringify(text).replace(NOT_ASCII, escaped);
}

/**
 * An exact amount (`"150000.00"`) as merchants in Indonesia read rupiah:
 * `Rp 150.000`, `.` grouping thousands and `,` before cents that are not
 * zero (`Rp 25.000,50`). Another currency is written by its code.
 */
export function rupiah(amount: string, currency = 'idr'): string {
  const symbol = currency.toLowerCase() === 'idr' ? 'Rp' : currency.toUpperCase();
  const parts = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (parts === null) return `${symbol} ${amount}`;
  const [, whole = '', fraction = ''] = parts;
  const head = whole.length % 3 || 3;
  const groups = [whole.slice(0, head)];
  for (let at = head; at < whole.length; at += 3) groups.push(whole.slice(at, at + 3));
  const cents = /[1-9]/.test(fraction) ? `,${fraction.padEnd(2, '0')}` : '';
  return `${symbol} ${groups.join('.')}${cents}`;
}
