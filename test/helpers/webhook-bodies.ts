/**
 * Every body kind `parseEvent` and `confirm` accept, for the unit and
 * property suites: each carries the same event.
 */
import { runInNewContext } from 'node:vm';
import type { WebhookBody } from '../../src/index.js';

/** Bytes in a larger buffer, at an offset: a view must be read from its own window only. */
function inWindow(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const buffer = new Uint8Array(bytes.length + 7).fill(0x7b); // '{' around the window
  buffer.set(bytes, 3);
  return buffer.subarray(3, 3 + bytes.length);
}

/** The text as bytes whose ArrayBuffer and Uint8Array were made by another realm's constructors. */
function otherRealmBytes(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const foreign = runInNewContext('new Uint8Array(length)', { length: bytes.length }) as Uint8Array;
  foreign.set(bytes);
  return foreign;
}

/** Each kind made from the event's JSON text, or (an object) from the event itself. */
const kinds: [string, (text: string, value: unknown) => WebhookBody][] = [
  ['text', (text) => text],
  ['bytes (Uint8Array)', (text) => new TextEncoder().encode(text)],
  ['bytes (Buffer)', (text) => Buffer.from(text)],
  ['an ArrayBuffer (await req.arrayBuffer())', (text) => new TextEncoder().encode(text).buffer],
  [
    'a DataView over part of a buffer',
    (text) => {
      const view = inWindow(text);
      return new DataView(view.buffer, view.byteOffset, view.byteLength);
    },
  ],
  ['a Uint8Array over part of a buffer', (text) => inWindow(text)],
  ['an ArrayBuffer from another realm (a vm context, as Jest gives)', (text) => otherRealmBytes(text).buffer],
  ['a Uint8Array from another realm', (text) => otherRealmBytes(text)],
  ['an object', (_text, value) => structuredClone(value) as object],
];

/** Every accepted body kind, named: each makes a body of `value`, its JSON after a BOM when `bom`. */
export const bodyForms: [string, (value: unknown, bom?: boolean) => WebhookBody][] = kinds.map(([name, make]) => [
  name,
  (value, bom = false) => make(`${bom ? '\uFEFF' : ''}${JSON.stringify(value)}`, value),
]);
