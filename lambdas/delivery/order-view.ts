/**
 * The account's log as one ordered endpoint sees it: each earlier event counts as settled for endpoint E
 * when it was not routed to E, or E's own delivery of it is settled (the event's item for an event not
 * fanned out, E's delivery item for a fanned-out one). A fanned-out event's own status is the aggregate
 * of its deliveries, which may be `failed` (another endpoint failed for good) while E's delivery is still
 * pending: the order must not read it for E's. An event not routed yet is pending (routing comes before
 * any attempt), so the gate waits for it. An account with one endpoint routes nothing: its entries are
 * read as stored, with no read more.
 */
import type { LogEntry } from '#domain/account-log';
import type { EndpointDeliveries } from '#domain/endpoints/deliveries-port';
import type { Endpoint } from '#domain/endpoints/endpoint';
import { isSettled } from './order-rule';

/**
 * The entries (ascending) as endpoint `endpoint` sees them, up to the first one not settled for it
 * (included); those after it are left as read, since the order reads no further than that one. A
 * fanned-out entry's delivery is read only when its aggregate does not already say every delivery
 * settled (`success`, `skipped`).
 */
export async function entriesAt(
  deliveries: Pick<EndpointDeliveries, 'readDelivery'>,
  endpoint: Endpoint,
  entries: readonly LogEntry[],
): Promise<LogEntry[]> {
  const endpointId = endpoint.id;
  // An account from before endpoint ids has routed nothing to its default endpoint by that id.
  if (endpointId === undefined) return [...entries];
  const seen: LogEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const at = await entryAt(deliveries, endpoint, endpointId, entry);
    seen.push(at);
    if (!isSettled(at.webhookStatus)) return [...seen, ...entries.slice(index + 1)];
  }
  return seen;
}

async function entryAt(
  deliveries: Pick<EndpointDeliveries, 'readDelivery'>,
  endpoint: Endpoint,
  endpointId: string,
  entry: LogEntry,
): Promise<LogEntry> {
  const { routes, sequence } = entry;
  if (routes === undefined || sequence === undefined) return entry;
  if (!routes.includes(endpointId)) return { ...entry, webhookStatus: 'skipped' };
  const fannedOut = endpoint.extra !== undefined || routes.some((route) => route !== endpointId);
  if (!fannedOut || entry.webhookStatus === 'success' || entry.webhookStatus === 'skipped') return entry;
  const { id, orgId, account } = entry;
  const delivery = await deliveries.readDelivery({ id, orgId, account, sequence, endpointId });
  return {
    ...entry,
    webhookStatus: delivery.status,
    leaseUntil: delivery.leaseUntil,
    nextAttemptAt: delivery.nextAttemptAt,
    endpointId,
  };
}
