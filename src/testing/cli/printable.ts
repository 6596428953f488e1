/**
 * Text the `lunas-sandbox` command prints, made safe for a terminal. A
 * caller writes some of it (a charge's description, an account's name, a
 * webhook receiver's `Location`), and a control character in it would act on
 * the terminal instead of showing: C0 (ESC starts a sequence that moves the
 * cursor or recolours), DEL, and C1, which terminals honouring 8-bit
 * controls read as ESC sequences (U+009D starts an OSC: a clipboard write
 * with OSC 52). Each is written as its escape instead, as JSON writes one.
 */

/** Every control character: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** What JSON.stringify leaves as it is: DEL and C1 are valid in a JSON string, and as dangerous. */
const RAW_IN_JSON = /[\u007f-\u009f]/g;

/** JSON's own escape where it has one (`\n`, `\u001b`), else `\u007f`: the same in text and in JSON. */
function escaped(char: string): string {
  const json = JSON.stringify(char).slice(1, -1);
  return json === char ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : json;
}

/** `text` with every control character escaped: one line, whatever it held. */
export const printable = (text: string): string => text.replace(CONTROL, escaped);

/**
 * `value` as indented JSON whose strings escape every control character: still
 * valid JSON for the same value (`"\u009b"` reads back as U+009B), and inert
 * in a terminal. JSON.stringify escapes C0 itself; raw control characters
 * can only be in its strings, so escaping them there changes nothing else.
 */
export const printableJson = (value: unknown): string =>
  JSON.stringify(value ?? null, null, 2).replace(RAW_IN_JSON, escaped);
