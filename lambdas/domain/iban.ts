/**
 * IBAN syntax per ISO 13616: country code, two check digits (ISO 7064 MOD 97-10) and the BBAN. Whether
 * the account exists is not knowable here; this only rejects typos and garbage.
 */
import { ValidationError } from './errors';

/**
 * IBAN lengths of the countries in the SWIFT IBAN registry (plus the territories that use their
 * parent's format, e.g. AX for FI and the French overseas codes). Other country codes are accepted with
 * the generic length bounds, so a country joining the registry does not need a release.
 */
// biome-ignore format: a table reads better than one country per line
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AX: 18, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BL: 27,
  BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29,
  ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GF: 27, GI: 23, GL: 18, GP: 27, GR: 27,
  GT: 28, HN: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20,
  LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MF: 27, MK: 19,
  MN: 20, MQ: 27, MR: 27, MT: 31, MU: 30, NC: 27, NI: 28, NL: 18, NO: 15, OM: 23, PF: 27, PK: 24,
  PL: 28, PM: 27, PS: 29, PT: 25, QA: 29, RE: 27, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18,
  SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TF: 27, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, WF: 27, XK: 20, YE: 30, YT: 27,
};

/** Shortest IBAN of any country (Norway). */
export const IBAN_MIN_LENGTH = 15;
/** Longest IBAN ISO 13616 allows. */
export const IBAN_MAX_LENGTH = 34;

const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/;

/** Removes all whitespace and upper-cases: `de89 3704 0044…` → `DE893704…`. */
export function normalizeIban(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/**
 * Why the text is not a valid IBAN, or undefined when it is. The text is normalised first.
 */
export function ibanProblem(text: string): string | undefined {
  const iban = normalizeIban(text);
  if (!IBAN_SHAPE.test(iban)) {
    return 'expected an IBAN: 2-letter country code, 2 check digits, then letters and digits';
  }
  const country = iban.slice(0, 2);
  const expected = IBAN_LENGTHS[country];
  if (expected !== undefined && iban.length !== expected) {
    return `an IBAN of ${country} has ${expected} characters, got ${iban.length}`;
  }
  if (iban.length < IBAN_MIN_LENGTH || iban.length > IBAN_MAX_LENGTH) {
    return `an IBAN has ${IBAN_MIN_LENGTH} to ${IBAN_MAX_LENGTH} characters, got ${iban.length}`;
  }
  // 00, 01 and 99 pass the MOD 97 test (they are congruent to 97, 98 and 02) but are never issued.
  const check = iban.slice(2, 4);
  if (check === '00' || check === '01' || check === '99' || mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) {
    return 'the check digits do not match (typo?)';
  }
  return undefined;
}

/** Whether the text, once normalised, is a syntactically valid IBAN with matching check digits. */
export function isValidIban(text: string): boolean {
  return ibanProblem(text) === undefined;
}

/**
 * The normalised IBAN.
 *
 * @param name - the parameter, named in the error
 * @throws ValidationError saying what is wrong
 */
export function parseIban(name: string, text: string): string {
  const problem = ibanProblem(text);
  if (problem !== undefined) throw new ValidationError(name, problem);
  return normalizeIban(text);
}

/** An IBAN as logs may show it: country, check digits and the last four characters, `DE89…3000`. */
export function maskIban(iban: string): string {
  return `${iban.slice(0, 4)}…${iban.slice(-4)}`;
}

/**
 * Candidates for {@link maskIbans}: an IBAN-shaped run of letters and digits in any case, single blanks
 * allowed between them, as {@link parseIban} accepts it (`de89 3704 …` as well as `DE8937…`).
 */
const IBAN_IN_TEXT = /(?<![A-Za-z0-9])[A-Za-z]{2}[0-9]{2}(?:\s?[A-Za-z0-9]){11,30}(?![A-Za-z0-9])/g;

/**
 * The text with every valid IBAN in it masked by {@link maskIban} (other runs are left alone), however
 * the IBAN is written: any case, with or without blanks.
 */
export function maskIbans(text: string): string {
  const pattern = new RegExp(IBAN_IN_TEXT);
  let masked = '';
  let from = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const iban = leadingIban(match[0]);
    // The scan goes on right after the IBAN (or the candidate's first word): blanks may have joined the
    // words after it, another IBAN among them, to the candidate.
    const end = match.index + (iban ?? match[0].split(/\s/)[0] ?? match[0]).length;
    if (iban !== undefined) {
      masked += text.slice(from, match.index) + maskIban(normalizeIban(iban));
      from = end;
    }
    pattern.lastIndex = end;
  }
  return masked + text.slice(from);
}

/** The longest valid IBAN a candidate starts with, ending before a blank or at its end. */
function leadingIban(candidate: string): string | undefined {
  for (let end = candidate.length; end > 0; end--) {
    const whole = end === candidate.length || /\s/.test(candidate[end] ?? '');
    if (whole && isValidIban(candidate.slice(0, end))) return candidate.slice(0, end);
  }
  return undefined;
}

/** The IBAN of a country code and a BBAN, with its check digits computed (seeded and test accounts). */
export function ibanWithCheckDigits(country: string, bban: string): string {
  return `${country}${String(98 - mod97(`${bban}${country}00`)).padStart(2, '0')}${bban}`;
}

/** Remainder mod 97 of the number the text spells with A=10 … Z=35, digit by digit to stay in range. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = Number.parseInt(char, 36);
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder;
}
