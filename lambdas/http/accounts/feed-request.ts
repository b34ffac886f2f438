/**
 * An account's log over HTTP: `GET /accounts/{iban}/events?after_sequence=N&limit=L`, the catch-up feed
 * (the query read, the `Link: next` of an answer), and `POST /accounts/{iban}/replay` (its body, its answer).
 */

import type { APIGatewayProxyEvent } from 'aws-lambda';
import { FEED_LIMIT } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { joinUrl, pathSegment } from '#domain/urls';
import { parseInteger } from '#http/paging';
import { jsonBody } from '#http/request';

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
 * `<…/accounts/{iban}/events?after_sequence=<last>&limit=L>; rel="next"` when more may follow (an answer
 * can hold fewer than L events when their payloads are large, see `toFeedAnswer`: a receiver follows the
 * link until there is none, not until an answer is short); undefined otherwise.
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

/**
 * The body of a replay, `{"after_sequence": N}` (N ≥ 0).
 *
 * @throws ValidationError naming `after_sequence` when it is missing or not a whole number
 */
export function parseReplayRequest(event: APIGatewayProxyEvent): { afterSequence: number } {
  const { after_sequence } = jsonBody(event, ['after_sequence']);
  if (typeof after_sequence !== 'number' || !Number.isSafeInteger(after_sequence) || after_sequence < 0) {
    throw new ValidationError(
      'after_sequence',
      'is required: the sequence after which to send events again, 0 or more',
    );
  }
  return { afterSequence: after_sequence };
}

/** The answer of a replay. */
export interface ReplayView {
  readonly queued: readonly string[];
  /** Events that have used all their delivery cycles: not sent. */
  readonly used_up: readonly string[];
  readonly more: boolean;
  readonly next_after_sequence: number;
}

/** A replay's result as answered. */
export function toReplayView(result: {
  readonly queued: readonly string[];
  readonly usedUp: readonly string[];
  readonly more: boolean;
  readonly nextAfterSequence: number;
}): ReplayView {
  return {
    queued: result.queued,
    used_up: result.usedUp,
    more: result.more,
    next_after_sequence: result.nextAfterSequence,
  };
}
