/**
 * Hostile input shared by the security suites, and the values a misbehaving
 * plug-in may throw.
 */
import fc from 'fast-check';

/** Pieces that mean something to a URL parser or a path resolver, and ordinary ones. */
const ID_PIECES = [
  '.',
  '..',
  '/',
  '\\',
  '?',
  '#',
  '%',
  '&',
  '=',
  ';',
  '@',
  ':',
  '+',
  ' ',
  '\t',
  '\r\n',
  '\0',
  '%2e',
  '%2E',
  '%2f',
  '%2F',
  '%5c',
  '%3f',
  '%23',
  '%00',
  '%252F',
  '%%32%65',
  '.%2e',
  '%2e.',
  '\u3002',
  '\uff0e',
  '\uff0f',
  '\u2215',
  '..;',
  'v1',
  'transfers',
  'ch_1',
  'a',
] as const;

/** An id glued together from {@link ID_PIECES}: `..%2F..`, `?a#b`, `%2e%2e/ch_1`, ... */
export const hostileId: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...ID_PIECES), { minLength: 1, maxLength: 6 })
  .map((pieces) => pieces.join(''));

/** Loopback as the SDK must understand it: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  const octets = hostname.split('.');
  return (
    octets.length === 4 &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255) &&
    octets[0] === '127'
  );
}

/** Throws a TypeError, as a getter or method with a bug would. */
export function fail(): never {
  throw new TypeError('a plug-in’s own bug');
}

/** A revoked Proxy: any operation on it throws a TypeError. */
export function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Values a plug-in may throw that `String()` or a template literal would choke on. */
export const HOSTILE_THROWS: [string, () => unknown][] = [
  ['a null-prototype object', () => Object.create(null)],
  ['a symbol', () => Symbol('odd')],
  [
    'an object whose toString throws',
    () => ({
      toString() {
        throw new Error('no');
      },
    }),
  ],
  ['an Error whose message getter throws', () => Object.defineProperty(new Error(), 'message', { get: () => fail() })],
  ['a revoked Proxy', revoked],
  ['undefined', () => undefined],
];
