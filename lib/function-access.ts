/**
 * Which data each function may reach: the table items, indexes and queue actions of its own SDK calls,
 * applied by `bindTable` and `bindQueue` (`bindings.ts`) and asserted by `test/infra/table-rights.test.ts`.
 */
import type { FunctionKey } from '#config/functions';
import type { QueueAccess, TableAccess } from './bindings';

/** The data a function reaches through its own SDK calls (event sources add their own rights). */
export interface FunctionAccess {
  readonly table?: TableAccess;
  readonly queue?: QueueAccess;
  /** `publish`: sns:Publish on the platform team's notices topic (`notice-summary.ts`), nothing else of SNS. */
  readonly noticeTopic?: 'publish';
}

/**
 * Every function's data rights in one table, so least privilege can be reviewed at a glance. What holds:
 * - `APIKEY#` items: the authorizer reads them (GetItem only); `administer` and the portal's session
 *   function (`portalSession`: sign-in creates session keys, sign-out deletes its own) create, list and
 *   delete them, each in one transaction with the organization's key count (UpdateItem on `ORG#`; once per
 *   organization, UpdateItem on `APIKEY#` moves an old key's expiry off the TTL attribute); `PORTAL#`
 *   items (sign-in links) are created only by `administer` and read-and-deleted only by portal sign-in;
 * - `ORG#` items (webhook tokens, the operational webhook's URL): read only by the consumer and
 *   `sendTestEvent` (each attempt and test event signs with the token), `manageSettings` (an
 *   organization's own token view and rotation, its operational webhook), portal sign-in and
 *   `administer`; created only by `administer`, updated only by those two (token rotation, the
 *   operational webhook's URL: UpdateItem, never a PutItem of the whole item) and by the key writers (the
 *   key count); the API readers cannot read them;
 * - `ACCOUNT#` items: written by `manageSettings` (an organization's own webhook URL) and `administer`
 *   (which also replaces a deleted account by its tombstone, PutItem); their endpoint health (`wh_*`)
 *   updated by the consumer and by `enableEndpoint`/`administer` (re-enable); deleted, like events erased
 *   (BatchWriteItem), only by `administer`: `manageSettings` cannot delete an account item (nor its
 *   tombstone);
 * - `EP#` items (an account's extra endpoints, one partition per account): added (UpdateItem) and removed
 *   (DeleteItem, with their material) by the two account writers, their health updated by the consumer,
 *   read with one Query of the partition by them, `getAccount` and `sendTestEvent`;
 * - `ENDPOINT#` items (an endpoint's material: payload key, TLS client certificate with its sealed key,
 *   CA certificate): read by the consumer and `sendTestEvent`, written (UpdateItem, in one transaction
 *   with the account's summary) by the two account writers `manageSettings` and `administer`, deleted by
 *   `administer` with the account; the API readers cannot read them;
 * - `OPS#` items (an organization's operational notices): created (an UpdateItem conditioned on no item
 *   there, never PutItem) by the consumer, which decides them from the endpoints' health it writes, by the
 *   enablings (`enableEndpoint`, `manageSettings`, `administer`: `endpoint_enabled`), by a person's
 *   disabling (`manageSettings`, `administer`: `endpoint_disabled`) and by the reconciler
 *   (`event_attempts_exhausted`); read (Query of the organization's partition) only by `getDeliveryStats`
 *   (`GET /operational-events`) and `administer` (the operator's twin), and the ones a summary shows
 *   (BatchGetItem) by `noticeSummary`; the consumer also reads each to send it to the organization's
 *   operational webhook and records its attempts on it (the reconciler settles a dead-lettered one), and
 *   keeps that webhook's health on an item of the kind (`OPS#<org>#HEALTH`), which the URL's writers
 *   (`manageSettings`, `administer`) reset with their UpdateItem right, never a DeleteItem; the forwarder reads their
 *   creation from the stream only; notices are deleted (BatchWriteItem) only by `administer`, those naming
 *   an account it erases;
 * - the platform team's summary (`noticeSummary`, every minute): counts each minute's notices from the
 *   `by-org` index (`OPS#MIN#<minute>`; `bindTable` grants index Queries by index name, not by partition,
 *   so it could read the index's other entries too: keys, `account` and `type`, never a token or a URL),
 *   reads and moves its cursor (`NOTICE_SUMMARY`), and is the only function that may publish to the
 *   notices topic;
 * - `TESTS#` items (an account's counter of test events): written only by `sendTestEvent`, which reads
 *   the account, its organization and its endpoint's material like the consumer and writes nothing else;
 *   deleted by `administer` with the account;
 * - `LOG#` items: events created only by `publishEvent` (and moved in by `administer`'s upgrade); a log's
 *   head item updated and deleted only by `publishEvent`; a void (a missing sequence closed) created by
 *   the log's readers that may pass it (the feed in `listEvents`, the order gate in `consumer` and
 *   `reconciler`), each with an UpdateItem conditioned on no item being there;
 * - `EVENT#` items: created only by `publishEvent` (PutItem), updated by the delivery paths (redeliver,
 *   reset, enable with `recover_since`, consumer, reconciler, administer); `SETTINGS` is read by the publisher and `administer`;
 * - `EVENT_TYPES` (the operators' event types): written only by `administer`, read (GetItem only) by it,
 *   by the catalog's readers (`eventTypes`), by `publishEvent` (an operator's type is validated like a
 *   built-in one), by `sendTestEvent` (an operator's type's example can be sent) and by `manageSettings`
 *   (the type names an endpoint may subscribe to);
 * - API readers of one item (`getAccount`, the authorizer) have GetItem only (`getEvent` also its
 *   account and one batch of its deliveries at its endpoints); the delivery
 *   summary (`getDeliveryStats`) reads its account, the `by-org` index and a batch of events;
 * - writers also enqueue the delivery they cause; the consumer changes visibility to schedule retries;
 *   the consumer also sends (it replaces a long-deferred message); health, openapi and the portal page
 *   touch no data. The forwarder's table stream and the reconciler's DLQ are read by
 *   their event source mappings, which grant exactly that.
 */
export const FUNCTION_ACCESS: Readonly<Record<FunctionKey, FunctionAccess>> = {
  authorizer: { table: { items: { GetItem: ['apiKey'] } } },
  health: {},
  openapi: {},
  portal: {},
  // The catalog of event types: the names, heads and versions of the operators' types, nothing else.
  eventTypes: { table: { items: { GetItem: ['eventTypes'] } } },
  portalSession: {
    table: {
      items: {
        GetItem: ['organization', 'apiKey'],
        BatchGetItem: ['apiKey'],
        PutItem: ['apiKey'],
        UpdateItem: ['organization', 'apiKey'],
        DeleteItem: ['portalLink', 'apiKey'],
      },
      indexes: ['by-org'],
    },
  },
  listEvents: {
    table: {
      // The feed closes a sequence no publish will store any more (a void: UpdateItem creating it, only
      // where no item is) and reads the account's `seq_floor` when its log misses a sequence. An
      // endpoint's events (`endpoint_id`): the account's extra endpoints (a Query of their partition) and
      // an extra endpoint's deliveries (a Query of its partition), each event read at its place.
      items: {
        BatchGetItem: ['event', 'log'],
        Query: ['log', 'endpoint', 'delivery'],
        GetItem: ['account', 'log'],
        UpdateItem: ['log'],
      },
      indexes: ['by-org', 'failed-by-org', 'skipped-by-org'],
    },
  },
  // A routed event's deliveries at its endpoints, one batch; an event not routed, its account (the default
  // endpoint's id).
  getEvent: { table: { items: { GetItem: ['event', 'log', 'account'], BatchGetItem: ['delivery'] } } },
  redeliverEvent: {
    table: {
      // Replay reads the account and its log; an ordered account's watermark goes back below a new cycle;
      // a redelivery at one endpoint starts that delivery's new cycle alone.
      items: {
        GetItem: ['event', 'log', 'account', 'delivery'],
        // An extra endpoint's order restarts on its own item (`EP#`).
        UpdateItem: ['event', 'log', 'account', 'endpoint', 'delivery'],
        // A replay at one endpoint reads the account's extra endpoints (one Query of their partition).
        Query: ['log', 'endpoint'],
      },
    },
    queue: 'send',
  },
  resetWebhooks: {
    table: { items: { UpdateItem: ['event', 'log'] }, indexes: ['failed-by-org', 'skipped-by-org'] },
    queue: 'send',
  },
  listAccounts: { table: { items: { BatchGetItem: ['account'] }, indexes: ['by-org'] } },
  // An account's extra endpoints: one Query of their partition.
  getAccount: { table: { items: { GetItem: ['account'], Query: ['endpoint'] } } },
  getDeliveryStats: {
    // Also the organization's operational notices (`GET /operational-events`: one Query of its OPS# partition).
    table: {
      items: { GetItem: ['account'], BatchGetItem: ['event', 'log'], Query: ['operational'] },
      indexes: ['by-org'],
    },
  },
  enableEndpoint: {
    table: {
      // An enabling of a disabled endpoint is announced (`operational`).
      items: { UpdateItem: ['account', 'event', 'log', 'operational'] },
      indexes: ['failed-by-org', 'skipped-by-org'],
    },
    queue: 'send',
  },
  manageSettings: {
    table: {
      items: {
        // The catalog's type names: what an endpoint's `event_types` may list.
        GetItem: ['account', 'organization', 'endpointSecrets', 'eventTypes'],
        // An enabling of a disabled endpoint, or a disabling, is announced (`operational`).
        UpdateItem: ['account', 'endpoint', 'organization', 'endpointSecrets', 'operational'],
        // An extra endpoint is removed whole, its material with it; never an account item (nor the
        // tombstone that keeps a deleted account's IBAN with its organization).
        DeleteItem: ['endpoint', 'endpointSecrets'],
        // A switch to ordered starts the watermark at the log's latest sequence; an account's extra
        // endpoints are one Query of their partition.
        Query: ['log', 'endpoint'],
      },
    },
  },
  publishEvent: {
    table: {
      items: {
        // The catalog's operator types (`eventTypes`), read once per container and kept, to validate with.
        GetItem: ['settings', 'account', 'event', 'log', 'eventTypes'],
        // A batch reads its ids' claims at once.
        BatchGetItem: ['event'],
        PutItem: ['event', 'log'],
        // The log's head: tickets (UpdateItem), and its removal when the log is quiet again (DeleteItem).
        UpdateItem: ['log'],
        DeleteItem: ['log'],
        Query: ['log'],
      },
    },
  },
  administer: {
    table: {
      items: {
        // A redelivery at one endpoint reads and restarts that delivery (`delivery`).
        GetItem: [
          'organization',
          'account',
          'event',
          'log',
          'settings',
          'endpointSecrets',
          'eventTypes',
          'delivery',
        ],
        BatchGetItem: ['apiKey', 'account', 'event', 'log'],
        // The upgrade moves old-layout events into account logs (`EVENT#` claims, `LOG#` items); an
        // operator's event type is a head and versions, its name added to the catalog item.
        PutItem: ['organization', 'apiKey', 'portalLink', 'account', 'event', 'log', 'eventTypes'],
        UpdateItem: [
          'organization',
          'apiKey',
          'account',
          'endpoint',
          'event',
          'log',
          'endpointSecrets',
          'eventTypes',
          'delivery',
          // An enabling of a disabled endpoint, or a disabling, is announced.
          'operational',
        ],
        DeleteItem: ['apiKey', 'account', 'endpoint', 'endpointSecrets', 'testEvents'],
        // Erasure: an account's log items, their id claims, a fanned-out event's deliveries, and its
        // organization's operational notices naming the account.
        BatchWriteItem: ['event', 'log', 'delivery', 'operational'],
        // Replay reads an account's log; an account's extra endpoints are one Query of their partition;
        // an organization's operational notices, one Query of its partition.
        Query: ['log', 'endpoint', 'operational'],
      },
      indexes: ['by-org', 'failed-by-org', 'skipped-by-org'],
    },
    queue: 'send',
  },
  sendTestEvent: {
    // Reads what an attempt reads (an account's extra endpoints: one Query of their partition) and the
    // catalog's operator types; writes only the account's counter.
    table: {
      items: {
        GetItem: ['account', 'organization', 'endpointSecrets', 'eventTypes'],
        UpdateItem: ['testEvents'],
        Query: ['endpoint'],
      },
    },
  },
  forwarder: {
    // Retention's deletions of log items raise the account's `seq_floor` (a conditional maximum, no read).
    table: { items: { UpdateItem: ['account'] } },
    queue: 'send',
  },
  consumer: {
    table: {
      items: {
        // A fanned-out event's deliveries (`delivery`): one item per routed endpoint, read and written
        // by the delivery at that endpoint.
        // A notice (`operational`), read to send it to its organization's operational webhook, with that
        // webhook's health (its own item in the same kind).
        GetItem: ['event', 'log', 'account', 'organization', 'endpointSecrets', 'delivery', 'operational'],
        // An extra endpoint's health (`endpoint`), beside the default one's on the account item; an
        // endpoint's operational notices (`operational`), each created once: an UpdateItem conditioned on
        // no item there, then its delivery's attempts, and the operational webhook's health.
        UpdateItem: ['event', 'log', 'account', 'endpoint', 'delivery', 'operational'],
        // The order gate and its chain read an ordered account's log; an event's routing reads its
        // account's extra endpoints (one Query of their partition).
        Query: ['log', 'endpoint'],
      },
    },
    queue: 'consume-send',
  },
  reconciler: {
    // A final failure of an ordered account's event moves its watermark and chains (reads its log); a
    // routed endpoint's dead letter reads and settles its delivery; a final failure is announced
    // (`operational`: a notice created by UpdateItem); a notice's dead letter reads and settles its delivery.
    table: {
      items: {
        GetItem: ['event', 'log', 'account', 'delivery', 'operational'],
        UpdateItem: ['event', 'log', 'account', 'delivery', 'operational'],
        Query: ['log'],
      },
    },
    queue: 'send',
  },
  noticeSummary: {
    table: {
      items: { GetItem: ['noticeSummary'], UpdateItem: ['noticeSummary'], BatchGetItem: ['operational'] },
      indexes: ['by-org'],
    },
    noticeTopic: 'publish',
  },
};
