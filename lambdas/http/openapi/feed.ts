/**
 * Order and completeness in the OpenAPI document: the catch-up feed `GET /accounts/{iban}/events`, its
 * `Link: next` header, replay, and the operator's upgrade to account logs.
 */
import { MAX_ATTEMPTS } from '#config/delivery';
import { FEED_LIMIT, MIGRATION_CHUNK, REPLAY_CHUNK } from '#config/limits';
import { FEED_QUERY, REPLAY_BODY } from '#http/accounts/feed-request';
import { CURSOR_BODY } from '#http/events/event-request';
import { CURSOR } from '#http/paging';
import { array, closed, EVENT_ID, flag, int, optional, ref } from '#http/schema';
import { FEED_EVENT } from './events';
import type { HeaderObject } from './objects';
import { badRequest, json, notFound, ok, parameterRef, queryParameters } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** What one replay request queued. */
export const REPLAY_RESULT = closed({
  queued: array(EVENT_ID, { description: 'Events that start a new cycle, in sequence order.' }),
  used_up: array(EVENT_ID, { description: 'Events with no cycle left: not sent.' }),
  more: flag('More events may follow: send again from `next_after_sequence`.'),
  next_after_sequence: int('The last sequence this request examined.', 0),
});

/** What one step of the upgrade to account logs did. */
export const MIGRATION_STEP = closed({
  migrated: int('Events moved into their account logs.', 0),
  pending: int('Events left because their delivery was under way.', 0),
  more: flag('Send the request again with `cursor`.'),
  cursor: optional(CURSOR),
});

/** Replaying an account, for an organization key and (the `adminReplayAccount` route) operators. */
export const REPLAY: SharedOperation = {
  summary: "Send an account's events after a sequence again, whatever their status",
  description:
    `Up to ${REPLAY_CHUNK} of the account's events with a \`sequence\` above \`after_sequence\`, in sequence ` +
    `order (one read of its log): each \`success\`, \`failed\` or \`skipped\` one starts a new cycle of up to ` +
    `${MAX_ATTEMPTS} attempts within the cap on cycles (one that has used them all is listed in \`used_up\` and ` +
    'not sent); `pending` ones are on their way already and are left as they are. For an account with ' +
    '`delivery_order: ordered` they are delivered in sequence order again (the events after the first one wait ' +
    'for it). While `more` is true, send the request again with `after_sequence` = `next_after_sequence`.',
  parameters: [parameterRef('Iban')],
  requestBody: REPLAY_BODY,
  responses: {
    '202': ok('What this chunk queued.', REPLAY_RESULT),
    '400': badRequest('The IBAN or `after_sequence` is invalid, or the body has another field.'),
    '404': notFound('No such account.'),
  },
};

/** The feed's `Link` header, merged into `components.headers`. */
export const FEED_LINK_HEADER: Readonly<Record<string, HeaderObject>> = {
  FeedLink: {
    description:
      'RFC 8288 `rel="next"`: the same feed after the last event returned, present while more may follow ' +
      '(an answer holds fewer than `limit` events when their payloads would take it past what one answer ' +
      'carries, about 6 MB); follow it until it is absent.',
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
      'and delivery state but not its attempts (`GET /events/{id}` has them): the way to be sure of having ' +
      'everything. Ordered by sequence, not by `triggered_at`, so an event published later with an earlier ' +
      '`triggered_at` is not skipped, and events published meanwhile only ever append. One consistent read ' +
      `of the account log, at most ${FEED_LIMIT} events, whatever the account holds; fewer when their ` +
      'payloads would take it past what one answer carries (about 6 MB; follow `Link`). An IBAN the ' +
      'organization has no events of answers an empty array. Pair it with webhooks: apply each webhook ' +
      'whose `sequence` is the next one you expect, and when one skips ahead (or on start), read this feed ' +
      'from the last sequence applied.',
    tags: ['events'],
    parameters: [parameterRef('Iban'), ...queryParameters(FEED_QUERY)],
    responses: {
      '200': {
        description: 'Up to `limit` events, ascending by sequence; empty when none follow.',
        headers: { Link: { $ref: '#/components/headers/FeedLink' } },
        content: json({ type: 'array', maxItems: FEED_LIMIT, items: ref('FeedEvent', FEED_EVENT) }),
      },
      '400': badRequest(
        'The IBAN, `after_sequence` or `limit` is invalid, or a parameter is unknown or repeated.',
      ),
    },
  }),
  operation('POST', '/accounts/{iban}/replay', {
    ...REPLAY,
    operationId: 'replayAccount',
    tags: ['delivery'],
  }),
];

/** The upgrade to account logs (`migrateEvents`, operators only). */
export const MIGRATE: SharedOperation = {
  summary: 'Move events stored before account logs into them (the upgrade to sequences)',
  description:
    'Once after upgrading from a version without per-account sequences: each event stored before gets the ' +
    'next sequence of its account (after the events published since the upgrade; oldest first among ' +
    "themselves) and joins the account's feed; its old item becomes its id's claim, in one transaction. " +
    `Each request examines ${MIGRATION_CHUNK} of the organization's events, oldest first; repeat it with ` +
    '`cursor` while `more` is true, and again later while `pending` (events whose delivery was under way, ' +
    'left for now) is not 0. Until then those events stay listed, readable and deliverable, with `sequence` null.',
  parameters: [parameterRef('OrgId')],
  requestBody: CURSOR_BODY,
  responses: {
    '200': ok('What this request did.', MIGRATION_STEP),
    '400': badRequest('The body or `cursor` is invalid.'),
  },
};
