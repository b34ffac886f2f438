/**
 * Offset paging as every listing reads and writes it (`GET /events`, `GET /accounts` and the operator's
 * accounts): `page` and `per_page` read strictly, the depth bound every request's cost rests on, and the
 * value of the `Link` header (RFC 8288; the seed's list bodies are bare arrays, so paging travels there).
 */
import { MAX_LIST_DEPTH } from '#config/limits';
import { ValidationError } from '#domain/errors';

/** `per_page` when the query has none (the seed's default). */
export const DEFAULT_PER_PAGE = 10;
/** Largest `per_page` (the seed's bound). */
export const MAX_PER_PAGE = 100;

/** Canonical decimal only: no sign, exponent, fraction, blank or leading zero. */
const WHOLE_NUMBER = /^(0|[1-9][0-9]*)$/;

/** Which page, and how long pages are. */
export interface PageNumbers {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
}

/**
 * Reads `page` (default 1) and `per_page` (1 to {@link MAX_PER_PAGE}, default {@link DEFAULT_PER_PAGE}).
 * Offset paging reads every entry it skips, so `page × per_page` is at most `MAX_LIST_DEPTH`.
 *
 * @param deeper - how to reach results beyond the depth, for the refusal
 * @throws ValidationError naming `page` or `per_page`
 */
export function parsePageNumbers(
  page: string | undefined,
  perPage: string | undefined,
  deeper: string,
): PageNumbers {
  const numbers = {
    page: page === undefined ? 1 : parseInteger('page', page, 1, Number.MAX_SAFE_INTEGER),
    perPage: perPage === undefined ? DEFAULT_PER_PAGE : parseInteger('per_page', perPage, 1, MAX_PER_PAGE),
  };
  if (numbers.page * numbers.perPage > MAX_LIST_DEPTH) {
    throw new ValidationError('page', `page × per_page must be at most ${MAX_LIST_DEPTH}; ${deeper}`);
  }
  return numbers;
}

/**
 * A whole-number parameter within `[min, max]`, in plain decimal (no sign, no leading zeros).
 *
 * @throws ValidationError naming the parameter and the range
 */
export function parseInteger(name: string, text: string, min: number, max: number): number {
  const value = WHOLE_NUMBER.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`;
    throw new ValidationError(name, `must be an integer ${range}`);
  }
  return value;
}

/** A `Link` header value: `<first>; rel="first"`, then `prev` and `next` when given, joined by `, `. */
export function linkHeaderValue(links: {
  first: string;
  prev?: string | undefined;
  next?: string | undefined;
}): string {
  return (['first', 'prev', 'next'] as const)
    .flatMap((rel) => (links[rel] === undefined ? [] : [`<${links[rel]}>; rel="${rel}"`]))
    .join(', ');
}
