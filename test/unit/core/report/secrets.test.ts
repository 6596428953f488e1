/**
 * core/report/secrets.ts on its own: the forms of the key a Secret masks and
 * holds (the same set), a quote cut short masked, the headers handed back,
 * what is kept of an error lunas did not throw, and a refusal rebuilt masked.
 * That nothing lunas shows holds the key is test/security/key-leaks/.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  describeError,
  foreignError,
  maskRefusal,
  redact,
  Secret,
  withoutSecret,
} from '../../../../src/core/report/secrets.js';
import { APIError, LunasError, RequestValidationError } from '../../../../src/index.js';
import { revoked } from '../../../helpers/hostile.js';

const KEY = 'sk_live_Zm9v+YmFy/cXV4==';
const secret = new Secret(KEY);

/** The key as a URL or a JSON text may carry it: each form a service could echo. */
const FORMS = [
  KEY,
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
  encodeURIComponent(encodeURIComponent(KEY)),
  KEY.replaceAll('/', '\\/'),
  [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
];

describe('Secret', () => {
  it.each(FORMS)('masks %s, glued to other text, and holds it', (form) => {
    expect(secret.mask(`a${form}b ${form}`)).toBe('a[REDACTED]b [REDACTED]');
    expect(secret.holds(`a${form}b`)).toBe(true);
  });

  it('neither masks nor holds what is not the key: another case, a part of it', () => {
    for (const other of [KEY.toUpperCase(), KEY.slice(0, -1), KEY.slice(1), 'sk_live_']) {
      expect(secret.mask(`x ${other} y`)).toBe(`x ${other} y`);
      expect(secret.holds(other)).toBe(false);
    }
  });

  it('masks a key holding a backslash whether it is written raw or JSON-escaped', () => {
    const slashed = new Secret('sk_test_a\\b/c"d_0123');
    const escaped = JSON.stringify('sk_test_a\\b/c"d_0123').slice(1, -1);
    expect(slashed.mask('raw sk_test_a\\b/c"d_0123')).toBe('raw [REDACTED]');
    expect(slashed.mask(`json ${escaped}`)).toBe('json [REDACTED]');
    expect(slashed.holds(escaped.replaceAll('/', '\\/'))).toBe(true);
  });

  it('prints and serialises as {}: the key sits in private fields', () => {
    expect(JSON.stringify(secret)).toBe('{}');
    expect(inspect(secret, { showHidden: true, depth: Infinity })).not.toContain(KEY);
  });

  it('maskQuoted also masks a quote cut short after eight or more of the key’s first characters', () => {
    expect(secret.maskQuoted(`Unknown option "${KEY.slice(0, 10)}…"`)).toBe('Unknown option "[REDACTED]…"');
    expect(secret.maskQuoted(`(got "${encodeURIComponent(KEY).slice(0, 15)}…")`)).toBe('(got "[REDACTED]…")');
    // Seven characters are the prefix many keys share, no secret: the words stay.
    expect(secret.maskQuoted(`"${KEY.slice(0, 7)}…"`)).toBe(`"${KEY.slice(0, 7)}…"`);
    // mask alone leaves a cut quote: only refusals quote the caller's input.
    expect(secret.mask(`"${KEY.slice(0, 10)}…"`)).toBe(`"${KEY.slice(0, 10)}…"`);
  });
});

describe('redact', () => {
  it('is the Secret’s mask', () => {
    const text = `Bearer ${KEY} and ${encodeURIComponent(KEY)}`;
    expect(redact(text, secret)).toBe('Bearer [REDACTED] and [REDACTED]');
  });
});

describe('withoutSecret', () => {
  it('hands back the same Headers when no value echoes the key', () => {
    const headers = new Headers({ 'x-request-id': 'req_1' });
    expect(withoutSecret(headers, secret)).toBe(headers);
  });

  it('gives a copy with each echo masked, every header and repeated value kept', () => {
    const headers = new Headers([
      ['x-echo', `Bearer ${KEY}`],
      ['set-cookie', 'a=1'],
      ['set-cookie', `b=${encodeURIComponent(KEY)}`],
    ]);
    const masked = withoutSecret(headers, secret);
    expect(masked).not.toBe(headers);
    expect([...masked]).toEqual([
      ['set-cookie', 'a=1'],
      ['set-cookie', 'b=[REDACTED]'],
      ['x-echo', 'Bearer [REDACTED]'],
    ]);
    expect(headers.get('x-echo')).toBe(`Bearer ${KEY}`);
  });
});

describe('foreignError', () => {
  it('keeps the name, the message and a string or number code, masked, and nothing else', () => {
    const request = new Request('https://api.lunas.test/v1', { headers: { authorization: `Bearer ${KEY}` } });
    const thrown = Object.assign(new TypeError(`failed for ${KEY}`), { code: `E_${KEY}`, request, status: 7 });
    const error = foreignError(thrown, secret);
    expect(error).not.toBe(thrown);
    expect([error.name, error.message, (error as { code?: unknown }).code]).toEqual([
      'TypeError',
      'failed for [REDACTED]',
      'E_[REDACTED]',
    ]);
    expect(Object.keys(error)).toEqual(['code']);
    expect(foreignError(Object.assign(new Error('x'), { code: 42 }))).toMatchObject({ code: 42 });
    expect(foreignError(Object.assign(new Error('x'), { code: { deep: KEY } }))).not.toHaveProperty('code');
  });

  it('rebuilds the causes the same way, at most four below the error, and stops at a cycle', () => {
    let deep: unknown = 'the bottom';
    for (let depth = 0; depth < 10; depth++) deep = new Error(`level ${depth}`, { cause: deep });
    expect(describeError(foreignError(deep))).toBe('level 9: level 8: level 7: level 6: level 5');
    const cycle = new Error('a cycle');
    cycle.cause = new Error('back', { cause: cycle });
    expect(describeError(foreignError(cycle))).toBe('a cycle: back');
  });

  it('writes what is not an object as text, masked, and never reads an object that fights back', () => {
    expect(foreignError(`no route to ${KEY}`, secret).message).toBe('no route to [REDACTED]');
    expect(foreignError(Symbol('x')).message).toBe('Symbol(x)');
    expect(foreignError(undefined).message).toBe('undefined');
    const trap = () => {
      throw new Error(KEY);
    };
    for (const hostile of [
      revoked(),
      Object.create(null),
      Object.defineProperties({}, { message: { get: trap }, name: { get: trap }, cause: { get: trap } }),
      { toString: trap },
    ]) {
      expect(foreignError(hostile, secret).message).toBe('a thrown object without a message');
    }
  });
});

describe('describeError', () => {
  it('joins the messages of an error and its causes, with a code where a message is empty', () => {
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    expect(describeError(new TypeError('fetch failed', { cause: refused }))).toBe('fetch failed: ECONNREFUSED');
    expect(describeError(new Error('alone'))).toBe('alone');
  });
});

describe('maskRefusal', () => {
  it('rebuilds a RequestValidationError with the key masked in its field names and messages', () => {
    const refusal = new RequestValidationError({
      [`query.${KEY}`]: [`Unknown field "${KEY.slice(0, 12)}…"`],
    });
    const masked = maskRefusal(refusal, secret) as RequestValidationError;
    expect(masked).toBeInstanceOf(RequestValidationError);
    expect(masked.fields).toEqual({ 'query.[REDACTED]': ['Unknown field "[REDACTED]…"'] });
    expect(`${masked.message}${masked.stack}`).not.toContain(KEY.slice(0, 12));
  });

  it('rebuilds a plain LunasError, keeping its idempotencyKey', () => {
    const refusal = new LunasError(`since "${KEY}" is not a time`, { idempotencyKey: 'order-1' });
    const masked = maskRefusal(refusal, secret) as LunasError;
    expect([masked.constructor, masked.message, masked.idempotencyKey]).toEqual([
      LunasError,
      'since "[REDACTED]" is not a time',
      'order-1',
    ]);
  });

  it('hands back as they are: an error holding no key, any error without a secret, a subclass, what is no LunasError', () => {
    const clean = new RequestValidationError({ amount: ['Amount is required'] });
    const holding = new LunasError(`key ${KEY}`);
    const subclass = new APIError({ status: 500, message: `key ${KEY}`, body: null, headers: new Headers() });
    const plain = new Error(`key ${KEY}`);
    expect(maskRefusal(clean, secret)).toBe(clean);
    expect(maskRefusal(holding, undefined)).toBe(holding);
    expect(maskRefusal(subclass, secret)).toBe(subclass);
    expect(maskRefusal(plain, secret)).toBe(plain);
  });
});
