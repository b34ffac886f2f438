import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '#domain/errors';
import { IBAN_LENGTHS, ibanProblem, isValidIban, normalizeIban, parseIban } from '#domain/iban';
import { catchError } from './catch-error';

/** The IBAN of a country and BBAN with the given check digits, or the correct ones (via BigInt). */
function iban(country: string, bban: string, check?: string): string {
  const digits = [...`${bban}${country}00`].map((c) => Number.parseInt(c, 36)).join('');
  const correct = String(98n - (BigInt(digits) % 97n)).padStart(2, '0');
  return `${country}${check ?? correct}${bban}`;
}

describe('normalizeIban', () => {
  it('removes whitespace and upper-cases', () => {
    expect(normalizeIban(' de89 3704\t0044 0532 0130 00 ')).toBe('DE89370400440532013000');
  });
});

describe('isValidIban', () => {
  it.each([
    'DE89370400440532013000',
    'GB82WEST12345698765432',
    'NL91ABNA0417164300',
    'FR1420041010050500013M02606',
    'NO9386011117947',
    'LC55HEMM000100010012001200023015',
    'MT84MALT011000012345MTLCAST001S',
    'CH9300762011623852957',
    'de89 3704 0044 0532 0130 00',
  ])('accepts %s', (text) => {
    expect(isValidIban(text)).toBe(true);
  });

  it('rejects a typo (one changed digit, two swapped digits)', () => {
    expect(isValidIban('DE89370400440532013001')).toBe(false);
    expect(isValidIban('DE89370400440532031000')).toBe(false);
  });

  it('rejects check digits 00, 01 and 99 although they pass MOD 97', () => {
    const bban = [...Array(100).keys()]
      .map((n) => `37040044053201${String(n).padStart(4, '0')}`)
      .find((candidate) => ['02', '97', '98'].includes(iban('DE', candidate).slice(2, 4)));
    expect(bban).toBeDefined();
    const valid = iban('DE', bban ?? '');
    const alias = { '02': '99', '97': '00', '98': '01' }[valid.slice(2, 4)] ?? '';
    expect(isValidIban(valid)).toBe(true);
    expect(isValidIban(iban('DE', bban ?? '', alias))).toBe(false);
  });

  it('enforces the length of known countries', () => {
    expect(ibanProblem('DE8937040044053201300')).toBe('an IBAN of DE has 22 characters, got 21');
    expect(isValidIban(iban('DE', '3704004405320130000'))).toBe(false);
  });

  it('accepts unknown countries within 15 to 34 characters', () => {
    expect(isValidIban(iban('ZZ', '1234567890123456'))).toBe(true);
    expect(isValidIban(iban('ZZ', '12345678901'))).toBe(true);
    expect(isValidIban(iban('ZZ', '1234567890'))).toBe(false);
    expect(isValidIban(iban('ZZ', '1'.repeat(31)))).toBe(false);
  });

  it.each([
    '',
    'DE',
    '1289370400440532013000',
    'DEAB370400440532013000',
    'DE89-3704-0044',
    'DÉ89370400440532013000',
  ])('rejects the shape %j', (text) => {
    expect(isValidIban(text)).toBe(false);
  });

  it('accepts every BBAN with computed check digits, and rejects any single-digit change', () => {
    const countries = Object.entries(IBAN_LENGTHS);
    const arbitrary = fc
      .constantFrom(...countries)
      .chain(([country, length]) =>
        fc.tuple(
          fc.constant(country),
          fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length - 4, maxLength: length - 4 }),
          fc.nat({ max: length - 5 }),
        ),
      );
    fc.assert(
      fc.property(arbitrary, ([country, bban, position]) => {
        const good = iban(country, bban);
        fc.pre(!['00', '01', '99'].includes(good.slice(2, 4)));
        expect(isValidIban(good)).toBe(true);
        const digit = Number(bban[position]);
        const changed = `${bban.slice(0, position)}${(digit + 1) % 10}${bban.slice(position + 1)}`;
        expect(isValidIban(`${good.slice(0, 4)}${changed}`)).toBe(false);
      }),
    );
  });
});

describe('parseIban', () => {
  it('returns the normalised IBAN', () => {
    expect(parseIban('account', 'gb82 west 1234 5698 7654 32')).toBe('GB82WEST12345698765432');
  });

  it('throws a ValidationError naming the parameter', () => {
    const error = catchError(() => parseIban('account', 'DE89370400440532013001'));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params).toEqual([
      { name: 'account', reason: 'the check digits do not match (typo?)' },
    ]);
  });
});
