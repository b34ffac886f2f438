/**
 * An extra endpoint's delivery item (`DLV#<org>#<IBAN>#<ep_id>`, the event's sequence as sort key): what
 * every write sets on an untouched one, the values its expressions name, the conditions of its writes, and
 * the delivery an item holds.
 */
import type { DeliveryRef, EndpointDelivery } from '#domain/endpoints/deliveries-port';
import type { WebhookStatus } from '#domain/model';
import { toAttempts } from './event-items';

/**
 * What every write sets on an untouched delivery: the event it belongs to, and its event's expiry (the
 * table's TTL attribute) when it has one, so the delivery goes with its event's retention.
 */
export function create(ref: DeliveryRef): string {
  return `id = :id, cycle_base = if_not_exists(cycle_base, :zero)${expiry(ref)}`;
}

/** The event's expiry, set once (an item written before it carried none takes it too). */
export function expiry(ref: DeliveryRef): string {
  return ref.expiresAt === undefined ? '' : ', expires_at = if_not_exists(expires_at, :exp)';
}

/**
 * The values a write's expressions name of the event's id, `:zero` and its expiry: DynamoDB refuses a
 * value no expression uses, and a write on an existing delivery (a new cycle) creates nothing.
 */
export function createValues(ref: DeliveryRef, expressions: string): Record<string, unknown> {
  const values: Record<string, unknown> = {
    ':id': ref.id,
    ':zero': 0,
    ...(ref.expiresAt === undefined ? {} : { ':exp': ref.expiresAt }),
  };
  return Object.fromEntries(
    Object.entries(values).filter(([name]) => new RegExp(`${name}\\b`).test(expressions)),
  );
}

/** The item is this event's delivery, or none yet. */
export const OWN = '(attribute_not_exists(pk) OR id = :id)';

/** A pending delivery (an untouched one is). */
export const PENDING = '(attribute_not_exists(pk) OR (id = :id AND webhook_status = :pending))';

/** The delivery an item holds. */
export function toDelivery(item: Record<string, unknown>): EndpointDelivery {
  return {
    status: (item.webhook_status as WebhookStatus | undefined) ?? 'pending',
    retries: Number(item.webhook_retries ?? 0),
    cycleBase: Number(item.cycle_base ?? 0),
    deliveries: toAttempts(item.deliveries),
    leaseUntil: item.lease_until === undefined ? undefined : Number(item.lease_until),
    nextAttemptAt: item.next_attempt_at === undefined ? undefined : Number(item.next_attempt_at),
    cycles: 1 + Number(item.new_cycles ?? 0),
    ...(item.route_cycle === undefined ? {} : { routeCycle: Number(item.route_cycle) }),
  };
}
