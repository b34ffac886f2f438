/**
 * The JSON views of accounts (snake_case, as in the seed): an account with its endpoint's health, what
 * enabling an endpoint did, and what deleting an account (and erasing its events) did.
 */

import { MAX_LIST_DEPTH } from '#config/limits';
import { type EndpointHealth, HEALTHY } from '#delivery/endpoint-health-port';
import type { Account } from '#domain/model';
import type { AccountPage, AccountPageQuery } from '#domain/ports';
import type { DeletedAccount } from '#domain/queries';
import { renderTimestamp } from '#domain/time';
import { joinUrl, maskUrlSecrets, pathSegment } from '#domain/urls';
import type { ACCOUNT, ENDPOINT_ENABLED, ENDPOINT_HEALTH } from '#http/openapi/accounts';
import type { ACCOUNT_ERASURE } from '#http/openapi/admin-components';
import { linkHeaderValue } from '#http/paging';
import type { Static } from '#http/schema';
import { toEndpointSecurityView } from './endpoint-security-view';

/** The view of an account. */
export type AccountView = Static<typeof ACCOUNT>;

/** The view of an endpoint's health (timestamps rendered like every other; null when unknown). */
export type EndpointHealthView = Static<typeof ENDPOINT_HEALTH>;

/**
 * Who reads an account: its organization's `manage` keys and the operators see the webhook URL whole
 * (they set it, and write it back); anyone else (a `read` key, a read-only portal session) sees the
 * values of its query masked, since receivers put tokens there.
 */
export interface AccountAudience {
  readonly fullUrl: boolean;
}

/** The view of an account, linking to its events. */
export function toAccountView(account: Account, baseUrl: string, audience: AccountAudience): AccountView {
  const url = account.webhookUrl;
  return {
    iban: account.iban,
    webhook_url: url === undefined ? null : audience.fullUrl ? url : maskUrlSecrets(url),
    endpoint_id: account.endpointId ?? null,
    delivery_order: account.deliveryOrder ?? 'concurrent',
    webhook_health: toEndpointHealthView(account.health ?? HEALTHY),
    ...toEndpointSecurityView(account.security),
    _links: {
      self: joinUrl(baseUrl, `/accounts/${pathSegment(account.iban)}`),
      events: joinUrl(baseUrl, `/events?account=${encodeURIComponent(account.iban)}`),
    },
  };
}

/**
 * The `Link` header of an account listing: `first` and `prev` keep `per_page` and `after`; `next` is the
 * following page, or, once `page × per_page` would pass `MAX_LIST_DEPTH`, page 1 after the last IBAN of
 * this page, so following `next` reaches every account at a bounded cost per request.
 *
 * @param path - the listing's path, `/accounts` or the operator's
 */
export function accountListLink(
  baseUrl: string,
  path: string,
  query: AccountPageQuery,
  page: AccountPage,
): string {
  const url = (at: AccountPageQuery): string => {
    const params = new URLSearchParams({ page: String(at.page), per_page: String(at.perPage) });
    if (at.after !== undefined) params.set('after', at.after);
    return `${joinUrl(baseUrl, path)}?${params}`;
  };
  const last = page.accounts.at(-1)?.iban;
  const deeper = (query.page + 1) * query.perPage > MAX_LIST_DEPTH;
  const next = !page.hasMore
    ? undefined
    : deeper && last !== undefined
      ? url({ page: 1, perPage: query.perPage, after: last })
      : url({ ...query, page: query.page + 1 });
  return linkHeaderValue({
    first: url({ ...query, page: 1 }),
    prev: query.page > 1 ? url({ ...query, page: query.page - 1 }) : undefined,
    next,
  });
}

/** The health of an account's endpoint as the API shows it. */
export function toEndpointHealthView(health: EndpointHealth): EndpointHealthView {
  const time = (iso: string | undefined) => (iso === undefined ? null : renderTimestamp(iso));
  return {
    state: health.state,
    since: time(health.since),
    reason: health.reason ?? null,
    consecutive_failures: health.consecutiveFailures,
    failing_since: time(health.failingSince),
    recovered_at: time(health.recoveredAt),
    last_success_at: time(health.recoveredAt),
    last_failure_at: time(health.lastFailureAt),
    recent_latency_ms: health.recentLatencyMs ?? null,
    circuit_open_until:
      health.circuitOpenUntil === undefined ? null : time(new Date(health.circuitOpenUntil).toISOString()),
  };
}

/** The answer of an enable (the `EndpointEnabled` schema). */
export type EndpointEnabledView = Static<typeof ENDPOINT_ENABLED>;

/**
 * Renders what enabling did: the endpoint is healthy, these events start a new cycle, and (while `more`)
 * the cursor that goes on with the recovery.
 */
export function toEndpointEnabledView(result: {
  readonly iban: string;
  readonly queued: readonly string[];
  readonly more: boolean;
  readonly cursor?: string | undefined;
}): EndpointEnabledView {
  const view = {
    iban: result.iban,
    webhook_health: 'healthy' as const,
    queued: result.queued,
    more: result.more,
  };
  return result.cursor === undefined ? view : { ...view, cursor: result.cursor };
}

/** What one `DELETE /admin/accounts/{iban}?erase=true` did (the `AccountErasure` schema). */
export type AccountErasureView = Static<typeof ACCOUNT_ERASURE>;

/** Renders one deletion step; `cursor` only while `more` is true. */
export function toAccountErasureView(step: DeletedAccount): AccountErasureView {
  const view = {
    iban: step.iban,
    org_id: step.orgId,
    deleted: step.deleted,
    erased_events: step.erasedEvents,
    erased_notices: step.erasedNotices,
    more: step.more,
  };
  return step.cursor === undefined ? view : { ...view, cursor: step.cursor };
}
