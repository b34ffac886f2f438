/**
 * The JSON view of an account's webhook endpoint (snake_case, as the account's): its URL (masked for a
 * `read` key, as the account view masks `webhook_url`), subscription, order, health and security summary.
 */
import { HEALTHY } from '#delivery/endpoint-health-port';
import type { Endpoint } from '#domain/endpoints/endpoint';
import { renderTimestamp } from '#domain/time';
import { joinUrl, maskUrlSecrets, pathSegment } from '#domain/urls';
import type { ENDPOINT } from '#http/openapi/endpoints';
import type { Static } from '#http/schema';
import { type AccountAudience, toEndpointHealthView } from './account-view';
import { toEndpointSecurityView } from './endpoint-security-view';

/** The view of an endpoint. */
export type EndpointView = Static<typeof ENDPOINT>;

/** The view of an endpoint, linking to itself and its account. */
export function toEndpointView(endpoint: Endpoint, baseUrl: string, audience: AccountAudience): EndpointView {
  const { url } = endpoint;
  const account = `/accounts/${pathSegment(endpoint.iban)}`;
  const health = endpoint.health ?? HEALTHY;
  return {
    endpoint_id: endpoint.id ?? null,
    default: endpoint.extra === undefined,
    url: url === undefined ? null : audience.fullUrl ? url : maskUrlSecrets(url),
    event_types: endpoint.eventTypes === undefined ? null : [...endpoint.eventTypes],
    filter: endpoint.filter ?? null,
    description: endpoint.description ?? null,
    delivery_order: endpoint.deliveryOrder ?? 'concurrent',
    enabled: health.state !== 'disabled',
    webhook_health: toEndpointHealthView(health),
    ...toEndpointSecurityView(endpoint.security),
    created_at: renderTimestamp(endpoint.createdAt),
    updated_at: renderTimestamp(endpoint.updatedAt),
    _links: {
      self: joinUrl(baseUrl, `${account}/endpoints/${endpoint.id ?? ''}`),
      account: joinUrl(baseUrl, account),
    },
  };
}
