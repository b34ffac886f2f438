/**
 * Bounds on what one API request may read or write, so its cost never grows with the organization's
 * size. The API, its OpenAPI document and the adapters read them from here.
 */

/** Deepest result a listing may reach: `page × per_page` at most (deeper pages: narrow `since`/`until`). */
export const MAX_LIST_DEPTH = 1_000;

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
 * Most sequences one publish tries (puts of its event) before it answers 503 busy; it also gives up at
 * the first refused put that ends {@link PUBLISH_BACKOFF_BUDGET_MS} or more after it began, whichever
 * comes first. Each lost try costs a wait ({@link PUBLISH_BACKOFF_BASE_MS}), one read of the log's last
 * key and the claim's move. Each refusal is another event of the account at the sequence tried (stored
 * while this publish ran, except perhaps the first, which follows an eventually consistent read). What
 * is guaranteed: a publish answers busy only after 32 refusals, or when its account's log refused it
 * for the whole budget. Not that 32 concurrent publishers of one account all get through: on a slow
 * store the time bound can come first. A busy answer stored nothing and
 * asks the client to send the same id again; the resend takes the claim over at once.
 */
export const PUBLISH_SEQUENCE_TRIES = 32;

/**
 * A publish that lost a sequence waits a random time below a window that starts here (ms) and doubles per
 * lost round up to {@link PUBLISH_BACKOFF_CAP_MS} ("full jitter"): contenders of one account that all read
 * the same latest sequence spread out instead of colliding again every round, which made n concurrent
 * publishes cost O(n²) requests. The healthy (uncontended) path never waits.
 */
export const PUBLISH_BACKOFF_BASE_MS = 10;

/** The largest window of one wait after a lost sequence (ms); see {@link PUBLISH_BACKOFF_BASE_MS}. */
export const PUBLISH_BACKOFF_CAP_MS = 200;

/**
 * Time (ms) after its start from which a publish that loses a sequence answers 503 busy instead of trying
 * again: elapsed time on the publish's clock, so slow (throttled) rounds count as well as the waits, and
 * a publish ends at most one round (consistent read, claim move, put) and its claim's release after it,
 * well inside the API's 29 s integration timeout and far below {@link CLAIM_LEASE_MS}, so a waiting
 * publish never looks crashed to a duplicate of its id. No wait reaches past it. 8 s rather than less:
 * a busy answer costs the client a resend, and with a shorter budget a store slower than DynamoDB in AWS
 * (DynamoDB Local on a loaded machine) made a few concurrent publishers of one account answer busy.
 */
export const PUBLISH_BACKOFF_BUDGET_MS = 8_000;

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
 * Most problems one refusal lists (`invalid_params`): a payload's violations of its type's schema, or what
 * is wrong with an event type an operator registers. Enough to fix most inputs in one round, and the
 * answer stays small whatever the input or the schema.
 */
export const MAX_VIOLATIONS_REPORTED = 10;

/**
 * Most event types operators may register beside the built-in ones. The catalog is read whole by every
 * container that validates publishes, so its size is bounded like one answer.
 */
export const MAX_OPERATOR_EVENT_TYPES = 100;

/** Most versions one event type may have; a new version is a changed payload schema. */
export const MAX_EVENT_TYPE_VERSIONS = 20;

/**
 * Largest payload schema of one version, in UTF-8 bytes of its JSON: a type with dozens of documented
 * fields fits several times over, and one version with its examples stays far below DynamoDB's item size.
 */
export const MAX_EVENT_TYPE_SCHEMA_BYTES = 32_768;

/** Deepest nesting of objects and arrays in a payload schema's JSON. */
export const MAX_EVENT_TYPE_SCHEMA_DEPTH = 32;

/**
 * Most schema nodes a payload schema has once every `$ref` is replaced by what it points at: `$ref`s can
 * multiply a small document (each of two references pointing at a schema with two references…), and the
 * work of validating one payload grows with this count times the payload's size.
 */
export const MAX_EVENT_TYPE_SCHEMA_EXPANDED_NODES = 5_000;

/** Longest `pattern` (or `patternProperties` name) in a payload schema, in characters. */
export const MAX_EVENT_TYPE_SCHEMA_PATTERN_LENGTH = 512;

/**
 * Largest `maxItems` a schema may pair with `uniqueItems`: checking that items differ compares every pair,
 * so it needs a bound on the array far below what a payload's size allows.
 */
export const MAX_EVENT_TYPE_UNIQUE_ITEMS = 1_000;

/** Most examples one version may have; each must pass its version's schema. */
export const MAX_EVENT_TYPE_EXAMPLES = 10;

/** Largest example payload, in UTF-8 bytes of its JSON. */
export const MAX_EVENT_TYPE_EXAMPLE_BYTES = 8_192;

/** Longest description of an event type, in characters. */
export const MAX_EVENT_TYPE_DESCRIPTION_LENGTH = 2_000;

/** Longest one-line summary of an example, in characters. */
export const MAX_EVENT_TYPE_EXAMPLE_SUMMARY_LENGTH = 200;

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
