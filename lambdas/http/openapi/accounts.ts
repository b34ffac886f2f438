/**
 * Accounts in the OpenAPI document: listing and reading them with their endpoint's health, setting a
 * webhook URL (`manage` keys) and enabling an endpoint again; their schemas and the IBAN parameter.
 */

import {
  DELIVERY_STATS_EVENTS,
  MAX_INDEX_ENTRIES_READ,
  MAX_LIST_DEPTH,
  RECOVERY_LIMIT,
} from '#config/limits';
import { ENDPOINT_STATES } from '#delivery/endpoint-health-port';
import { STATS_WINDOW_NAMES } from '#domain/delivery-stats';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import {
  ACCOUNT_LIST_QUERY,
  ACCOUNT_WRITE_BODY,
  DELIVERY_ORDER,
  DELIVERY_STATS_QUERY,
  ENABLE_BODY,
} from '#http/accounts/account-request';
import {
  array,
  closed,
  constant,
  deprecated,
  EVENT_ID,
  flag,
  IBAN,
  int,
  nullable,
  oneOfValues,
  optional,
  ref,
  string,
  text,
  timestamp,
  uri,
} from '#http/schema';
import { ENDPOINT_SECURITY_VIEW } from './endpoint-security';
import type { OperationObject, ParameterObject } from './objects';
import { badRequest, notFound, ok, pageOf, parameterRef, queryParameters, responseRef } from './objects';
import { operation, type RouteDoc, type SharedOperation } from './operation';

/** What the account writes' descriptions say about their fields. */
export const ACCOUNT_WRITE_RULE =
  'Every field is optional and the write changes only those it names: absent keeps what is stored, ' +
  '`null` removes it (`webhook_url` and the endpoint-security fields), so a client sends only what changes.';

/** Attempts, successes and median latency, of a window or a bucket. */
const TALLY = {
  attempts: int('Attempts made.', 0),
  succeeded: int('Attempts answered 2xx.', 0),
  median_ms: nullable(int('Median latency in ms; null without attempts.', 0)),
};

/** The health of an account's webhook endpoint. */
export const ENDPOINT_HEALTH = closed(
  {
    state: oneOfValues(
      ENDPOINT_STATES,
      '`healthy`: webhooks go out freely. `degraded`: recent attempts failed or were slow; at most a few ' +
        'deliveries at a time, and while the circuit is open none but one probe. `disabled`: nothing is ' +
        'sent and new events settle `skipped` until the endpoint is enabled again.',
    ),
    since: nullable(timestamp('When the endpoint entered this state')),
    reason: nullable(string({ description: 'Why it is in this state.' })),
    consecutive_failures: int('Failed attempts since the last success.', 0),
    failing_since: nullable(timestamp('First failure of the current run of failures')),
    recovered_at: nullable(
      timestamp(
        'When the endpoint last became healthy again: the success that ended a run of failures or slow answers ' +
          '(null if it never had to). Not the latest delivery: a healthy endpoint’s successes write nothing; ' +
          'see GET /accounts/{iban}/delivery-stats',
      ),
    ),
    last_success_at: deprecated(
      nullable(timestamp('Deprecated: the former name of `recovered_at`, the same value')),
    ),
    last_failure_at: nullable(timestamp('Last failed attempt')),
    recent_latency_ms: nullable(int('Duration of the last attempt written, in ms.', 0)),
    circuit_open_until: nullable(timestamp('Until when no attempt but a probe goes out')),
  },
  "Health of the account's webhook endpoint.",
);

/** An account with its endpoint. */
export const ACCOUNT = closed({
  iban: IBAN,
  webhook_url: nullable(
    uri(
      'Where webhooks go; null: events are recorded as `skipped` and not sent. Shown whole to the ' +
        "organization's `manage` keys and to operators; to a `read` key (or read-only portal session) with " +
        'the values of its query (and its fragment) replaced by `***`, since receivers put tokens there.',
    ),
  ),
  endpoint_id: nullable(
    text(
      "The webhook endpoint's id: random, not derived from the IBAN, so metrics and alarms " +
        '(`EndpointDisabled`, `CircuitOpened`, `EndpointRecovered`, dimension `endpoint`) name the ' +
        'endpoint with it instead. Null for an account created before endpoint ids until its next write.',
      { pattern: ENDPOINT_ID_PATTERN.source },
    ),
  ),
  delivery_order: DELIVERY_ORDER,
  webhook_health: ref('EndpointHealth', ENDPOINT_HEALTH),
  ...ENDPOINT_SECURITY_VIEW,
  _links: closed({ self: uri('This account.'), events: uri('The events of this account.') }),
});

/** One window of an endpoint's delivery summary. */
export const DELIVERY_WINDOW = closed({
  window: oneOfValues(STATS_WINDOW_NAMES, 'The window.'),
  since: timestamp('Start of the window'),
  until: timestamp('End of the window (now)'),
  bucket_minutes: int('Length of each bucket.', 1),
  ...TALLY,
  max_ms: nullable(int('Slowest attempt in ms; null without attempts.', 0)),
  buckets: array(closed({ start: timestamp('Start of the bucket'), ...TALLY }), {
    description: 'Oldest first; each attempt counts in the bucket its start falls in.',
  }),
});

/** An endpoint's delivery summary. */
export const DELIVERY_STATS = closed({
  iban: IBAN,
  events_read: int('Events whose attempts were counted (the latest in the longest window).', 0, {
    maximum: DELIVERY_STATS_EVENTS,
  }),
  complete: flag('False when the window held more of the account’s events than one summary reads.'),
  windows: array(ref('DeliveryWindow', DELIVERY_WINDOW)),
});

/** What enabling an endpoint did. */
export const ENDPOINT_ENABLED = closed({
  iban: IBAN,
  webhook_health: constant('healthy'),
  queued: array(EVENT_ID, { description: 'Events that start a new cycle (with `recover_since`).' }),
  more: flag(
    'The recovery has more of its window to examine: send the same request with `cursor` for the next step.',
  ),
  cursor: optional(text('Where the next step goes on; only while `more` is true.')),
});

/** The schemas of accounts, merged into `components.schemas`. */
export const ACCOUNT_SCHEMAS = {
  Account: ACCOUNT,
  EndpointHealth: ENDPOINT_HEALTH,
  DeliveryStats: DELIVERY_STATS,
  DeliveryWindow: DELIVERY_WINDOW,
  EndpointEnabled: ENDPOINT_ENABLED,
};

/** The IBAN in the path, merged into `components.parameters`. */
export const ACCOUNT_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  Iban: {
    name: 'iban',
    in: 'path',
    required: true,
    description: 'IBAN, any case; blanks are removed.',
    schema: { type: 'string' },
  },
};

/** The answer of a read or write of one account (an organization's or the operator's): the account now. */
export const ACCOUNT_ANSWER = ok('The account.', ref('Account', ACCOUNT));

/** An IBAN the organization has no account of (another organization's account is answered alike). */
const NO_SUCH_ACCOUNT = notFound('No such account in the organization.');

/**
 * The 404 of a route both an organization key and an operator (naming `org`) call: the account is not
 * the caller's organization's, or does not exist.
 */
export const NO_ACCOUNT = notFound('No such account (in the organization, for an organization key).');

/** A save of the endpoint's security material that kept losing to concurrent ones. */
export const ENDPOINT_BUSY =
  'Other requests kept changing the endpoint at the same time; nothing of this one was stored: send it again.';

/**
 * A page of accounts, for an organization key's listing and the operator's
 * (`listOrganizationAccounts`): the paging parameters and answers both share.
 */
export const ACCOUNT_LISTING: Pick<OperationObject, 'description' | 'responses'> & {
  readonly parameters: readonly ParameterObject[];
} = {
  description:
    'By IBAN ascending, paged like `GET /events`: `page` from 1, `per_page` 1 to 100 (default 10), and ' +
    `each request reads at most \`page × per_page\` (${MAX_LIST_DEPTH} at most) index entries and its page ` +
    'of accounts, however many the organization has. The `Link` header has `first`, `prev` after page 1 and ' +
    '`next` while more follow; past the depth bound `next` is page 1 `after` the last IBAN, so following ' +
    '`next` reaches every account.',
  parameters: queryParameters(ACCOUNT_LIST_QUERY),
  responses: {
    '200': pageOf('accounts', ref('Account', ACCOUNT)),
    '400': badRequest(
      'A query parameter is unknown, repeated or invalid (`after` is not an IBAN), or the page is deeper than the bound.',
    ),
  },
};

/** Enabling an endpoint again, for an organization key and (the `adminEnableEndpoint` route) operators. */
export const ENABLE: SharedOperation = {
  summary: "Enable the account's webhook endpoint again",
  description:
    'Makes a `disabled` or `degraded` endpoint `healthy` (failure count, open circuit and reason cleared). ' +
    'With `recover_since`, the `failed` and `skipped` events of the account triggered since then start a new cycle, ' +
    `one bounded step per request: it walks the status indexes oldest first, examining at most ${MAX_INDEX_ENTRIES_READ} ` +
    `entries and starting at most ${RECOVERY_LIMIT} cycles. While the answer says \`more\`, send the same ` +
    '`recover_since` again with its `cursor`: each step goes on past every entry the earlier ones examined, so a ' +
    'backlog of any size completes.',
  parameters: [parameterRef('Iban')],
  requestBody: ENABLE_BODY,
  responses: {
    '200': ok('Enabled.', ref('EndpointEnabled', ENDPOINT_ENABLED)),
    '400': badRequest(
      'The IBAN, the body, `recover_since` or `cursor` is malformed, or `cursor` came without `recover_since`.',
    ),
    '404': NO_ACCOUNT,
  },
};

/** The account routes of an organization key. */
export const ACCOUNT_ROUTES: readonly RouteDoc[] = [
  operation('GET', '/accounts', {
    ...ACCOUNT_LISTING,
    operationId: 'listAccounts',
    summary: "The organization's accounts, a page at a time",
    tags: ['accounts'],
  }),
  operation('GET', '/accounts/{iban}', {
    operationId: 'getAccount',
    summary: 'One account',
    tags: ['accounts'],
    parameters: [parameterRef('Iban')],
    responses: {
      '200': ACCOUNT_ANSWER,
      '400': badRequest('The IBAN is malformed or its check digits do not match.'),
      '404': NO_SUCH_ACCOUNT,
    },
  }),
  operation('GET', '/accounts/{iban}/delivery-stats', {
    operationId: 'getDeliveryStats',
    summary: "One account endpoint's delivery summary (what the portal's charts draw)",
    description:
      `Success and failure counts and the median latency per bucket (24 of an hour for \`24h\`, 28 of six ` +
      `hours for \`7d\`) and per window, computed from the attempts of the account's latest ` +
      `${DELIVERY_STATS_EVENTS} events triggered within the (longest) window: one index Query and one ` +
      'batch read of their attempts, whatever the organization holds. `complete` is false when the window ' +
      'held more of its events. Without `window`, both windows from the same read.',
    tags: ['accounts'],
    parameters: [parameterRef('Iban'), ...queryParameters(DELIVERY_STATS_QUERY)],
    responses: {
      '200': ok('The summary.', ref('DeliveryStats', DELIVERY_STATS)),
      '400': badRequest('The IBAN or `window` is invalid, or a parameter is unknown.'),
      '404': NO_SUCH_ACCOUNT,
    },
  }),
  operation('PUT', '/accounts/{iban}', {
    operationId: 'setWebhookUrl',
    summary: "Change one of the organization's accounts: its webhook URL, order or endpoint security",
    description: ACCOUNT_WRITE_RULE,
    tags: ['accounts'],
    parameters: [parameterRef('Iban')],
    requestBody: ACCOUNT_WRITE_BODY,
    responses: {
      '200': ACCOUNT_ANSWER,
      '400': badRequest(
        'The IBAN or the URL is invalid (the URL policy refuses it, e.g. not https or a private address).',
      ),
      '404': NO_SUCH_ACCOUNT,
      '409': responseRef('Conflict', ENDPOINT_BUSY),
    },
  }),
  operation('POST', '/accounts/{iban}/enable', {
    ...ENABLE,
    operationId: 'enableEndpoint',
    tags: ['accounts'],
  }),
];
