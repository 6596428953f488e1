/**
 * The sandbox's body reader (src/testing/service/json.ts) against `JSON.parse`, which
 * it replaces for request bodies: the same value (key order, `__proto__`,
 * `-0`, lone surrogates) for every text `JSON.parse` reads, a `SyntaxError`
 * for every text it refuses, and each number's literal kept exactly as sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/testing/service/json.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 500);

type Outcome = { value: unknown; order: string } | { error: string };

function outcome(read: (text: string) => unknown, text: string): Outcome {
  try {
    const value = read(text);
    // JSON.stringify also pins the order of keys, which toStrictEqual does not.
    return { value, order: JSON.stringify(value) };
  } catch (error) {
    return { error: (error as Error).constructor.name };
  }
}

function expectSameAsJsonParse(text: string): void {
  expect(outcome((t) => readJson(t).value, text)).toStrictEqual(outcome(JSON.parse, text));
}

/** Any JSON text, some of it indented or padded with the four whitespace characters JSON allows. */
const jsonText = fc
  .tuple(fc.jsonValue(), fc.constantFrom(undefined, 0, 2, '\t', ' \r\n'))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

/** Pieces JSON is made of, and pieces near them that it is not, for texts mostly invalid. */
const pieces = fc.constantFrom(
  ...['{', '}', '[', ']', ',', ':', '"', '"a"', '\\', '\\u', '\\u00e9', '\\x41', 'u', 'D800', '0', '1', '9'],
  ...['-', '+', '.', 'e', 'E', '00', 'true', 'false', 'null', 'tru', 'NaN', ' ', '\n', '\t', '\r'],
  ...['\u00a0', '\u2028', '\ufeff', '\u0000', '\u001f', 'é', '\ud800', '__proto__', '"__proto__"', 'x'],
);

/** A valid text with one edit: a character removed, doubled or replaced by a piece. */
const nearlyJson = fc
  .tuple(jsonText, fc.nat(), fc.constantFrom('remove', 'double', 'replace', 'insert'), pieces)
  .map(([text, index, edit, piece]) => {
    const at = text.length === 0 ? 0 : index % text.length;
    switch (edit) {
      case 'remove':
        return text.slice(0, at) + text.slice(at + 1);
      case 'double':
        return text.slice(0, at + 1) + text.slice(at);
      case 'replace':
        return text.slice(0, at) + piece + text.slice(at + 1);
      default:
        return text.slice(0, at) + piece + text.slice(at);
    }
  });

/** A JSON number literal of any form the grammar allows. */
const numberLiteral = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,30}$/)),
    fc.option(fc.stringMatching(/^\d{1,25}$/)),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^\d{1,3}$/))),
  )
  .map(
    ([sign, whole, fraction, exponent]) =>
      `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : exponent.join('')}`,
  );

describe('readJson reads what JSON.parse reads, and refuses what it refuses', () => {
  it('any JSON value, indented or not', () => {
    fc.assert(fc.property(jsonText, expectSameAsJsonParse), { numRuns: RUNS });
  });

  it('a valid text with one edit', () => {
    fc.assert(fc.property(nearlyJson, expectSameAsJsonParse), { numRuns: RUNS * 4 });
  });

  it('texts assembled from pieces of JSON', () => {
    const texts = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(fc.property(texts, expectSameAsJsonParse), { numRuns: RUNS * 4 });
  });

  it.each([
    '',
    ' ',
    '{"__proto__":{"polluted":1}}',
    '{"b":1,"a":2,"b":3}',
    '{"a":{"x":1},"a":2}',
    '-0',
    '[-0.0e-0]',
    '"\\ud800\\udc00\\udc00"',
    '"\\u00E9\\/\\b\\f\\n\\r\\t"',
    '1E400',
    '{"a":1}\u0000',
    '\ufeff{}',
    '[1,]',
    '{,}',
    '{"a"}',
    '"\\u12"',
    '"abc',
    'nul',
    '[[[]]',
    '{"a":1}}',
    '0123',
  ])('%j', (text) => {
    expectSameAsJsonParse(text);
  });

  it('a "__proto__" member is an own member, never the prototype', () => {
    const { value } = readJson('{"__proto__":{"polluted":1}}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('nesting 100 000 levels deep is read, as JSON.parse reads it', () => {
    const depth = 100_000;
    expectSameAsJsonParse(`${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`);
  });
});

describe('readJson keeps each number as it was written', () => {
  it('in an object or an array, at any depth', () => {
    fc.assert(
      fc.property(numberLiteral, fc.nat({ max: 3 }), fc.boolean(), (literal, depth, inArray) => {
        const member = inArray ? `["x",${literal}]` : `{"n":null,"amount":${literal}}`;
        const { value, numberText } = readJson(`${'{"k":'.repeat(depth)}${member}${'}'.repeat(depth)}`);
        let holder = value as Record<string, unknown>;
        for (let level = 0; level < depth; level++) holder = holder.k as Record<string, unknown>;
        const key = inArray ? '1' : 'amount';
        expect(numberText(holder, key)).toBe(literal);
        expect(holder[key]).toBe(JSON.parse(literal));
        expect(numberText(holder, inArray ? '0' : 'n')).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('of a repeated name, the literal of the value kept', () => {
    const { value, numberText } = readJson('{"a":1.50,"b":2,"a":"x","b":3e0}');
    expect(numberText(value as object, 'a')).toBeUndefined();
    expect(numberText(value as object, 'b')).toBe('3e0');
  });

  it('never for a string that looks like a number', () => {
    const { value, numberText } = readJson('{"amount":"9007199254740993"}');
    expect(numberText(value as object, 'amount')).toBeUndefined();
  });
});
