/**
 * An account's log over HTTP: `GET /accounts/{iban}/events?after_sequence=N&limit=L`, the catch-up feed
 * (the query read, the `Link: next` of an answer), and `POST /accounts/{iban}/replay` (its body, its answer).
 */

import type { APIGatewayProxyEvent } from 'aws-lambda';
import { FEED_LIMIT } from '#config/limits';
import { joinUrl, pathSegment } from '#domain/urls';
import { readBody, readQuery } from '#http/read-request';
import { body, closed, described, ENDPOINT_ID, int, optional, withReason } from '#http/schema';

/** The feed's query. */
export const FEED_QUERY = closed({
  after_sequence: optional(
    int(
      'Only events with a `sequence` above this one: the last sequence the receiver applied (0 from the start).',
      0,
      { default: 0 },
    ),
  ),
  limit: optional(int('At most this many events.', 1, { maximum: FEED_LIMIT, default: FEED_LIMIT })),
});

/** What a feed request asks for. */
export interface FeedQuery {
  /** Events with a sequence above this one; 0 from the start. */
  readonly afterSequence: number;
  /** At most this many, 1 to {@link FEED_LIMIT}. */
  readonly limit: number;
}

/**
 * The feed's query, by {@link FEED_QUERY}.
 *
 * @throws ValidationError naming `after_sequence` or `limit` and the range allowed, or an unknown or
 *   repeated parameter
 */
export function parseFeedQuery(event: APIGatewayProxyEvent): FeedQuery {
  const query = readQuery(event.multiValueQueryStringParameters, FEED_QUERY);
  return { afterSequence: query.after_sequence ?? 0, limit: query.limit ?? FEED_LIMIT };
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

/** The body of a replay. */
export const REPLAY_BODY = body(
  closed({
    after_sequence: withReason(
      int('Events with a sequence above this one are sent again.', 0, { maximum: Number.MAX_SAFE_INTEGER }),
      'is required: the sequence after which to send events again, 0 or more',
    ),
    endpoint_id: optional(
      described(
        ENDPOINT_ID,
        'Only the events routed to this endpoint of the account, sent again there alone (`GET /accounts/{iban}/endpoints`); absent: every event at every endpoint it was routed to.',
      ),
    ),
  }),
);

/**
 * The body of a replay, `{"after_sequence": N, "endpoint_id"?: "ep_…"}` (N ≥ 0).
 *
 * @throws ValidationError naming `after_sequence` when it is missing or not a whole number
 */
export function parseReplayRequest(event: APIGatewayProxyEvent): {
  afterSequence: number;
  endpointId?: string;
} {
  const { after_sequence, endpoint_id } = readBody(event, REPLAY_BODY);
  return endpoint_id === undefined
    ? { afterSequence: after_sequence }
    : { afterSequence: after_sequence, endpointId: endpoint_id };
}
