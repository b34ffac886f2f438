/**
 * Offset paging as every listing reads and writes it (`GET /events`, `GET /accounts` and the operator's
 * accounts): the `page` and `per_page` parameters, the depth bound every request's cost rests on, and the
 * value of the `Link` header (RFC 8288; the seed's list bodies are bare arrays, so paging travels there);
 * and the `cursor` with which a chunked request goes on.
 */
import { MAX_LIST_DEPTH } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { int, optional, text, withReason } from '#http/schema';

/** `per_page` when the query has none (the seed's default). */
export const DEFAULT_PER_PAGE = 10;
/** Largest `per_page` (the seed's bound). */
export const MAX_PER_PAGE = 100;

/** The paging parameters of every listing's query: `page` and `per_page`, in plain decimal. */
export const PAGING_QUERY = {
  page: optional(int('Page, from 1, in plain decimal (`05` answers 400).', 1, { default: 1 })),
  per_page: optional(int('Items per page.', 1, { maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })),
};

/** Where a chunked request goes on: the `cursor` the previous answer returned, sent back as it was. */
export const CURSOR = withReason(
  text('Where the previous request stopped: its `cursor`.', { minLength: 1 }),
  'must be the cursor the previous answer returned',
);

/** Which page, and how long pages are. */
export interface PageNumbers {
  /** 1-based. */
  readonly page: number;
  readonly perPage: number;
}

/**
 * `page` (default 1) and `per_page` (default {@link DEFAULT_PER_PAGE}), as {@link PAGING_QUERY} read them.
 * Offset paging reads every entry it skips, so `page × per_page` is at most `MAX_LIST_DEPTH`.
 *
 * @param deeper - how to reach results beyond the depth, for the refusal
 * @throws ValidationError naming `page`
 */
export function pageNumbers(
  query: { readonly page?: number; readonly per_page?: number },
  deeper: string,
): PageNumbers {
  const numbers = { page: query.page ?? 1, perPage: query.per_page ?? DEFAULT_PER_PAGE };
  if (numbers.page * numbers.perPage > MAX_LIST_DEPTH) {
    throw new ValidationError('page', `page × per_page must be at most ${MAX_LIST_DEPTH}; ${deeper}`);
  }
  return numbers;
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
