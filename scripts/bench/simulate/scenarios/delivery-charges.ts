/**
 * What the fan-out's port calls cost in DynamoDB, declared for the metered ports as `consumer-charges.ts`
 * declares the event store's: the consumer's read of an account's extra endpoints, and a routed
 * endpoint's delivery item (`lambdas/adapters/dynamodb/events/endpoint-deliveries.ts`), sized from the
 * attempts it holds.
 */
import { attemptItem } from '#adapters/dynamodb/events/event-items';
import { keys } from '#adapters/dynamodb/items';
import type { DeliveryRef, EndpointDeliveries, EndpointDelivery } from '#domain/endpoints/deliveries-port';
import type { EndpointStore } from '#domain/ports';
import type { Charge } from '../aws/dynamodb/capacity';
import { itemBytes } from '../aws/dynamodb/item-size';
import type { MeterRules } from '../ports/metered';
import { attemptBytes, DIRECTORY_ITEM_KB } from './consumer-charges';

/** What one read unit of a consistent read covers. */
const QUERY_BLOCK_KB = 4;
/** An extra endpoint's item (URL, subscription, health), under 1 KB like the account item. */
const ENDPOINT_ITEM_KB = DIRECTORY_ITEM_KB;

/**
 * Charges of the consumer's read of an account's extra endpoints: one consistent Query of the account's
 * partition, billed on the account item and every endpoint item it returns. Its first 4 KB (the least a
 * query is billed) are charged before it runs; what the items add beyond them, after.
 */
export const endpointStoreCharges: MeterRules<Pick<EndpointStore, 'listEndpoints'>> = {
  listEndpoints: {
    before: (iban) => ({
      kind: 'query',
      key: keys.account(iban).pk,
      sizeKb: QUERY_BLOCK_KB,
      consistent: true,
    }),
    after: (endpoints, iban) => {
      const beyond = DIRECTORY_ITEM_KB + endpoints.length * ENDPOINT_ITEM_KB - QUERY_BLOCK_KB;
      return beyond <= 0
        ? []
        : [{ kind: 'query', key: keys.account(iban).pk, sizeKb: beyond, consistent: true }];
    },
  },
};

/**
 * Charges of a routed endpoint's delivery item (`DLV#<org>#<IBAN>#<ep_id>`, sort key the sequence): a
 * consistent GetItem, and UpdateItems billed on the item with what the write adds.
 *
 * @param lookup - the stored delivery of a ref (undefined before its first write)
 */
export function deliveryCharges(
  lookup: (ref: DeliveryRef) => EndpointDelivery | undefined,
): MeterRules<EndpointDeliveries> {
  const kb = (ref: DeliveryRef, extraBytes = 0) => {
    const delivery = lookup(ref);
    const item = {
      ...keys.delivery(ref),
      id: ref.id,
      webhook_status: delivery?.status ?? 'pending',
      webhook_retries: delivery?.retries ?? 0,
      deliveries: (delivery?.deliveries ?? []).map(attemptItem),
      lease_until: delivery?.leaseUntil,
      next_attempt_at: delivery?.nextAttemptAt,
    };
    return (itemBytes(item) + extraBytes) / 1024;
  };
  const write = (ref: DeliveryRef, extraBytes = 0): Charge => ({
    kind: 'write',
    key: keys.delivery(ref).pk,
    sizeKb: kb(ref, extraBytes),
  });
  return {
    readDelivery: (ref) => ({ kind: 'read', key: keys.delivery(ref).pk, sizeKb: kb(ref), consistent: true }),
    takeLease: (ref) => write(ref, 12),
    recordAttempt: (ref, attempt) => write(ref, attemptBytes(attempt)),
    settlePending: (ref) => write(ref),
  };
}
