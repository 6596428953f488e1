/**
 * Every form an API key can take in a URL, a log line or a JSON text, for
 * the leak tests: whichever of them a rendering holds, the key leaked.
 */
import { inspect } from 'node:util';

/** A segment a URL's path resolves away: `.` or `..`, written with dots or `%2e`, between slashes or the ends. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/** The key, and each way it can be written: percent-encoded in either case, as a URL serialises it, JSON-escaped. */
export function keyForms(key: string): string[] {
  const encoded = encodeURIComponent(key);
  const every = [...key].map((char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  const unicode = [...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const forms = [
    key,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    every,
    every.toUpperCase(),
    // As a URL's path serialises it, unless the key holds a dot segment (`./`, `..`,
    // `%2e`): a URL removes those, and what is left is no longer the key.
    ...(DOT_SEGMENT.test(key)
      ? []
      : [new URL(`https://api.lunas.test/${key.replaceAll(/[?#\\]/g, encodeURIComponent)}`).pathname.slice(1)]),
    new URLSearchParams({ [key]: '' }).toString().slice(0, -1),
    JSON.stringify(key).slice(1, -1),
    JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
    unicode,
    unicode.toUpperCase().replaceAll('\\U', '\\u'),
  ];
  return [...new Set(forms)];
}

/** Every rendering of `value` a merchant might log or ship to an error tracker. */
export function renderings(value: unknown): string[] {
  const out = [
    inspect(value, { depth: Infinity, showHidden: true }),
    inspect(value, { depth: Infinity }),
    String(value),
  ];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch (error) {
    out.push(`JSON.stringify threw: ${String(error)}`);
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '');
  return out;
}

/** The forms of `key` that any of `texts` holds, with the text around them: empty when nothing leaked. */
export function keyLeaks(texts: string[], key: string): string[] {
  const forms = keyForms(key);
  return texts.flatMap((text) =>
    forms
      .filter((form) => text.includes(form))
      .map((form) => {
        const at = text.indexOf(form);
        return `${form} in …${text.slice(Math.max(0, at - 80), at + form.length + 20)}…`;
      }),
  );
}
