/**
 * The catch-up feed's part of the OpenAPI document: `GET /accounts/{iban}/events`, its parameters and
 * its `Link: next` header.
 */
import { FEED_LIMIT } from '#config/limits';
import type { HeaderObject, ParameterObject } from './objects';
import { json, parameterRef, responseRef } from './objects';
import { operation, type RouteDoc } from './operation';
import { int, schemaRef } from './schemas';

/** The feed's query parameters, merged into `components.parameters`. */
export const FEED_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  AfterSequence: {
    name: 'after_sequence',
    in: 'query',
    description:
      'Only events with a `sequence` above this one: the last sequence the receiver applied (0 from the start).',
    schema: int('A sequence.', 0, { default: 0 }),
  },
  FeedLimit: {
    name: 'limit',
    in: 'query',
    description: 'At most this many events.',
    schema: int('Size.', 1, { maximum: FEED_LIMIT, default: FEED_LIMIT }),
  },
};

/** The feed's `Link` header, merged into `components.headers`. */
export const FEED_LINK_HEADER: Readonly<Record<string, HeaderObject>> = {
  FeedLink: {
    description:
      'RFC 8288 `rel="next"`: the same feed after the last event returned, present when the answer is full ' +
      '(more may follow); follow it until an answer has fewer than `limit` events.',
    required: false,
    schema: { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  },
};

/** The feed's route. */
export const FEED_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/accounts/{iban}/events', {
    operationId: 'readAccountFeed',
    summary: "One account's events after a sequence, in sequence order (the catch-up feed)",
    description:
      'The events of the account with a `sequence` above `after_sequence`, ascending, each with its payload ' +
      'and attempts: the way to be sure of having everything. Ordered by sequence, not by `triggered_at`, so ' +
      'an event published later with an earlier `triggered_at` is not skipped, and events published ' +
      'meanwhile only ever append. One consistent read of the account log, at most ' +
      `${FEED_LIMIT} events, whatever the account holds. An IBAN the organization has no events of ` +
      'answers an empty array. Pair it with webhooks: apply each webhook whose `sequence` is the next one ' +
      'you expect, and when one skips ahead (or on start), read this feed from the last sequence applied.',
    tags: ['events'],
    parameters: [parameterRef('Iban'), parameterRef('AfterSequence'), parameterRef('FeedLimit')],
    responses: {
      '200': {
        description: 'Up to `limit` events, ascending by sequence; empty when none follow.',
        headers: { Link: { $ref: '#/components/headers/FeedLink' } },
        content: json({ type: 'array', maxItems: FEED_LIMIT, items: schemaRef('EventDetail') }),
      },
      '400': responseRef(
        'BadRequest',
        'The IBAN, `after_sequence` or `limit` is invalid, or a parameter is unknown or repeated.',
      ),
    },
  }),
];
