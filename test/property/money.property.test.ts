/**
 * Money, property-based: `normalizeMoney` and the response `money` schema
 * turn every decimal the service may send (a JSON number or a string, any
 * number of digits) into exactly the same amount written with two decimals,
 * or refuse it. They never round, never change a value, and normalising twice
 * changes nothing. A request's amount is sent as a JSON literal meaning
 * exactly the amount given, or refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { money, moneyParam } from '../../src/core/checks/schemas.js';
import { normalizeMoney } from '../../src/shared/money.js';
import { formatCents, wireClient } from '../helpers/wire.js';
import { chargeJson } from '../helpers/fixtures.js';

const RUNS = Number(process.env.LUNAS_PROPERTY_RUNS ?? 500);
const TWO_DECIMALS = /^-?\d+\.\d{2}$/;

/** Cents of any size and sign, biased to the edges that matter. */
const anyCents = fc.oneof(
  fc.bigInt({ min: -10_000n, max: 10_000n }),
  fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
);

/** Every way a string can write `cents`: two decimals, one, none, leading zeros, trailing zeros past the cents. */
function stringForms(cents: bigint): fc.Arbitrary<string> {
  const canonical = formatCents(cents);
  const [sign, digits] = canonical.startsWith('-') ? ['-', canonical.slice(1)] : ['', canonical];
  return fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 3 }), fc.boolean()).map(([zerosBefore, zerosAfter, shorten]) => {
    let text = digits;
    if (shorten) text = text.replace(/\.00$/, '').replace(/(\.\d)0$/, '$1');
    if (zerosAfter > 0) text = text.includes('.') ? text + '0'.repeat(zerosAfter) : `${text}.${'0'.repeat(zerosAfter)}`;
    return `${sign}${'0'.repeat(zerosBefore)}${text}`;
  });
}

const canonicalOrZero = (cents: bigint) => (cents === 0n ? '0.00' : formatCents(cents));

describe('normalizeMoney', () => {
  it('writes any decimal string as the same amount with exactly two decimals, whatever its size', () => {
    fc.assert(
      fc.property(
        anyCents.chain((cents) => fc.tuple(fc.constant(cents), stringForms(cents))),
        ([cents, text]) => {
          const normalized = normalizeMoney(text);
          // "-0", "-0.00" keep their sign: the value is still zero.
          expect(normalized?.replace(/^-(0\.00)$/, '$1')).toBe(canonicalOrZero(cents));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a string with a non-zero digit past the cents, or that is not a plain decimal', () => {
    const pastCents = fc
      .tuple(anyCents, fc.integer({ min: 1, max: 9 }), fc.nat({ max: 3 }))
      .map(([cents, digit, zeros]) => `${formatCents(cents)}${'0'.repeat(zeros)}${digit}`);
    const notDecimal = fc.oneof(
      fc.string({ maxLength: 12 }).filter((text) => !/^-?\d+(\.\d+)?$/.test(text)),
      fc.constantFrom(
        '1e3',
        '1E-2',
        '+1.00',
        ' 1.00',
        '1.00 ',
        '1.',
        '.5',
        '1,00',
        '0x1A',
        'NaN',
        'Infinity',
        '١٢٣',
        '１２',
      ),
    );
    fc.assert(
      fc.property(fc.oneof(pastCents, notDecimal), (text) => {
        expect(normalizeMoney(text)).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('writes a number of cents exactly, up to 15 significant digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n - 1n), max: 10n ** 15n - 1n }), (cents) => {
        expect(normalizeMoney(Number(formatCents(cents)))).toBe(canonicalOrZero(cents));
      }),
      { numRuns: RUNS },
    );
  });

  it('never changes the value of a number: what it returns reads back as the same number', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double(),
          fc.integer().map((n) => n / 100),
          fc.double({ min: -1e6, max: 1e6 }),
        ),
        (value) => {
          const normalized = normalizeMoney(value);
          if (normalized === undefined) return;
          expect(normalized).toMatch(TWO_DECIMALS);
          expect(Number(normalized)).toBe(value === 0 ? Number(normalized) : value);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses numbers that are not finite or that carry a fraction of a cent', () => {
    const belowCents = fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 9 }))
      .map(([whole, digit]) => Number(`${whole}.00${digit}`));
    fc.assert(
      fc.property(
        fc.oneof(belowCents, fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e-7, 0.1 + 0.2, 5e-324)),
        (value) => {
          expect(normalizeMoney(value)).toBeUndefined();
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('is idempotent: a normalised amount normalises to itself', () => {
    fc.assert(
      fc.property(fc.oneof(anyCents.chain(stringForms), fc.double()), (value) => {
        const once = normalizeMoney(value);
        if (once === undefined) return;
        expect(normalizeMoney(once)).toBe(once);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the response money schema', () => {
  it('returns what normalizeMoney returns, never accepts what it refuses, and accepts every decimal string it accepts', () => {
    const values = fc.oneof(anyCents.chain(stringForms), fc.double(), fc.string({ maxLength: 8 }), fc.integer());
    fc.assert(
      fc.property(values, (value) => {
        const parsed = money.safeParse(value);
        const normalized = normalizeMoney(value);
        if (normalized === undefined) expect(parsed.success).toBe(false);
        if (typeof value === 'string') expect(parsed.success).toBe(normalized !== undefined);
        if (parsed.success) expect(parsed.data).toBe(normalized);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses values that are neither a number nor a string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.boolean(), fc.constant(null), fc.array(fc.integer()), fc.object()), (value) => {
        expect(money.safeParse(value).success).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});

describe('money on the wire, through the SDK', () => {
  /** A charge whose amount, fee and item price are written in the JSON text as given. */
  function chargeText(literal: string): string {
    const text = JSON.stringify({
      status: 'success',
      data: chargeJson({ amount: 0, fee: 0, items: [{ name: 'Tea', price: 0, quantity: 1 }] }),
    });
    return text
      .replace('"amount":0', `"amount":${literal}`)
      .replace('"fee":0', `"fee":${literal}`)
      .replace('"price":0', `"price":${literal}`);
  }

  let body = '';
  const { client } = wireClient(() => new Response(body, { headers: { 'content-type': 'application/json' } }));

  async function readAmounts(literal: string): Promise<string[] | ResponseValidationError> {
    body = chargeText(literal);
    try {
      const charge = await client.charges.retrieve('ch_1');
      return [charge.amount, charge.fee, charge.items![0]!.price];
    } catch (error) {
      expect(error).toBeInstanceOf(ResponseValidationError);
      return error as ResponseValidationError;
    }
  }

  it('a JSON string of any size is returned exactly, as two decimals', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyCents.chain((cents) => fc.tuple(fc.constant(cents), stringForms(cents))),
        async ([cents, text]) => {
          const amounts = await readAmounts(JSON.stringify(text));
          expect(amounts).toEqual(Array(3).fill(normalizeMoney(text)));
          expect((amounts as string[])[0]!.replace(/^-(0\.00)$/, '$1')).toBe(canonicalOrZero(cents));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a JSON number is returned as exactly the amount the wire wrote, or refused: never rounded to another amount', async () => {
    const literal = anyCents.chain((cents) =>
      fc.tuple(
        fc.constant(cents),
        stringForms(cents).filter((text) => !/^-?0\d/.test(text)),
      ),
    );
    await fc.assert(
      fc.asyncProperty(literal, async ([cents, text]) => {
        const amounts = await readAmounts(text);
        if (amounts instanceof ResponseValidationError) {
          expect(amounts.path).toBe('data.amount');
          return;
        }
        expect(amounts.map((amount) => amount.replace(/^-(0\.00)$/, '$1'))).toEqual(
          Array(3).fill(canonicalOrZero(cents)),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('numbers within 15 significant digits are always accepted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: -(10n ** 15n - 1n), max: 10n ** 15n - 1n }), async (cents) => {
        const amounts = await readAmounts(formatCents(cents));
        expect(amounts).toEqual(Array(3).fill(canonicalOrZero(cents)));
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * The exact value of a JSON number literal (or a decimal string), exponent
 * included, in cents; undefined when it holds a fraction of a cent. Written
 * with bigints, so it reads what the text says, not what a double makes of it.
 */
function literalCents(literal: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) throw new Error(`not a decimal literal: ${literal}`);
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  const digits = BigInt(whole + fraction);
  const shift = Number(exponent) - fraction.length + 2;
  let cents: bigint;
  if (shift >= 0) cents = digits * 10n ** BigInt(shift);
  else {
    const divisor = 10n ** BigInt(-shift);
    if (digits % divisor !== 0n) return undefined;
    cents = digits / divisor;
  }
  return sign === '-' ? -cents : cents;
}

/** The amount a caller gave, in cents: a string's digits, an integer's exact value, a fraction as JavaScript writes it. */
function givenCents(value: number | string): bigint | undefined {
  if (typeof value === 'string') return literalCents(value);
  return Number.isInteger(value) ? BigInt(value) * 100n : literalCents(String(value));
}

describe('money in a request', () => {
  const amount = moneyParam('Amount');

  /** Amounts of every size, as numbers and strings, many of them past what a double carries. */
  const requestAmounts: fc.Arbitrary<number | string> = fc.oneof(
    anyCents.filter((cents) => cents > 0n).chain(stringForms),
    anyCents.filter((cents) => cents > 0n).map((cents) => Number(formatCents(cents))),
    fc.bigInt({ min: 2n ** 50n, max: 2n ** 75n }).chain((whole) => fc.constantFrom(Number(whole), whole.toString())),
    fc
      .tuple(fc.bigInt({ min: 10n ** 12n, max: 10n ** 17n }), fc.integer({ min: 0, max: 99 }))
      .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, '0')}`),
    fc.double({ min: 0, noNaN: true }),
  );

  it('sends a literal that means exactly the amount given, or refuses it: never another amount', () => {
    fc.assert(
      fc.property(requestAmounts, (value) => {
        const parsed = amount.safeParse(value);
        if (!parsed.success) return;
        const literal = /"amount":([^,}]+)/.exec(JSON.stringify({ amount: parsed.data }))![1]!;
        expect(literalCents(literal)).toBe(givenCents(value));
      }),
      { numRuns: RUNS },
    );
  });

  it('through the client too: the body sent writes amount and item price as exactly the amounts given', async () => {
    const { client, sent } = wireClient(() => new Response('{}', { status: 400 }));
    await fc.assert(
      fc.asyncProperty(requestAmounts, async (value) => {
        sent.length = 0;
        await client.charges
          .create({ payment_method: 'qris', amount: value, items: [{ name: 'Tea', price: value, quantity: 1 }] })
          .catch(() => undefined);
        if (sent.length === 0) return;
        const body = sent[0]!.body;
        for (const field of ['amount', 'price']) {
          const literal = new RegExp(`"${field}":([^,}]+)`).exec(body)![1]!;
          expect(literalCents(literal)).toBe(givenCents(value));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses every string with more than two digits after the point, zeros included', () => {
    const longFraction = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.stringMatching(/^\d{3,8}$/))
      .map(([whole, fraction]) => `${whole}.${fraction}`);
    fc.assert(
      fc.property(longFraction, (value) => {
        const parsed = amount.safeParse(value);
        expect(parsed.success).toBe(false);
        expect(parsed.error!.issues[0]!.message).toContain("at most two digits after the '.'");
      }),
      { numRuns: RUNS },
    );
  });

  it('accepts every amount above 0 of at most 15 significant digits, as a number or a string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }), fc.boolean(), (cents, asNumber) => {
        const text = formatCents(cents);
        expect(amount.safeParse(asNumber ? Number(text) : text).success).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
