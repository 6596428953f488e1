/**
 * The payment page's pieces without a server: amounts for people, the QRIS
 * payload its QR code carries, and HTML escaping.
 */
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { escapeHtml, formatAmount } from '../../src/testing/pages/payment-page.js';
import { qrisPayload } from '../../src/testing/pages/qris-payload.js';

/** CRC-16/CCITT-FALSE written bit by bit, checked below against the standard check value. */
function referenceCrc(text: string): number {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    for (let bit = 7; bit >= 0; bit--) {
      const top = ((crc >> 15) & 1) ^ ((byte >> bit) & 1);
      crc = ((crc << 1) & 0xffff) ^ (top ? 0x1021 : 0);
    }
  }
  return crc;
}

/** Splits a TLV string into [tag, value] pairs; throws when a length overruns. */
function fields(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (let at = 0; at < text.length;) {
    const length = Number(text.slice(at + 2, at + 4));
    if (at + 4 + length > text.length) throw new Error(`field at ${at} overruns`);
    out.push([text.slice(at, at + 2), text.slice(at + 4, at + 4 + length)]);
    at += 4 + length;
  }
  return out;
}

describe('formatAmount', () => {
  it('writes rupiah one way: Rp, a plain space, `.` grouping thousands, `,` and cents only when there are some', () => {
    expect(formatAmount('25000.00', 'idr')).toBe('Rp 25.000');
    expect(formatAmount('1500000.50', 'idr')).toBe('Rp 1.500.000,50');
    expect(formatAmount('0.05', 'idr')).toBe('Rp 0,05');
    expect(formatAmount('999.00', 'idr')).toBe('Rp 999');
    expect(formatAmount('1000.00', 'idr')).toBe('Rp 1.000');
    expect(formatAmount('100000.00', 'IDR')).toBe('Rp 100.000');
    expect(formatAmount('-5000.00', 'idr')).toBe('-Rp 5.000');
    // Past 2^53: a float would round this.
    expect(formatAmount('12345678901234567890.99', 'idr')).toBe('Rp 12.345.678.901.234.567.890,99');
  });

  it('never writes a no-break space: pages keep the amount on one line with CSS instead', () => {
    for (const amount of ['0.01', '25000.00', '1500000.50', '7.00']) {
      expect(formatAmount(amount, 'idr')).not.toMatch(/[\u00a0\u202f]/);
      expect(formatAmount(amount, 'usd')).not.toMatch(/[\u00a0\u202f]/);
    }
  });

  it('names another currency by its code, in the same notation', () => {
    expect(formatAmount('10.50', 'usd')).toBe('USD 10,50');
    expect(formatAmount('7.00', 'xyz')).toBe('XYZ 7');
    expect(formatAmount('1234567.00', 'sgd')).toBe('SGD 1.234.567');
  });

  it('groups an amount of any length, from its digits', () => {
    expect(formatAmount(`${'9'.repeat(300_000)}.00`, 'idr')).toBe(`Rp ${'999.'.repeat(99_999)}999`);
    expect(formatAmount(`1${'0'.repeat(3_000)}.10`, 'idr')).toBe(`Rp 1${'.000'.repeat(1_000)},10`);
  });
});

describe('qrisPayload', () => {
  it('is EMVCo TLV fields: dynamic, rupiah, the amount and the charge id, closed by a valid CRC', () => {
    expect(referenceCrc('123456789')).toBe(0x29b1);
    const payload = qrisPayload({ id: 'ch_0123456789abcdef01234567', amount: '25000.00' });
    if (payload === undefined) throw new Error('no payload');
    const parsed = fields(payload);
    expect(parsed.map(([tag]) => tag)).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(Object.fromEntries(parsed)).toMatchObject({
      '00': '01',
      '01': '12',
      '53': '360',
      '54': '25000.00',
      '58': 'ID',
      '62': '0527ch_0123456789abcdef01234567',
    });
    expect(fields(Object.fromEntries(parsed)['26']!)).toEqual([
      ['00', 'ID.LUNAS.SANDBOX'],
      ['01', 'SANDBOX'],
    ]);
    const crc = payload.slice(-4);
    expect(crc).toBe(referenceCrc(payload.slice(0, -4)).toString(16).toUpperCase().padStart(4, '0'));
    expect(encode(payload).size).toBeGreaterThan(21);
  });

  it('is undefined when the amount is too long for a field', () => {
    expect(qrisPayload({ id: 'ch_1', amount: `${'9'.repeat(98)}.00` })).toBeUndefined();
    expect(qrisPayload({ id: 'ch_1', amount: `${'9'.repeat(96)}.00` })).toEqual(expect.any(String));
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that can end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    expect(escapeHtml('Budi Santoso')).toBe('Budi Santoso');
  });
});
