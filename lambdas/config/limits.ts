/**
 * Bounds on what one API request may read or write, so its cost never grows with the organization's
 * size, and on how often an organization or an account may ask. The API, its OpenAPI document and the
 * adapters read them from here.
 */

/** Deepest result a listing may reach: `page × per_page` at most (deeper pages: narrow `since`/`until`). */
export const MAX_LIST_DEPTH = 1_000;

/**
 * Days an operational notice is kept after it is stored: its item carries the table's TTL attribute
 * (`expires_at`) from its creating write. The notice's writers (the consumer, the enablings, the
 * reconciler) do not read the deployment's event retention, so this is fixed; it outlasts every retry of
 * the notice's delivery and every run it tells about. The table removes expired items only where the
 * stack enables its TTL (an event retention is configured); without one, notices are kept as events are.
 */
export const NOTICE_RETENTION_DAYS = 90;

/**
 * Most index entries one listing reads while `account`/`type` filters skip entries (about 60 read units
 * of ~230-byte entries). A listing that needs more answers 400 and asks for a time window.
 */
export const MAX_INDEX_ENTRIES_READ = 2_000;

/**
 * Most event items one `webhook_status=pending|success` listing reads to check their status (about 250
 * read units): those two states have no index, so their filter reads items.
 */
export const MAX_ITEMS_CHECKED = 500;

/** Most events one `POST /management/webhooks/reset` starts a cycle for. */
export const RESET_CHUNK = 100;

/**
 * Pages of 100 events one operator request examines when it has to read events rather than a sparse
 * index (the requeue runbook, the status-index upgrade; it answers a cursor to go on from).
 */
export const OPERATOR_PAGES_PER_REQUEST = 5;

/**
 * Most events one recovery step (enabling an endpoint with `recover_since`) starts a new cycle for: as
 * many as five resets. The step also examines at most {@link MAX_INDEX_ENTRIES_READ} index entries.
 */
export const RECOVERY_LIMIT = OPERATOR_PAGES_PER_REQUEST * RESET_CHUNK;

/**
 * Most events one delivery summary (`GET /accounts/{iban}/delivery-stats`) reads the attempts of: the
 * account's latest ones in the window, one batch read.
 */
export const DELIVERY_STATS_EVENTS = 100;

/** Index entries one upgrade request (moving old-layout events into account logs) examines. */
export const MIGRATION_CHUNK = 100;

/**
 * Items one account erasure request (`DELETE /admin/accounts/{iban}?erase=true`) reads of the account's
 * log, and then of the organization's events stored before account logs (one Query each at most).
 */
export const ERASE_CHUNK = 1_000;

/**
 * Notices one account erasure request reads of its organization's notice log, once the account's events
 * are gone (one Query). The log holds every account's notices, so the request filters on `account` and
 * pages: what it reads, not what it erases, is what it costs.
 */
export const NOTICE_ERASE_CHUNK = 1_000;

/** Most events one replay request (`POST /accounts/{iban}/replay`) examines, one read of the log. */
export const REPLAY_CHUNK = 100;

/** Most events one catch-up feed request (`GET /accounts/{iban}/events`) returns, and its default. */
export const FEED_LIMIT = 100;

/**
 * Most bytes of webhook bodies one read of an account's log takes for a feed answer or a replay chunk
 * (one event is always taken): it bounds what the read costs and holds in memory, whatever the payloads;
 * a fuller log ends the read early with `Link: next` (or `more`). What the answer may weigh is
 * {@link ANSWER_BODY_MAX_BYTES}'s, measured on the answer as rendered.
 */
export const LOG_READ_MAX_BODY_BYTES = 5_000_000;

/**
 * Lambda's limit on the response of a synchronous invocation, which is the proxy result as JSON: the
 * answer's body is a JSON string inside it, so its every `"` and `\` counts twice (a control character,
 * `\u0001` in a JSON body, counts 7 bytes). A larger response fails the invocation and API Gateway
 * answers 5xx; the local runtime does the same.
 */
export const LAMBDA_RESPONSE_MAX_BYTES = 6_291_456;

/**
 * Most bytes an answer's body may take inside its Lambda response (escaped as it is carried there): the
 * rest of {@link LAMBDA_RESPONSE_MAX_BYTES} is room for the status and the headers (a `Link` is a few
 * hundred bytes). An answer whose items would pass it ends early and says where to go on.
 */
export const ANSWER_BODY_MAX_BYTES = LAMBDA_RESPONSE_MAX_BYTES - 65_536;

/**
 * Most puts of one event at a sequence before its publish answers 503 busy (it also gives up at the first
 * refused put that ends {@link PUBLISH_BUDGET_MS} or more after it began). A put is refused only when
 * another event took the sequence: a quiet log's first try raced another publish (the loser then takes a
 * ticket, which never races), or a ticket met a publish that read the log before it became hot. So busy
 * means a log refusing this publish 32 times, which the sequencing of `use-cases/events/sequencing.ts`
 * makes practically impossible; the bound keeps every publish's cost finite whatever happens. A busy
 * answer stored nothing and asks the client to send the same id again; the resend takes the claim over
 * at once.
 */
export const PUBLISH_SEQUENCE_TRIES = 32;

/**
 * Time (ms) after its start from which a publish whose put is refused answers 503 busy instead of trying
 * again: elapsed time on the publish's clock, so slow (throttled) rounds count, and a publish ends well
 * inside the API's 29 s integration timeout and far below {@link CLAIM_LEASE_MS}, so a publish under way
 * never looks crashed to a duplicate of its id.
 */
export const PUBLISH_BUDGET_MS = 8_000;

/**
 * How long (ms) an account log stays hot (numbered by tickets from its head item) after the last ticket:
 * the next publish after this quiet time removes the head and publishes on the quiet path again, which
 * costs no ticket (one write unit less per event). Long enough that a burst's publishes, which come
 * milliseconds apart, never leave and re-enter between two of them (each entry costs a lost race); short
 * enough that an account that published a file is back on the quiet path seconds later.
 */
export const HEAD_IDLE_MS = 5_000;

/**
 * How long (ms) after the ticket of the event above it a missing sequence may still be stored, for the
 * readers of a log (catch-up feed, order gate): within it, the feed ends its answer before the missing
 * sequence and the gate waits; after it, the reader closes the sequence with a void item (a conditional
 * put that no event can pass any more) and goes on. Far above the life of a publish holding a ticket (its
 * function times out after 29 s; a library publish stores within seconds), so readers close only
 * sequences whose publisher crashed or gave up; closing a live one is still safe (its put is refused and
 * it takes another sequence), only slower.
 */
export const HOLE_WAIT_MS = 60_000;

/**
 * How the publish path's DynamoDB client retries a throttled or failed request (its own retry strategy,
 * `adapters/dynamodb/hot-log-retries.ts`, instead of the SDK's default of 4 attempts after 1 s, 2 s and 4 s
 * of jittered wait for a throttle): a hot account's log meets its partition's limit (about 1,000 write
 * units a second) by design, and a throttled write is free; retried after a jittered wait below `firstMs`,
 * doubling per attempt up to `capMs`, the partition stays busy, where the default's long waits left it idle
 * (in the simulation, one account offered more single publishes than its partition takes stored fewer a
 * second than one offered less). `attempts` bounds a request (at most about 7 s of waits), and the retry
 * quota of the SDK's standard strategy (500 tokens, 5 a throttle, 14 another retry) still bounds a client.
 */
export const PUBLISH_WRITE_RETRIES = { attempts: 10, firstMs: 25, capMs: 1_000 } as const;

/** Most events one `POST /events/batch` (and one call of the library's batch publish) carries. */
export const PUBLISH_BATCH_LIMIT = 100;

/**
 * Largest body of `POST /events/batch` (bytes of UTF-8 JSON): one request's memory and time stay bounded
 * and far inside API Gateway's 10 MB and Lambda's 6 MB. A payload may have 64 KiB, so a batch of large
 * payloads holds fewer events; 100 typical events (a few hundred bytes each) fit many times over.
 */
export const PUBLISH_BATCH_MAX_BYTES = 1_048_576;

/**
 * Writes one batch publish has in flight at once (claims, then events): enough to store 100 events in a
 * handful of round trips, few enough that one request does not take a partition's whole second.
 */
export const PUBLISH_BATCH_CONCURRENCY = 25;

/**
 * How long an event id's claim belongs to the publish that made it: a duplicate publish of the same id
 * waits for its event meanwhile, and only later takes over a claim whose event never came (its publisher
 * crashed between the two writes). Far above a publish's few milliseconds.
 */
export const CLAIM_LEASE_MS = 30_000;

/**
 * Longest PEM text of `tls_client_certificate` (a chain, leaf first) and of `tls_ca_certificate` (one or
 * more CAs), in characters: a leaf with a few intermediates fits with room. Checked before anything
 * parses the field, and it keeps the endpoint's item small: the consumer reads it with every batch.
 */
export const MAX_CERTIFICATE_PEM_LENGTH = 16_384;

/** Longest `tls_client_key` (PEM), in characters: an RSA key of 8,192 bits as PKCS #8 has about 6,400. */
export const MAX_PRIVATE_KEY_PEM_LENGTH = 8_192;

/**
 * Longest `payload_encryption_key`, in characters: its PEM text, or its JWK object written as JSON (an
 * RSA key of 8,192 bits needs about 1,500 either way).
 */
export const MAX_PUBLIC_KEY_LENGTH = 4_096;

/**
 * Most characters of a certificate's subject or issuer kept in the account's summary (and shown); a
 * longer name is cut and ends with `…`. The summary rides on the account item, which every delivery
 * batch reads.
 */
export const MAX_CERTIFICATE_NAME_LENGTH = 256;

/** Each organization's own share of the API: API Gateway usage-plan throttle and quota. */
export interface OrganizationUsage {
  /** Steady-state requests per second of one organization. */
  readonly rateLimit: number;
  /** Requests one organization may send in a burst above the rate. */
  readonly burstLimit: number;
  /** Requests one organization may send per day (UTC). */
  readonly quotaPerDay: number;
}

/**
 * Defaults of {@link OrganizationUsage}: a hundredth of the stage-wide 1,000 rps, so no organization can
 * take the whole API even with all of its keys; a day's quota far above what reading one's own events
 * needs.
 */
export const ORGANIZATION_USAGE_DEFAULTS: OrganizationUsage = {
  rateLimit: 10,
  burstLimit: 20,
  quotaPerDay: 100_000,
};

/**
 * Test events an account may have per window of {@link TEST_EVENT_WINDOW_SECONDS}: enough for a person
 * checking a receiver, few enough that neither a script nor a stolen `manage` key can use an account's
 * receiver (or Herald's addresses) to flood anyone.
 */
export const TEST_EVENTS_PER_WINDOW = 10;

/** The test events' window: a UTC minute. */
export const TEST_EVENT_WINDOW_SECONDS = 60;

/**
 * Largest payload filter of a subscription, in UTF-8 bytes of its JSON. Every delivery evaluates the
 * filters of the account's endpoints, and the account's items carry them, so they stay small: the
 * receivers' uses need a few hundred bytes.
 */
export const MAX_FILTER_BYTES = 4_096;

/**
 * Deepest nesting of a filter's patterns, the filter itself being the first: `{"creditor": {"iban": […]}}`
 * has two, and each `$or` branch adds one. The built-in payloads nest objects two deep.
 */
export const MAX_FILTER_DEPTH = 5;

/**
 * Most alternatives in all of a filter's lists (each value or matcher of a field's list counts one; an
 * `anything-but` list counts one per value): evaluating a filter costs at most this many comparisons per
 * value of the payload.
 */
export const MAX_FILTER_ALTERNATIVES = 100;

/** Longest string in a filter, in characters: a field name, a value, a prefix, a decimal operand. */
export const MAX_FILTER_STRING_LENGTH = 256;

/**
 * Most webhook endpoints of one account, its default one (`webhook_url`) included: each is read with the
 * account by every delivery batch, and each event is routed to at most this many, each with its own
 * delivery item, so an event's records stay bounded whatever it was routed to.
 */
export const MAX_ENDPOINTS_PER_ACCOUNT = 10;

/** Longest description of an endpoint, in characters. */
export const MAX_ENDPOINT_DESCRIPTION_LENGTH = 200;
