/**
 * Every form an API key can take in a URL, a log line or a JSON text, for
 * the leak tests: whichever of them a rendering holds, the key leaked. Also
 * the renderings a merchant might log of a value, and a client whose every
 * event and line is kept, to look for the key in.
 */
import { inspect } from 'node:util';
import { expect } from 'vitest';
import { Client } from '../../src/index.js';
import { BASE_URL } from './fixtures.js';
import { recordEvents, recordingLogger } from './recorders.js';

/** A base64-style key: `+`, `/` and `=` are percent-encoded in a query or an id. */
export const B64_KEY = 'sk_live_Zm9v+YmFy/cXV4==';

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
    // Getters run: what an error tracker that reads every property would see.
    inspect(value, { depth: 12, showHidden: true, getters: true }),
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

/** Every form of `key` that a rendering of `values` holds, with the value's index: empty when nothing leaked. */
export function leaksOf(values: unknown[], key: string): string[] {
  return values.flatMap((value, index) => keyLeaks(renderings(value), key).map((leak) => `value ${index}: ${leak}`));
}

/** No rendering of `value` holds any form of `key`. */
export function expectNoKey(value: unknown, key: string): void {
  expect(keyLeaks(renderings(value), key)).toEqual([]);
}

/** A client with `key` whose requests go to `respond`, its events and debug lines recorded. */
export function observedClient(key: string, respond: (request: Request) => Response | Promise<Response>) {
  const { lines, logger } = recordingLogger();
  const client = new Client({
    apiKey: key,
    baseURL: BASE_URL,
    maxRetries: 0,
    logger,
    logLevel: 'debug',
    fetch: async (input, init) => respond(new Request(input, init)),
  });
  return { client, lines, events: recordEvents(client) };
}

/** What a call handed back or showed anywhere: the error's renderings, every event, every log line. */
export function shown(error: unknown, events: unknown[], lines: string[]): string[] {
  return [...renderings(error), ...events.flatMap(renderings), ...lines];
}
