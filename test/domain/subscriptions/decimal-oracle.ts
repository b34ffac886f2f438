/**
 * The tests' oracle for decimals: a decimal text as an integer over a power of ten, compared with BigInt
 * (nothing shared with the code under test), and generators of decimal texts.
 */
import fc from 'fast-check';

function scaled(text: string): { units: bigint; scale: number } {
  const [whole = '', fraction = ''] = text.split('.');
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** -1, 0 or 1 as the decimal text `a` is below, equal to or above `b`. */
export function oracleCompare(a: string, b: string): -1 | 0 | 1 {
  const x = scaled(a);
  const y = scaled(b);
  const left = x.units * 10n ** BigInt(y.scale);
  const right = y.units * 10n ** BigInt(x.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Decimal texts as payloads and filters write them: a sign, leading and trailing zeros, long digit runs. */
export const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^[0-9]{1,25}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
  )
  .map(
    ([negative, whole, fraction]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  );

/**
 * A decimal text of at most 15 significant digits placed anywhere from 1e-25 to 1e30: what a JSON number
 * carries exactly.
 */
export const shortDecimal = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 999_999_999_999_999n }), fc.integer({ min: -25, max: 30 }))
  .map(([negative, digits, shift]) => {
    const text = digits.toString();
    const point = text.length + shift;
    const body =
      point <= 0
        ? `0.${'0'.repeat(-point)}${text}`
        : point >= text.length
          ? text + '0'.repeat(point - text.length)
          : `${text.slice(0, point)}.${text.slice(point)}`;
    return `${negative ? '-' : ''}${body}`;
  });
