/**
 * `GET /accounts/{iban}/events?after_sequence=N&limit=L`, the catch-up feed: the query read, and the
 * `Link: next` of an answer.
 */
import { FEED_LIMIT } from '#config/limits';
import { joinUrl, pathSegment } from '#domain/urls';
import { parseInteger } from '#http/paging';

/** The feed's query parameters. */
export const FEED_PARAMS = ['after_sequence', 'limit'] as const;

/** What a feed request asks for. */
export interface FeedQuery {
  /** Events with a sequence above this one; 0 from the start. */
  readonly afterSequence: number;
  /** At most this many, 1 to {@link FEED_LIMIT}. */
  readonly limit: number;
}

/**
 * The feed's query from the request's parameters (each at most once, checked by the caller).
 *
 * @throws ValidationError naming `after_sequence` or `limit` and the range allowed
 */
export function parseFeedQuery(params: Readonly<Record<string, string>>): FeedQuery {
  const after = params.after_sequence;
  const limit = params.limit;
  return {
    afterSequence:
      after === undefined ? 0 : parseInteger('after_sequence', after, 0, Number.MAX_SAFE_INTEGER),
    limit: limit === undefined ? FEED_LIMIT : parseInteger('limit', limit, 1, FEED_LIMIT),
  };
}

/**
 * `<…/accounts/{iban}/events?after_sequence=<last>&limit=L>; rel="next"` when the answer was full (more
 * may follow: a receiver follows it until an answer is not full); undefined otherwise.
 */
export function feedLinkHeader(
  baseUrl: string,
  iban: string,
  query: FeedQuery,
  lastSequence: number | undefined,
): string | undefined {
  if (lastSequence === undefined) return undefined;
  const url = joinUrl(baseUrl, `/accounts/${pathSegment(iban)}/events`);
  return `<${url}?after_sequence=${lastSequence}&limit=${query.limit}>; rel="next"`;
}
