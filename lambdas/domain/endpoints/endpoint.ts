/**
 * An account's webhook endpoints: its default one (the account's own `webhook_url`, order, health and
 * security, as the seed had them) and the extra endpoints added beside it, each with its own
 * subscription (event types, payload filter), order, health and security. Where each is stored is the
 * adapters' concern; what the consumer routes an event to is {@link routeEvent}'s.
 */
import { MAX_ENDPOINTS_PER_ACCOUNT } from '#config/limits';
import type { EndpointSecurityChange } from '#domain/endpoint-security/endpoint-security';
import { ConflictError } from '#domain/errors';
import type { Account, DeliveryOrder, EndpointFields } from '#domain/model';
import { matchesEvent, type Subscription } from '#domain/subscriptions/subscription';
import type { EndpointAddress } from './address';

export type { EndpointAddress } from './address';

/** One webhook endpoint of an account. */
export interface Endpoint extends EndpointAddress, EndpointFields {
  /**
   * `ep_…`, random. The default endpoint's is the account's `endpoint_id` (absent only on an account from
   * before ids, until its next write); an extra endpoint's is its `extra`. Required (if undefined), so an
   * account is never taken for its endpoint by mistake.
   */
  readonly id: string | undefined;
  /** Where its webhooks go; absent only for a default endpoint without one (nothing is routed to it). */
  readonly url?: string | undefined;
}

/** The account's default endpoint: the account's own fields. */
export function defaultEndpoint(account: Account): Endpoint {
  return {
    iban: account.iban,
    orgId: account.orgId,
    id: account.endpointId,
    url: account.webhookUrl,
    eventTypes: account.eventTypes,
    filter: account.filter,
    description: account.description,
    deliveryOrder: account.deliveryOrder,
    settledThrough: account.settledThrough,
    orderEpoch: account.orderEpoch,
    sequenceFloor: account.sequenceFloor,
    health: account.health,
    security: account.security,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  };
}

/** Where an endpoint is stored (its account, and its id when extra). */
export function addressOf(endpoint: EndpointAddress): EndpointAddress {
  if (endpoint.operational) return { iban: '', orgId: endpoint.orgId, operational: true };
  return endpoint.extra === undefined
    ? { iban: endpoint.iban, orgId: endpoint.orgId }
    : { iban: endpoint.iban, orgId: endpoint.orgId, extra: endpoint.extra };
}

/** Whether an endpoint subscribes to a part of the events only (a type list or a payload filter). */
function restricts(endpoint: Subscription): boolean {
  return endpoint.eventTypes !== undefined || endpoint.filter !== undefined;
}

/**
 * Whether the account's events need a routing decision: it has extra endpoints, or its default one
 * subscribes to a part of the events. Otherwise each event goes to the default endpoint alone, as
 * before endpoints, with nothing recorded about it.
 */
export function needsRouting(account: Account): boolean {
  return (account.endpointCount ?? 0) > 0 || restricts(account);
}

/** What a routing decision reads of an event: its type and its payload (JSON data). */
export interface RoutedEvent {
  readonly type: string;
  readonly payload: unknown;
}

/**
 * The endpoints an event goes to: every endpoint with a URL and an id whose subscription matches, the
 * default one first, then the extra ones as given. A disabled endpoint is routed like any other: its
 * delivery settles `skipped` without an attempt (as a disabled endpoint's always did), so enabling it
 * again with a recovery sends what it missed. The ids are what the routing records; an endpoint
 * disabled, deleted or changed later does not change them.
 */
export function routeEvent(endpoints: readonly Endpoint[], event: RoutedEvent): string[] {
  const routed: string[] = [];
  for (const endpoint of endpoints) {
    if (endpoint.id === undefined || endpoint.url === undefined) continue;
    if (!matchesEvent(endpoint, event)) continue;
    if (!routed.includes(endpoint.id)) routed.push(endpoint.id);
  }
  return routed;
}

/** The refusal of an endpoint past the limit (`MAX_ENDPOINTS_PER_ACCOUNT`, the default one included). */
export function tooManyEndpoints(iban: string): ConflictError {
  return new ConflictError(
    `Account ${iban} has ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints (its default one included), the most an ` +
      'account may have: remove one first.',
  );
}

/**
 * An endpoint write as a request asks for it: each field absent keeps what is stored (a new endpoint:
 * none, or the default), `null` removes it.
 */
export interface EndpointRequest {
  /** Where its webhooks go; required for a new endpoint; null only removes the default one's URL. */
  readonly url?: string | null | undefined;
  /** Catalog type names; null: every type. */
  readonly eventTypes?: readonly string[] | null | undefined;
  /** A payload filter as received (JSON data, checked here); null: every payload. */
  readonly filter?: unknown;
  readonly description?: string | null | undefined;
  readonly deliveryOrder?: DeliveryOrder | undefined;
  /** False disables the endpoint (nothing is sent to it); true enables it again. */
  readonly enabled?: boolean | undefined;
  readonly security: EndpointSecurityChange;
}
