/**
 * What the consumer's port calls cost in DynamoDB, declared for the metered ports: the requests the
 * DynamoDB adapters (`lambdas/adapters/dynamodb/`) send for each method, with item sizes computed from the
 * adapters' own item layouts (`eventItem`, `attemptItem`), so that a changed layout changes the bill.
 * Provisional until the wiring of issue 15 declares every port in one place.
 */
import { attemptItem, eventItem, keys } from '#adapters/dynamodb/items';
import { STATUS_INDEXES } from '#config/storage';
import type { DeliveryAttempt, EventRecord } from '#domain/model';
import type { DirectoryStore, EndpointHealthStore, EventStore } from '#domain/ports';
import type { Charge, IndexWrite } from '../aws/dynamodb/capacity';
import { itemBytes, itemKb, valueBytes } from '../aws/dynamodb/item-size';
import type { MeterRules } from '../ports/metered';

/** An index entry: keys plus the projected `account` and `type`, well under 1 KB. */
const INDEX_ENTRY_KB = 0.2;
/** Account and organization items (health included), under 1 KB. */
const DIRECTORY_ITEM_KB = 0.6;

/** Sizes of event items as the adapter stores them; the compressed body is computed once per event. */
export class EventItemSizes {
  private readonly fixed = new Map<string, number>();

  /** Billed KB of the stored item of `record`, plus `extraBytes` (e.g. an attempt being appended). */
  kb(record: EventRecord | undefined, extraBytes = 0): number {
    if (record === undefined) return 1;
    let fixed = this.fixed.get(record.id);
    if (fixed === undefined) {
      fixed = itemBytes({ ...eventItem({ ...record, webhookStatus: 'pending' }), deliveries: undefined });
      this.fixed.set(record.id, fixed);
    }
    const mutable = itemBytes({
      webhook_status: record.webhookStatus,
      webhook_retries: record.webhookRetries,
      cycle_base: record.cycleBase,
      deliveries: record.deliveries.map(attemptItem),
      lease_until: record.leaseUntil,
      next_attempt_at: record.nextAttemptAt,
    });
    return (fixed + mutable + extraBytes) / 1024;
  }
}

/** Bytes one more attempt adds to an item: a list element (one byte) and its map. */
function attemptBytes(attempt: DeliveryAttempt): number {
  return 1 + valueBytes(attemptItem(attempt));
}

/**
 * Charges of the event store's methods the consumer calls.
 *
 * @param sizes - share one across environments: it caches each event's compressed body size
 */
export function eventStoreCharges(
  lookup: (id: string) => EventRecord | undefined,
  sizes: EventItemSizes,
): MeterRules<EventStore> {
  const key = (id: string) => keys.event(id).pk;
  const statusIndex = (status: 'failed' | 'skipped', record: EventRecord | undefined): IndexWrite[] =>
    record === undefined
      ? []
      : [{ index: STATUS_INDEXES[status].name, key: keys.orgEvents(record.orgId), sizeKb: INDEX_ENTRY_KB }];
  return {
    getEvent: (id, options) => ({
      kind: 'read',
      key: key(id),
      sizeKb: sizes.kb(lookup(id)),
      consistent: options?.consistent ?? false,
    }),
    putEvent: (event) => ({
      kind: 'write',
      key: key(event.id),
      sizeKb: itemKb(eventItem(event)),
      indexes: [{ index: 'by-org', key: keys.orgEvents(event.orgId), sizeKb: INDEX_ENTRY_KB }],
    }),
    takeLease: (id) => ({ kind: 'write', key: key(id), sizeKb: sizes.kb(lookup(id), 12) }),
    recordAttempt: (id, attempt, status): Charge => {
      const record = lookup(id);
      const wasFailed = record?.webhookStatus === 'failed';
      // The sparse `failed` index gains an entry on a failure and loses it on a late success.
      const indexes =
        status === 'failed' || (status === 'success' && wasFailed) ? statusIndex('failed', record) : [];
      return { kind: 'write', key: key(id), sizeKb: sizes.kb(record, attemptBytes(attempt)), indexes };
    },
    settlePending: (id, status) => {
      const record = lookup(id);
      const pending = record?.webhookStatus === 'pending';
      return {
        kind: 'write',
        key: key(id),
        sizeKb: sizes.kb(record),
        indexes: pending ? statusIndex(status, record) : [],
      };
    },
  };
}

/** Charges of the directory reads (eventually consistent GetItems). */
export const directoryCharges: MeterRules<DirectoryStore> = {
  getAccount: (iban) => ({ kind: 'read', key: keys.account(iban).pk, sizeKb: DIRECTORY_ITEM_KB }),
  getOrganization: (id) => ({ kind: 'read', key: keys.organization(id).pk, sizeKb: DIRECTORY_ITEM_KB }),
};

/** Every health write is one UpdateItem of the account item. */
const accountWrite = (iban: string): Charge => ({
  kind: 'write',
  key: keys.account(iban).pk,
  sizeKb: DIRECTORY_ITEM_KB,
});

/** Charges of the endpoint health writes. */
export const healthCharges: MeterRules<EndpointHealthStore> = {
  recordAttempt: accountWrite,
  openCircuit: accountWrite,
  disable: accountWrite,
  takeSlot: accountWrite,
  releaseSlot: accountWrite,
  enable: accountWrite,
};
