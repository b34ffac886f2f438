/**
 * Exact decimals: strings and numbers read as the decimals they write, compared digit by digit, checked
 * against an oracle that scales both sides to integers with BigInt.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  type Decimal,
  decimalOfNumber,
  parseDecimal,
  significantDigits,
} from '#domain/subscriptions/decimal';
import { decimalText, oracleCompare, shortDecimal } from './decimal-oracle';

/** A text the test knows to be a decimal, read. */
function decimal(text: string): Decimal {
  const read = parseDecimal(text);
  if (read === undefined) throw new Error(`not a decimal: ${text}`);
  return read;
}

describe('parseDecimal', () => {
  it.each([
    ['12.50', { negative: false, integer: '12', fraction: '5' }],
    ['0.10', { negative: false, integer: '', fraction: '1' }],
    ['-0.000', { negative: false, integer: '', fraction: '' }],
    ['-0012.0400', { negative: true, integer: '12', fraction: '04' }],
    ['1000000000000.01', { negative: false, integer: '1000000000000', fraction: '01' }],
  ])('reads %s', (text, decimal) => {
    expect(parseDecimal(text)).toEqual(decimal);
  });

  it.each([
    '',
    '-',
    '1e3',
    '+1',
    ' 1',
    '1 ',
    '1.',
    '.5',
    '1,5',
    '0x10',
    'NaN',
    'Infinity',
    '١٢',
    '1.2.3',
    '--1',
  ])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });

  it('reads a run of zeros then a digit in one pass (no backtracking pattern)', () => {
    const text = `1.${'0'.repeat(100_000)}1`;
    expect(parseDecimal(text)?.fraction).toHaveLength(100_001);
  });
});

describe('decimalOfNumber', () => {
  it.each([
    [0.1, { negative: false, integer: '', fraction: '1' }],
    [-0, { negative: false, integer: '', fraction: '' }],
    [1e21, { negative: false, integer: `1${'0'.repeat(21)}`, fraction: '' }],
    [-1.5e-7, { negative: true, integer: '', fraction: '00000015' }],
    [0.1 + 0.2, { negative: false, integer: '', fraction: '30000000000000004' }],
    [1000000000000.01, { negative: false, integer: '1000000000000', fraction: '01' }],
  ])('reads %d as the decimal it prints', (value, decimal) => {
    expect(decimalOfNumber(value)).toEqual(decimal);
  });

  it('refuses what is no finite number', () => {
    expect(() => decimalOfNumber(Number.NaN)).toThrow(RangeError);
  });

  it('reads a number written with at most 15 significant digits as exactly what was written', () => {
    fc.assert(
      fc.property(shortDecimal, (text) => {
        expect(decimalOfNumber(Number(text))).toEqual(parseDecimal(text));
      }),
    );
  });
});

describe('significantDigits', () => {
  it.each([
    [0.1, 1],
    [123.45, 5],
    [1e21, 1],
    [1000000000000.01, 15],
    [0.1 + 0.2, 17],
    [-0.0012, 2],
  ])('counts %d as %i', (value, digits) => {
    expect(significantDigits(value)).toBe(digits);
  });
});

describe('compareDecimals', () => {
  it.each([
    ['0.10', '0.1', 0],
    ['-0', '0', 0],
    ['1000000000000.01', '1000000000000', 1],
    ['999.99', '1000.00', -1],
    ['-1.5', '-1.25', -1],
    ['0.5', '0.51', -1],
    ['0.6', '0.51', 1],
    ['-0.01', '0', -1],
  ])('compares %s with %s as %i', (a, b, order) => {
    expect(compareDecimals(decimal(a), decimal(b))).toBe(order);
  });

  it('agrees with a BigInt oracle on any two decimal strings', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(compareDecimals(decimal(a), decimal(b))).toBe(oracleCompare(a, b));
      }),
      { numRuns: 2_000 },
    );
  });

  it('agrees with the oracle on a decimal close to another (a digit changed, appended or carried)', () => {
    const neighbours = decimalText.chain((a) =>
      fc
        .constantFrom(`${a}0`, `${a}${a.includes('.') ? '' : '.'}01`, a.replace(/.$/, '9'))
        .map((b) => [a, b] as const),
    );
    fc.assert(
      fc.property(neighbours, ([a, b]) => {
        expect(compareDecimals(decimal(a), decimal(b))).toBe(oracleCompare(a, b));
      }),
    );
  });
});
