/**
 * What Herald's port calls cost in DynamoDB, declared for the metered ports: the requests the DynamoDB
 * adapters (`lambdas/adapters/dynamodb/`) send for each method on the account-log layout (issue 17), with
 * item sizes computed from the adapters' own item layouts (`eventItem`, `attemptItem`), so that a changed
 * layout changes the bill. Each request is charged at the partition its key names: an event's log item at
 * `LOG#<org>#<IBAN>`, an id's claim at `EVENT#<id>`, an index entry at its write shard
 * (`ORG#<org>#EVENTS#<k>`). Provisional until the wiring of issue 15 declares every port in one place.
 */
import { attemptItem, eventItem } from '#adapters/dynamodb/events/event-items';
import { keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import type { EndpointHealthStore } from '#delivery/endpoint-health-port';
import type { EndpointAddress } from '#domain/endpoints/address';
import type { DeliveryAttempt, EventRecord, EventRef } from '#domain/model';
import type { DeliveryLedger, DirectoryStore, EventLog, EventQueries, EventUpkeep } from '#domain/ports';
import type { Charge, IndexWrite } from '../aws/dynamodb/capacity';
import { itemBytes, itemKb, valueBytes } from '../aws/dynamodb/item-size';
import type { MeterRules } from '../ports/metered';

/** An index entry: keys plus the projected `account` and `type`, well under 1 KB. */
const INDEX_ENTRY_KB = 0.2;
/** Account and organization items (health included), under 1 KB. */
export const DIRECTORY_ITEM_KB = 0.6;
/** A claim item (`EVENT#<id>`: organization, account, sequence, owner, times): a few dozen bytes. */
const CLAIM_ITEM_KB = 0.15;
/** The packed `X-Signature` an attempt leaves on the item (`sig`, one MAC). */
const SIG_BYTES = 4 + 32;
/** What `latestSequence` reads: the last log item's keys only (projection `sk`), billed on the item read. */
const KEY_READ_KB = 1;
/** A log's head (`hi`, `at`) or a void (`voided_at`): keys and a number, a few dozen bytes. */
const HEAD_ITEM_KB = 0.1;
const VOID_ITEM_KB = 0.1;

/** Sizes of event items as the adapter stores them; the compressed body is computed once per event. */
export class EventItemSizes {
  private readonly fixed = new Map<string, number>();

  /** Billed KB of the stored item of `record`, plus `extraBytes` (e.g. an attempt being appended). */
  kb(record: EventRecord | undefined, extraBytes = 0): number {
    if (record === undefined) return 1;
    let fixed = this.fixed.get(record.id);
    if (fixed === undefined) {
      const item = eventItem({ ...record, sequence: record.sequence ?? 0, webhookStatus: 'pending' });
      fixed = itemBytes({ ...item, deliveries: undefined, webhook_status: undefined });
      this.fixed.set(record.id, fixed);
    }
    const mutable = itemBytes({
      webhook_status: record.webhookStatus,
      webhook_retries: record.webhookRetries,
      cycle_base: record.cycleBase,
      new_cycles: record.cycles > 1 ? record.cycles - 1 : undefined,
      deliveries: record.deliveries.map(attemptItem),
      lease_until: record.leaseUntil,
      next_attempt_at: record.nextAttemptAt,
    });
    const sig = record.signature === undefined ? 0 : 'sig'.length + SIG_BYTES;
    return (fixed + mutable + sig + extraBytes) / 1024;
  }
}

/** Bytes one more attempt adds to an item: a list element (one byte) and its map, and the new `sig`. */
export function attemptBytes(attempt: DeliveryAttempt): number {
  return 1 + valueBytes(attemptItem(attempt)) + 'sig'.length + SIG_BYTES;
}

/** Every role of the event store, metered as one port: the DynamoDB adapter implements them all. */
export type EventStoreRoles = EventLog & DeliveryLedger & EventQueries & EventUpkeep;

/** The partition key of an event's item: its account's log (or, before logs, its id). */
const eventKey = (ref: EventRef): string => keys.eventAt(ref).pk;

/**
 * Charges of the event store's methods that publishing, the consumer and the reconciler call.
 *
 * @param lookup - the stored event of an id (for item sizes and the status an update leaves)
 * @param sizes - share one across environments: it caches each event's compressed body size
 * @param options - `indexShards`: Herald's write shards (default), or 1 for the unsharded layout
 */
export function eventStoreCharges(
  lookup: (id: string) => EventRecord | undefined,
  sizes: EventItemSizes,
  options: { readonly indexShards?: number | undefined } = {},
): MeterRules<EventStoreRoles> {
  // One shard is the layout before write sharding: all of an organization's entries on one partition.
  const indexKey = (ref: EventRef): string =>
    options.indexShards === 1 ? keys.orgEvents(ref.orgId) : keys.eventIndexKey(ref);
  const statusIndex = (status: 'failed' | 'skipped', ref: EventRef): IndexWrite[] => [
    { index: STATUS_INDEXES[status].name, key: indexKey(ref), sizeKb: INDEX_ENTRY_KB },
  ];
  /** Aggregate counts begun on a pending event, by event id and endpoint. */
  const settlingPending = new Set<string>();
  const update = (ref: EventRef, extraBytes = 0, indexes: IndexWrite[] = []): Charge => ({
    kind: 'write',
    key: eventKey(ref),
    sizeKb: sizes.kb(lookup(ref.id), extraBytes),
    indexes,
  });
  return {
    // Publish: the log's last key, the id's claim, the event at its sequence (with its index entry).
    latestSequence: (orgId, account, options) => ({
      kind: 'query',
      key: keys.log(orgId, account),
      sizeKb: KEY_READ_KB,
      consistent: options?.consistent ?? false,
    }),
    // The tail read returns one item: the head (while hot) or the last event, billed like `latestSequence`.
    readTail: (orgId, account, options) => ({
      kind: 'query',
      key: keys.log(orgId, account),
      sizeKb: KEY_READ_KB,
      consistent: options?.consistent ?? false,
    }),
    // A ticket is one UpdateItem of the head, in the log's partition (a lagging head's lift, rare, is not
    // charged); leaving deletes it; a void is a small conditional write in the log's partition.
    takeTicket: (orgId, account) => ({ kind: 'write', key: keys.log(orgId, account), sizeKb: HEAD_ITEM_KB }),
    takeTicketAbove: (orgId, account) => ({
      kind: 'write',
      key: keys.log(orgId, account),
      sizeKb: HEAD_ITEM_KB,
    }),
    leaveHot: (orgId, account) => ({ kind: 'write', key: keys.log(orgId, account), sizeKb: HEAD_ITEM_KB }),
    voidSequence: (orgId, account) => ({
      kind: 'write',
      key: keys.log(orgId, account),
      sizeKb: VOID_ITEM_KB,
    }),
    // One BatchGetItem, eventually consistent: each claim read at its own key.
    readClaims: (ids) => ids.map((id) => ({ kind: 'read', key: keys.event(id).pk, sizeKb: CLAIM_ITEM_KB })),
    claimId: (claim) => ({ kind: 'write', key: keys.event(claim.id).pk, sizeKb: CLAIM_ITEM_KB }),
    moveClaim: (_owner, claim) => ({ kind: 'write', key: keys.event(claim.id).pk, sizeKb: CLAIM_ITEM_KB }),
    readClaim: (id) => ({ kind: 'read', key: keys.event(id).pk, sizeKb: CLAIM_ITEM_KB }),
    insertEvent: (event) => ({
      kind: 'write',
      key: keys.log(event.orgId, event.account),
      sizeKb: itemKb(eventItem(event)),
      indexes: [
        { index: 'by-org', key: indexKey(event), sizeKb: INDEX_ENTRY_KB },
        ...(event.webhookStatus === 'skipped' ? statusIndex('skipped', event) : []),
      ],
    }),
    // Reads of an event: by its id through the claim (two reads), or at its place (one).
    getEvent: (id, options) => {
      const consistent = options?.consistent ?? false;
      const record = lookup(id);
      const claim: Charge = { kind: 'read', key: keys.event(id).pk, sizeKb: CLAIM_ITEM_KB, consistent };
      if (record === undefined) return claim;
      return [claim, { kind: 'read', key: eventKey(record), sizeKb: sizes.kb(record), consistent }];
    },
    readEvent: (ref, options) => ({
      kind: 'read',
      key: eventKey(ref),
      sizeKb: sizes.kb(lookup(ref.id)),
      consistent: options?.consistent ?? false,
    }),
    readLog: {
      before: (orgId, account) => ({
        kind: 'query',
        key: keys.log(orgId, account),
        sizeKb: 0,
        consistent: true,
      }),
      after: (page, orgId, account) => ({
        kind: 'query',
        key: keys.log(orgId, account),
        sizeKb: page.events.reduce((kb, event) => kb + sizes.kb(event), 0) + page.voids.length * VOID_ITEM_KB,
        consistent: true,
      }),
    },
    // The order gate's read leaves bodies out, but DynamoDB bills the whole items it reads.
    readLogEntries: {
      before: (orgId, account) => ({
        kind: 'query',
        key: keys.log(orgId, account),
        sizeKb: 0,
        consistent: true,
      }),
      after: (entries, orgId, account) => ({
        kind: 'query',
        key: keys.log(orgId, account),
        sizeKb:
          entries.entries.reduce((kb, entry) => kb + sizes.kb(lookup(entry.id)), 0) +
          entries.voids.length * VOID_ITEM_KB,
        consistent: true,
      }),
    },
    // Delivery: updates of the log item; the sparse status indexes change only with a failure or skip.
    takeLease: (ref) => update(ref, 12),
    markWaiting: (ref) => update(ref, 12),
    recordAttempt: (ref, attempt, status) => {
      const wasFailed = lookup(ref.id)?.webhookStatus === 'failed';
      // The sparse `failed` index gains an entry on a failure and loses it on a late success.
      const indexes =
        status === 'failed' || (status === 'success' && wasFailed) ? statusIndex('failed', ref) : [];
      return update(ref, attemptBytes(attempt), indexes);
    },
    settlePending: (ref, status) =>
      update(ref, 0, lookup(ref.id)?.webhookStatus === 'pending' ? statusIndex(status, ref) : []),
    // Routing: the endpoint ids (`ep_` and 12 hex) on the log item; the aggregate's count of one endpoint.
    recordRoutes: (ref, routes) => update(ref, routes.length * ENDPOINT_ID_BYTES),
    // The write that counts the last endpoint is followed by a second, which settles the event.
    settleRoute: {
      before: (ref, endpointId, status) => {
        if (lookup(ref.id)?.webhookStatus === 'pending') settlingPending.add(`${ref.id} ${endpointId}`);
        return update(ref, ENDPOINT_ID_BYTES, status === 'failed' ? statusIndex('failed', ref) : []);
      },
      after: (result, ref, endpointId) => {
        const key = `${ref.id} ${endpointId}`;
        const settled = settlingPending.delete(key) && (result === 'success' || result === 'skipped');
        return settled ? [update(ref, 0, result === 'skipped' ? statusIndex('skipped', ref) : [])] : [];
      },
    },
  };
}

/** Bytes of an endpoint id as a routing stores it (`ep_` and 12 hex digits, with its list overhead). */
const ENDPOINT_ID_BYTES = 16;

/** Charges of the directory calls: GetItems of the account and organization items, the watermark's update. */
export const directoryCharges: MeterRules<DirectoryStore> = {
  getAccount: (iban, options) => ({
    kind: 'read',
    key: keys.account(iban).pk,
    sizeKb: DIRECTORY_ITEM_KB,
    consistent: options?.consistent ?? false,
  }),
  getOrganization: (id, options) => ({
    kind: 'read',
    key: keys.organization(id).pk,
    sizeKb: DIRECTORY_ITEM_KB,
    consistent: options?.consistent ?? false,
  }),
  advanceSettledThrough: (iban) => ({ kind: 'write', key: keys.account(iban).pk, sizeKb: DIRECTORY_ITEM_KB }),
  restartOrder: (iban) => ({ kind: 'write', key: keys.account(iban).pk, sizeKb: DIRECTORY_ITEM_KB }),
  startOrder: (iban) => ({ kind: 'write', key: keys.account(iban).pk, sizeKb: DIRECTORY_ITEM_KB }),
  raiseSequenceFloor: (iban) => ({ kind: 'write', key: keys.account(iban).pk, sizeKb: DIRECTORY_ITEM_KB }),
  getEventRetentionDays: () => ({ kind: 'read', key: 'SETTINGS', sizeKb: 0.1 }),
};

/** Every health write is one UpdateItem of the endpoint's item, in its account's partition. */
const endpointWrite = (endpoint: EndpointAddress): Charge => ({
  kind: 'write',
  key: keys.account(endpoint.iban).pk,
  sizeKb: DIRECTORY_ITEM_KB,
});

/** Charges of the endpoint health writes. */
export const healthCharges: MeterRules<EndpointHealthStore> = {
  recordAttempt: endpointWrite,
  openCircuit: endpointWrite,
  disable: endpointWrite,
  takeSlot: endpointWrite,
  releaseSlot: endpointWrite,
  enable: endpointWrite,
  endpointId: (iban) => endpointWrite({ iban, orgId: '' }),
};
