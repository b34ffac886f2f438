/**
 * The one definition of Herald's storage, queue and routing shapes.
 *
 * Both the CDK stack (`lib/`) and the local runtime (`scripts/local/`) import this module, so the
 * table keys, the stream filter, the queue attributes and the API routes cannot drift between AWS and
 * the emulators. It is plain data on purpose: importing it must not load aws-cdk-lib.
 */

/** Attribute type of a DynamoDB key attribute. */
export type KeyType = 'S' | 'N';

/** A key attribute of the table or an index. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

/** A global secondary index of the events table. */
export interface IndexShape {
  readonly name: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey: KeyAttribute;
  /**
   * Non-key attributes copied into the index. Only attributes that never change after an item is
   * written belong here: projecting a mutable one (status, retries) would add an index write to every
   * delivery attempt.
   */
  readonly nonKeyAttributes: readonly string[];
}

/**
 * The events table: organizations, API keys, accounts, events and their delivery attempts in one table.
 * Item layouts are documented in docs/design.md.
 */
export const EVENTS_TABLE = {
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  /** Only the new image is needed: the forwarder reads the event id and status from it. */
  streamViewType: 'NEW_IMAGE',
  /** Epoch seconds; set only when the stack enables event retention. */
  timeToLiveAttribute: 'expires_at',
  /**
   * `by-org`: an organization's events newest first (`gsi1pk = ORG#<id>#EVENTS`,
   * `gsi1sk = <triggered_at ISO>#<id>`) and its accounts (`gsi1pk = ORG#<id>#ACCOUNTS`, `gsi1sk = <IBAN>`).
   */
  indexes: [
    {
      name: 'by-org',
      partitionKey: { name: 'gsi1pk', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
      nonKeyAttributes: ['account', 'type'],
    },
  ],
} as const satisfies {
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  streamViewType: 'NEW_IMAGE';
  timeToLiveAttribute: string;
  indexes: readonly IndexShape[];
};

/** 14 days, SQS's maximum: longer than the whole default retry schedule (about 54 hours). */
export const QUEUE_RETENTION_SECONDS = 14 * 24 * 60 * 60;

/**
 * Delivery attempts per webhook cycle. The queue's redrive limit equals it, so a message can never be
 * received a 21st time; the attempt count itself lives in DynamoDB (receive counts overcount).
 */
export const MAX_ATTEMPTS = 20;

/**
 * Attempts one event may accumulate over all its cycles (a redelivery starts a new cycle of 20). Attempts
 * live in the event item, which DynamoDB caps at 400 KB; 60 attempts with 4 KiB bodies stay far below.
 */
export const MAX_ATTEMPTS_PER_EVENT = 3 * MAX_ATTEMPTS;

/** Consumer Lambda timeout: ten concurrent deliveries of at most 10 s each, serialised in the worst case, plus margin. */
export const CONSUMER_TIMEOUT_SECONDS = 120;

/**
 * SQS keeps a message hidden at most 12 hours from its receive, so a retry can be postponed by at most
 * that minus the time the consumer may already have spent on it.
 */
export const MAX_POSTPONE_SECONDS = 12 * 60 * 60 - CONSUMER_TIMEOUT_SECONDS;

/** The delivery queue and its dead-letter queue. */
export const DELIVERY_QUEUE = {
  /** AWS advises at least six times the consumer's timeout for an SQS event source. */
  visibilityTimeoutSeconds: 6 * CONSUMER_TIMEOUT_SECONDS,
  retentionPeriodSeconds: QUEUE_RETENTION_SECONDS,
  maxReceiveCount: MAX_ATTEMPTS,
  receiveWaitTimeSeconds: 20,
} as const;

/** The dead-letter queue keeps messages as long as the delivery queue does, for the reconciler. */
export const DEAD_LETTER_QUEUE = {
  retentionPeriodSeconds: QUEUE_RETENTION_SECONDS,
  /** The DLQ reconciler only reads and re-sends: 60 s is plenty. */
  visibilityTimeoutSeconds: 60,
} as const;

/** SQS event source settings of the delivery consumer (and of the local runtime's emulation of it). */
export const CONSUMER_EVENT_SOURCE = {
  batchSize: 10,
  reportBatchItemFailures: true,
} as const;

/** SQS event source settings of the DLQ reconciler. */
export const RECONCILER_EVENT_SOURCE = {
  batchSize: 10,
  reportBatchItemFailures: true,
} as const;

/**
 * Lambda event-source filter on the table stream: only INSERTs of event items that still need delivery
 * travel to the queue. Updates (attempts, status changes) and configuration items never match, and
 * filtered records are not billed.
 */
export const STREAM_FILTER_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: {
    NewImage: {
      sk: { S: ['EVENT'] },
      webhook_status: { S: ['pending'] },
    },
  },
} as const;

/** Stream event source settings of the forwarder (batches are sent to SQS ten at a time). */
export const FORWARDER_EVENT_SOURCE = {
  batchSize: 100,
  maxBatchingWindowSeconds: 1,
  startingPosition: 'TRIM_HORIZON',
  /** Retry a failing batch by halves so one bad record cannot hold the others back. */
  bisectBatchOnError: true,
  reportBatchItemFailures: true,
} as const;

/** Body of a delivery-queue message. The consumer always re-reads the event with a consistent read. */
export interface DeliveryMessage {
  readonly id: string;
}

/** Lambda functions of the stack; each has `lambdas/handlers/<entry>.ts` exporting `handler`. */
export const FUNCTIONS = {
  authorizer: 'authorize-request',
  health: 'get-health',
  listEvents: 'list-events',
  getEvent: 'get-event',
  redeliverEvent: 'redeliver-event',
  resetWebhooks: 'reset-webhooks',
  listAccounts: 'list-accounts',
  getAccount: 'get-account',
  openapi: 'get-openapi',
  forwarder: 'forward-events',
  consumer: 'deliver-webhooks',
  reconciler: 'reconcile-dead-letters',
} as const;

/** Name of a function in {@link FUNCTIONS}. */
export type FunctionKey = keyof typeof FUNCTIONS;

/** HTTP method of an API route. */
export type RouteMethod = 'GET' | 'POST';

/** An API Gateway route and the function that serves it. */
export interface RouteShape {
  readonly method: RouteMethod;
  /** Resource path in API Gateway syntax, e.g. `/events/{id}`. */
  readonly path: string;
  readonly fn: FunctionKey;
  /** Whether the Bearer-key authorizer guards the route. */
  readonly authorized: boolean;
}

/** Every route of the API. Methods not listed for a path answer 405; unknown paths answer 404. */
export const API_ROUTES: readonly RouteShape[] = [
  { method: 'GET', path: '/health', fn: 'health', authorized: false },
  { method: 'GET', path: '/openapi.json', fn: 'openapi', authorized: false },
  { method: 'GET', path: '/events', fn: 'listEvents', authorized: true },
  { method: 'GET', path: '/events/{id}', fn: 'getEvent', authorized: true },
  { method: 'POST', path: '/events/{id}/redeliver', fn: 'redeliverEvent', authorized: true },
  { method: 'POST', path: '/management/webhooks/reset', fn: 'resetWebhooks', authorized: true },
  { method: 'GET', path: '/accounts', fn: 'listAccounts', authorized: true },
  { method: 'GET', path: '/accounts/{iban}', fn: 'getAccount', authorized: true },
];

/** How long API Gateway caches an authorizer decision for one API key. */
export const AUTHORIZER_CACHE_TTL_SECONDS = 300;

/** The request header the authorizer reads. */
export const AUTHORIZATION_HEADER = 'Authorization';

/**
 * The `Authorization` value the API accepts: `Bearer <key>`, scheme case-insensitive.
 * API Gateway validates the header with it before invoking (and paying for) the authorizer, the emulator
 * does the same, and the authorizer extracts the key with it. Valid as both a Java and a JS pattern.
 */
export const BEARER_PATTERN = String.raw`^[Bb][Ee][Aa][Rr][Ee][Rr]\s+\S+\s*$`;

/** A problem+json answer that API Gateway itself gives, before any function runs. */
export interface GatewayProblem {
  readonly status: number;
  readonly slug: string;
  readonly title: string;
  readonly detail: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * API Gateway's own answers (REST API gateway responses), rendered as RFC 9457 problems. The stack turns
 * them into `GatewayResponse`s; the local runtime answers with the same status, headers and body.
 */
export const GATEWAY_PROBLEMS = {
  /** Missing `Authorization` header, or the authorizer rejected the key. */
  UNAUTHORIZED: {
    status: 401,
    slug: 'unauthorized',
    title: 'Unauthorized',
    detail: 'A valid API key is required: send "Authorization: Bearer <api key>".',
    headers: { 'WWW-Authenticate': 'Bearer' },
  },
  /** REST API answers unknown paths with MISSING_AUTHENTICATION_TOKEN; Herald makes that a 404. */
  MISSING_AUTHENTICATION_TOKEN: {
    status: 404,
    slug: 'not-found',
    title: 'Not found',
    detail: 'No such route. See /openapi.json for the routes of this API.',
  },
  /** An authorizer Deny; Herald's authorizer never denies (it rejects with 401), so only custom policies reach it. */
  ACCESS_DENIED: {
    status: 403,
    slug: 'forbidden',
    title: 'Forbidden',
    detail: 'This API key may not call this route.',
  },
  THROTTLED: {
    status: 429,
    slug: 'too-many-requests',
    title: 'Too many requests',
    detail: 'The request rate limit of this API was exceeded; retry later.',
  },
  DEFAULT_5XX: {
    status: 500,
    slug: 'internal-error',
    title: 'Internal error',
    detail: 'The request could not be completed.',
  },
} as const satisfies Record<string, GatewayProblem>;

/**
 * Not an API Gateway response type: the stack's mock integration answers methods a known route does not
 * serve with this problem and an `Allow` header, and the emulator answers the same.
 */
export const METHOD_NOT_ALLOWED_PROBLEM: GatewayProblem = {
  status: 405,
  slug: 'method-not-allowed',
  title: 'Method not allowed',
  detail: 'This route does not support the request method; the Allow header lists the supported ones.',
};

/** Base of every problem `type` URI. */
export const PROBLEM_TYPE_BASE = 'https://herald.dev/problems/';

/** Powertools service name of every function: the `service` dimension of Herald's metrics. */
export const SERVICE_NAME = 'herald';

/** CloudWatch namespace of Herald's own metrics (Powertools EMF and the access-log metric filter). */
export const METRICS_NAMESPACE = 'Herald';

/** Metrics the delivery handlers emit (EMF, dimension `service`). `AttemptLatency` is in milliseconds. */
export const DELIVERY_METRICS = {
  succeeded: 'DeliverySucceeded',
  failed: 'DeliveryFailed',
  attemptLatency: 'AttemptLatency',
  exhausted: 'EventsExhausted',
  reconciled: 'DeadLettersReconciled',
} as const;
