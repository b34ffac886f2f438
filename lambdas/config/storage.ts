/**
 * Storage shapes: the events table's keys and index, and the stream filter. Plain data that the stack (lib/), the local runtime and the adapters share; imports nothing.
 */
/** Attribute type of a DynamoDB key attribute. */
export type KeyType = 'S' | 'N';

/** A key attribute of the table or an index. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: KeyType;
}

/**
 * Partition-key prefix of each item kind (`<prefix><id>`). The adapters build keys from these, and the
 * stack's IAM conditions (`dynamodb:LeadingKeys`) keep each function to the kinds it uses.
 */
export const ITEM_PREFIXES = {
  organization: 'ORG#',
  apiKey: 'APIKEY#',
  portalLink: 'PORTAL#',
  account: 'ACCOUNT#',
  /**
   * An account's extra endpoints (`EP#<IBAN>`, the endpoint's id as sort key): a kind of their own, so
   * the organization's writer may delete an extra endpoint without any right to delete account items
   * (an account, or the tombstone that keeps its IBAN with its organization).
   */
  endpoint: 'EP#',
  /** An event id's claim (`EVENT#<id>`), or an event stored before sequences (the old layout). */
  /**
   * An endpoint's security material (payload key, TLS client certificate and sealed key, CA certificate),
   * beside its account item; read only when needed.
   */
  endpointSecrets: 'ENDPOINT#',
  event: 'EVENT#',
  /** An account's event log (`LOG#<orgId>#<IBAN>`), one item per event, the sequence as sort key. */
  log: 'LOG#',
  /**
   * The event types operators registered (its whole partition key): the catalog item (their names, which
   * bound their number), each type's head and each of its versions, all in one partition.
   */
  eventTypes: 'EVENT_TYPES',
  /** The one settings item (its whole partition key), see {@link SETTINGS_ITEM}. */
  settings: 'SETTINGS',
  /** An account's test events of the current minute (`TESTS#<orgId>#<IBAN>`): the rate limit's counter. */
  testEvents: 'TESTS#',
  /**
   * An extra endpoint's deliveries (`DLV#<orgId>#<IBAN>#<ep_id>`), one item per event routed to it, the
   * event's sequence as sort key: its own status, attempts, lease and cycles.
   */
  delivery: 'DLV#',
  /**
   * An organization's operational log (`OPS#<orgId>`): one item per notice, the transition's epoch and
   * the notice's deterministic id as sort key, written once (see `domain/notices/`).
   */
  operational: 'OPS#',
  /**
   * The platform team's summary of notices (its whole partition key): the last minute it covered, so a
   * retried run sends nothing twice and a run after an outage catches up (`use-cases/organizations/notice-summary.ts`).
   */
  noticeSummary: 'NOTICE_SUMMARY',
} as const;

/**
 * The one settings item: deployment-wide values every publisher must apply, whoever runs it. The stack
 * writes it at deploy time (and the local runtime at start); publishers read it once.
 */
export const SETTINGS_ITEM = {
  key: { pk: ITEM_PREFIXES.settings, sk: 'SETTINGS' },
  /** Days until an event expires (`expires_at`); absent when events are kept. */
  retentionDaysAttribute: 'event_retention_days',
  /** The API's usage plan, in which the admin route registers each organization's key (AWS only). */
  usagePlanIdAttribute: 'usage_plan_id',
} as const;

/**
 * Digits of a log item's sort key: the sequence zero-padded, so the keys sort as the numbers do (a
 * trillion events per account).
 */
export const SEQUENCE_DIGITS = 12;

/**
 * Write shards of an organization's event index entries (`ORG#<org>#EVENTS#<k>`, `k` from the event id):
 * an index partition takes about 1,000 writes a second, so an organization publishes up to this many
 * thousand events a second. Every listing reads all of them (merged, each a small page at a time).
 */
export const EVENT_INDEX_SHARDS = 16;

/** Kind of item in the events table. */
export type ItemKind = keyof typeof ITEM_PREFIXES;

/** Index of the events in one state, keyed by the attribute holding a copy of `gsi1pk`. */
export const STATUS_INDEXES = {
  failed: { name: 'failed-by-org', attribute: 'failed_org' },
  skipped: { name: 'skipped-by-org', attribute: 'skipped_org' },
} as const;

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
   * `by-org`: an organization's events newest first (`gsi1pk = ORG#<id>#EVENTS#<shard>`, see
   * {@link EVENT_INDEX_SHARDS}; `ORG#<id>#EVENTS` for events stored before account logs;
   * `gsi1sk = <triggered_at ISO>#<id>`) and its accounts (`gsi1pk = ORG#<id>#ACCOUNTS`, `gsi1sk = <IBAN>`);
   * also every organization's operational notices by minute (`gsi1pk = OPS#MIN#<yyyy-mm-ddThh:mm>`,
   * `gsi1sk = <at ISO>#<kind>#<id>`), which the platform team's summary reads.
   *
   * `failed-by-org` and `skipped-by-org`: sparse indexes of the events in that state, in the same order.
   * The writes that set the state copy `gsi1pk` into `failed_org` / `skipped_org` (an update expression
   * can copy an attribute but not build a string, hence an index per state); a new cycle removes it.
   * They make the status filters and reset cost what they return, not what the organization holds, and
   * cost nothing on the healthy path: a first-try success never has either attribute. `pending` has no
   * index, because every event is pending first: indexing it would add two index writes to every
   * first-try delivery.
   */
  indexes: [
    {
      name: 'by-org',
      partitionKey: { name: 'gsi1pk', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
      nonKeyAttributes: ['account', 'type'],
    },
    {
      name: 'failed-by-org',
      partitionKey: { name: 'failed_org', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
      nonKeyAttributes: ['account', 'type'],
    },
    {
      name: 'skipped-by-org',
      partitionKey: { name: 'skipped_org', type: 'S' },
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

/**
 * Lambda event-source filter on the table stream: only INSERTs of log items (events) that still need
 * delivery travel to the queue. Updates (attempts, status changes), id claims and configuration items
 * never match, and filtered records are not billed.
 */
export const STREAM_FILTER_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: {
    NewImage: {
      pk: { S: [{ prefix: ITEM_PREFIXES.log }] },
      webhook_status: { S: ['pending'] },
    },
  },
} as const;

/**
 * The second stream filter: DynamoDB's own TTL deletions of log items (retention), so the forwarder
 * can keep a log's sequences unique once its last events expired (`seq_floor`). Only with retention on;
 * an erasure's deletions are the operator's, not the service's, and never match.
 */
export const EXPIRY_FILTER_PATTERN = {
  eventName: ['REMOVE'],
  userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
  dynamodb: { Keys: { pk: { S: [{ prefix: ITEM_PREFIXES.log }] } } },
} as const;

/**
 * The third stream filter: the creation of an operational notice (an `OPS#<orgId>` item with a `ntc_` id,
 * created once by a conditional write and only updated after: its delivery's attempts are MODIFYs, which
 * never match), so the forwarder queues its delivery to the organization's operational webhook. The
 * operational webhook's own health item (`OPS#<orgId>#HEALTH`) has no id and never matches: nothing that
 * happens to the operational webhook is ever sent to it.
 */
export const NOTICE_FILTER_PATTERN = {
  eventName: ['INSERT'],
  dynamodb: {
    NewImage: {
      pk: { S: [{ prefix: ITEM_PREFIXES.operational }] },
      id: { S: [{ prefix: 'ntc_' }] },
    },
  },
} as const;

/** Every filter of the forwarder's stream event source (a record passes when one matches). */
export const STREAM_FILTER_PATTERNS = [
  STREAM_FILTER_PATTERN,
  EXPIRY_FILTER_PATTERN,
  NOTICE_FILTER_PATTERN,
] as const;
