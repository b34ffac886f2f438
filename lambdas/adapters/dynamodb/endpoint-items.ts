/**
 * The layout of an extra endpoint's item, in its account's partition (`ACCOUNT#<IBAN>` /
 * `ENDPOINT#<id>`, so one Query reads an account's endpoints): the account item's endpoint attributes
 * under the same names (`webhook_url`, `delivery_order`, `settled_through`, `order_epoch`, the security
 * summary, the health `wh_*`), so the health, order and security writes apply to either, and the
 * subscription (`subscription-items.ts`).
 */
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { NewEndpoint } from '#domain/ports';
import { ENDPOINT_SECURITY, endpointSecurityItem, toEndpointSecurity } from './endpoint-secret-items';
import { HEALTH_ATTR, toEndpointHealth } from './health-items';
import { keys } from './items';
import { storedSubscription, toSubscription } from './subscription-items';

/** The item of a new extra endpoint. */
export function endpointItem(endpoint: NewEndpoint): Record<string, unknown> {
  const summary = endpoint.security && endpointSecurityItem(endpoint.security.summary);
  return {
    ...keys.endpoint(endpoint.iban, endpoint.id),
    org_id: endpoint.orgId,
    iban: endpoint.iban,
    endpoint_id: endpoint.id,
    webhook_url: endpoint.url,
    ...storedSubscription(endpoint).set,
    ...(endpoint.deliveryOrder === 'ordered'
      ? { delivery_order: 'ordered', order_epoch: 1, settled_through: endpoint.settledThrough ?? 0 }
      : {}),
    ...(summary ? { [ENDPOINT_SECURITY]: summary } : {}),
    ...(endpoint.disabled
      ? {
          [HEALTH_ATTR.state]: 'disabled',
          [HEALTH_ATTR.since]: endpoint.disabled.at,
          [HEALTH_ATTR.reason]: endpoint.disabled.reason,
        }
      : {}),
    created_at: endpoint.createdAt,
    updated_at: endpoint.createdAt,
  };
}

/** The extra endpoint an item holds. */
export function toEndpoint(item: Record<string, unknown>): Endpoint {
  const id = String(item.endpoint_id);
  return {
    iban: String(item.iban),
    orgId: String(item.org_id),
    extra: id,
    id,
    url: typeof item.webhook_url === 'string' ? item.webhook_url : undefined,
    ...toSubscription(item),
    deliveryOrder: item.delivery_order === 'ordered' ? 'ordered' : undefined,
    settledThrough: typeof item.settled_through === 'number' ? item.settled_through : undefined,
    orderEpoch: typeof item.order_epoch === 'number' ? item.order_epoch : undefined,
    health: toEndpointHealth(item),
    security: toEndpointSecurity(item[ENDPOINT_SECURITY]),
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
  };
}
