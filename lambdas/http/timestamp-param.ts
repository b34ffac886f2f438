/**
 * Timestamps in requests: the API accepts the form it renders (`YYYY-MM-DD HH:MM:SS`, UTC) in query
 * parameters (`since`, `until`) and bodies (`recover_since`), and names the parameter when it cannot.
 */
import { ValidationError } from '#domain/errors';
import { type Schema, text, withReason } from '#http/schema';

/** The reason given when a timestamp parameter cannot be read. */
export const TIMESTAMP_PARAM_REASON = 'expected "YYYY-MM-DD HH:MM:SS" (UTC)';

/**
 * The accepted parameter forms: the rendered `YYYY-MM-DD HH:MM:SS`, the same with `+` for the space (a
 * form-encoded space that a client or gateway left undecoded), and ISO `YYYY-MM-DDTHH:MM:SSZ`. `T`
 * without `Z` is refused: in ISO 8601 it means local time, which a server cannot know.
 */
const TIMESTAMP_PARAM = /^(\d{4})-(\d{2})-(\d{2})(?:[ +](\d{2}):(\d{2}):(\d{2})|T(\d{2}):(\d{2}):(\d{2})Z)$/;

/** A timestamp a request may carry, in every form {@link parseTimestampParam} reads. */
export const timestampParam = (description: string): Schema<string> =>
  withReason(text(description, { pattern: TIMESTAMP_PARAM.source }), TIMESTAMP_PARAM_REASON);

/**
 * Reads a timestamp query parameter into an ISO string with milliseconds, e.g.
 * `2026-11-21T12:00:00.000Z`. Accepted: `YYYY-MM-DD HH:MM:SS` (the rendered form), the same with `+`
 * for the space, and `YYYY-MM-DDTHH:MM:SSZ`; always UTC, no fractions, no offsets.
 *
 * @param name - the parameter, named in the error
 * @throws ValidationError for another form or an impossible date or time (2026-02-30, 24:00:00, :60)
 */
export function parseTimestampParam(name: string, text: string): string {
  const match = TIMESTAMP_PARAM.exec(text);
  if (match === null) throw new ValidationError(name, TIMESTAMP_PARAM_REASON);
  const [, year = '', month = '', day = ''] = match;
  const hour = match[4] ?? match[7] ?? '';
  const minute = match[5] ?? match[8] ?? '';
  const second = match[6] ?? match[9] ?? '';
  const m = Number(month);
  const valid =
    m >= 1 &&
    m <= 12 &&
    Number(day) >= 1 &&
    Number(day) <= daysInMonth(Number(year), m) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59;
  if (!valid) throw new ValidationError(name, TIMESTAMP_PARAM_REASON);
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.000Z`;
}

/** Days of a month of the proleptic Gregorian calendar (month 1..12). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
