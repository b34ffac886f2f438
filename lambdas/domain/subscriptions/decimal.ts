/**
 * Exact decimal numbers for the filters' numeric ranges. Herald's amounts are decimal strings ("12.50"),
 * and a binary float cannot hold most of them (0.1 + 0.2 is not 0.3), so a range over money compares
 * digits, never floats. Comparing two decimals costs a walk of their digits, linear in their length.
 */

/**
 * A decimal number written without redundancy: its sign, the digits before the point without leading
 * zeros, and those after it without trailing zeros. Zero is `{negative: false, integer: '', fraction: ''}`,
 * so every number has exactly one form and equal numbers have equal forms ("0.10", "0.1" and 0.1 alike).
 */
export interface Decimal {
  readonly negative: boolean;
  readonly integer: string;
  readonly fraction: string;
}

/** A decimal string: an optional minus, digits, and optionally a point and digits. No exponent, no `+`. */
const DECIMAL_TEXT = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

/** How JavaScript prints a finite number: the decimal form, or a mantissa and an exponent (`1e+21`). */
const NUMBER_TEXT = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:e([+-][0-9]+))?$/;

/**
 * The decimal a string writes (`"12.50"`, `"-3"`, `"0.001"`), or undefined when it is not one: an exponent,
 * a `+`, a space, a bare point (`"5."`, `".5"`) or anything else makes it no number.
 */
export function parseDecimal(text: string): Decimal | undefined {
  const parts = DECIMAL_TEXT.exec(text);
  if (parts === null) return undefined;
  const [, sign = '', integer = '', fraction = ''] = parts;
  return normalized(sign === '-', integer, fraction);
}

/**
 * The decimal of a finite number: the shortest decimal that reads back as the same double, which is how
 * JavaScript prints it. A number written with at most 15 significant digits reads back as exactly what
 * was written (`0.1` is 0.1, not the double's 0.1000000000000000055…).
 */
export function decimalOfNumber(value: number): Decimal {
  const parts = NUMBER_TEXT.exec(String(value));
  if (parts === null) throw new RangeError(`not a finite number: ${value}`);
  const [, sign = '', integer = '', fraction = '', exponent = '0'] = parts;
  const digits = integer + fraction;
  const point = integer.length + Number(exponent);
  if (point <= 0) return normalized(sign === '-', '', '0'.repeat(-point) + digits);
  if (point >= digits.length) return normalized(sign === '-', digits + '0'.repeat(point - digits.length), '');
  return normalized(sign === '-', digits.slice(0, point), digits.slice(point));
}

/**
 * How many significant digits a number prints with: from its first non-zero digit to its last. Above 15,
 * a number may not be what its JSON text wrote (the parser rounded it to the nearest double).
 */
export function significantDigits(value: number): number {
  const { integer, fraction } = decimalOfNumber(value);
  const digits = integer + fraction;
  return withoutTrailingZeros(digits.slice(leadingZeros(digits))).length;
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const magnitude = compareMagnitudes(a, b);
  return a.negative ? ((-magnitude || 0) as -1 | 0 | 1) : magnitude;
}

function compareMagnitudes(a: Decimal, b: Decimal): -1 | 0 | 1 {
  // Without leading zeros, the longer integer part is the larger number.
  if (a.integer.length !== b.integer.length) return a.integer.length < b.integer.length ? -1 : 1;
  if (a.integer !== b.integer) return a.integer < b.integer ? -1 : 1;
  // Without trailing zeros, fractions compare as digit strings: "5" < "51" < "6".
  if (a.fraction !== b.fraction) return a.fraction < b.fraction ? -1 : 1;
  return 0;
}

function normalized(negative: boolean, integer: string, fraction: string): Decimal {
  const whole = integer.slice(leadingZeros(integer));
  const part = withoutTrailingZeros(fraction);
  return { negative: negative && (whole !== '' || part !== ''), integer: whole, fraction: part };
}

// Loops rather than /0+$/: a payload's string may be long, and that pattern backtracks quadratically
// over a run of zeros followed by another digit.
function leadingZeros(digits: string): number {
  let count = 0;
  while (digits[count] === '0') count++;
  return count;
}

function withoutTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits[end - 1] === '0') end--;
  return digits.slice(0, end);
}
