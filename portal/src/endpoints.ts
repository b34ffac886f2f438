/**
 * Endpoints: each account's webhook URL, health and chart, and (manage) URL, re-enable, test event and
 * token actions; above them, a banner about each account's endpoint failing or disabled.
 */
import { call, describe, linkQuery } from './api';
import { chart, loadStats } from './chart';
import { badge, h, mount, notice } from './dom';
import { type EndpointSecurityFields, securityLines } from './endpoint-security';
import { healthBanner } from './health-banner';
import { testEventForm } from './test-event';
import { toApiTime, utcTimeInput } from './utc-time';

/** The part of an endpoint's `webhook_health` the cards show (see the `EndpointHealth` schema). */
export interface Health {
  state: 'healthy' | 'degraded' | 'disabled';
  since: string | null;
  reason: string | null;
  consecutive_failures: number;
  failing_since: string | null;
  last_failure_at: string | null;
}

interface AccountView extends EndpointSecurityFields {
  iban: string;
  webhook_url: string | null;
  endpoint_id: string | null;
  /** `ordered`: each event waits until every earlier one of the account is settled. */
  delivery_order: 'concurrent' | 'ordered';
  webhook_health: Health;
}

/** The delivery orders an account may have (see the `Account` schema). */
const DELIVERY_ORDERS = ['concurrent', 'ordered'] as const;

/** Accounts per page of the endpoints view: each card makes one call for its charts. */
const PER_PAGE = 10;

/** An endpoint's health: its state and since when, why (the answer that put it there), its failures. */
export function healthLine(health: Health): HTMLElement {
  const parts = [
    health.since ? `since ${health.since}` : '',
    health.reason ?? '',
    health.consecutive_failures ? `${health.consecutive_failures} failures in a row` : '',
    health.failing_since ? `failing since ${health.failing_since}` : '',
    health.last_failure_at ? `last failed ${health.last_failure_at}` : '',
  ].filter(Boolean);
  return h('p', {}, 'Health: ', badge(health.state), ' ', parts.join(' · '));
}

function editUrlForm(account: AccountView, status: HTMLElement, refresh: () => void): HTMLElement {
  const input = h('input', {
    type: 'url',
    name: 'webhook_url',
    value: account.webhook_url ?? '',
    required: true,
    'aria-label': `Webhook URL of ${account.iban}`,
  });
  const order = h(
    'select',
    { name: 'delivery_order', 'aria-label': `Delivery order of ${account.iban}` },
    DELIVERY_ORDERS.map((value) => h('option', { value, selected: account.delivery_order === value }, value)),
  );
  const form = h('form', { class: 'row' }, input, order, h('button', { type: 'submit' }, 'Save'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await call(`/accounts/${encodeURIComponent(account.iban)}`, {
        method: 'PUT',
        body: { webhook_url: input.value.trim(), delivery_order: order.value },
      });
      refresh();
    } catch (error) {
      mount(status, notice('error', describe(error, 'Editing a webhook URL')));
    }
  });
  return form;
}

function enableForm(account: AccountView, status: HTMLElement, refresh: () => void): HTMLElement {
  const since = utcTimeInput('recover_since', '', 'Redeliver failures since (UTC)');
  const form = h(
    'form',
    { class: 'row' },
    h('button', { type: 'submit' }, 'Re-enable'),
    h('label', {}, 'and redeliver failures since (UTC, optional) ', since),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = since.value.trim();
    const body = text ? { recover_since: toApiTime(text) ?? text } : {};
    try {
      // A recovery goes step by step (each bounded on the server), each one on from the last one's cursor.
      let cursor: string | undefined;
      let queued = 0;
      do {
        const { data } = await call<{ queued: string[]; cursor?: string }>(
          `/accounts/${encodeURIComponent(account.iban)}/enable`,
          { method: 'POST', body: cursor === undefined ? body : { ...body, cursor } },
        );
        queued += data.queued.length;
        cursor = data.cursor;
        if (cursor !== undefined) mount(status, notice('info', `Re-enabled; ${queued} redelivered so far…`));
      } while (cursor !== undefined);
      refresh();
    } catch (error) {
      mount(status, notice('error', describe(error, 'Re-enabling an endpoint')));
    }
  });
  return form;
}

function accountCard(account: AccountView, manage: boolean, refresh: () => void): HTMLElement {
  const status = h('div', { 'aria-live': 'polite' });
  const charts = h('div', { class: 'charts' }, notice('info', 'Loading attempts…'));
  loadStats(account.iban)
    .then((stats) =>
      mount(
        charts,
        stats.windows.map(chart),
        stats.complete
          ? null
          : h(
              'p',
              { class: 'muted' },
              `Drawn from the latest ${stats.events_read} events of the last 7 days.`,
            ),
      ),
    )
    .catch((error: unknown) => mount(charts, notice('error', describe(error, 'The delivery summary'))));
  return h(
    'article',
    { class: 'card', 'data-iban': account.iban },
    h('h2', { class: 'mono' }, account.iban),
    account.endpoint_id ? h('p', { class: 'muted mono' }, `Endpoint ${account.endpoint_id}`) : null,
    h('p', { class: 'mono wrap' }, account.webhook_url ?? 'No webhook URL: events are recorded as skipped.'),
    h(
      'p',
      {},
      h(
        'a',
        { href: `#/endpoints/${encodeURIComponent(account.iban)}` },
        'All endpoints and subscriptions →',
      ),
    ),
    healthLine(account.webhook_health),
    h(
      'p',
      {},
      'Delivery order: ',
      account.delivery_order,
      account.delivery_order === 'ordered'
        ? ' (each event waits for the earlier ones; a failed one lets the next go and is listed as failed)'
        : '',
    ),
    ...securityLines(account),
    manage ? editUrlForm(account, status, refresh) : null,
    manage && account.webhook_health.state === 'disabled' ? enableForm(account, status, refresh) : null,
    manage && account.webhook_url ? testEventForm(account, status) : null,
    status,
    charts,
  );
}

/** `GET /webhook-token` and `POST /webhook-token/rotate`: during an overlap, `previous` also signs. */
interface TokenView {
  readonly webhook_token: string;
  readonly previous: { readonly webhook_token: string; readonly expires_at: string } | null;
}

function tokenSection(): HTMLElement {
  const status = h('div', { 'aria-live': 'polite' });
  const overlap = h('input', {
    type: 'number',
    min: 0,
    max: 168,
    value: 24,
    name: 'overlap_hours',
    'aria-label': 'Overlap in hours',
  });
  const show = async (): Promise<void> => {
    try {
      const { data } = await call<{ webhook_token: string }>('/webhook-token');
      mount(status, h('pre', { class: 'wrap' }, data.webhook_token));
    } catch (error) {
      mount(status, notice('error', describe(error, 'Showing the token')));
    }
  };
  const rotate = async (): Promise<void> => {
    try {
      const { data } = await call<TokenView>('/webhook-token/rotate', {
        method: 'POST',
        body: { overlap_hours: Number(overlap.value) },
      });
      mount(
        status,
        notice('ok', 'Rotated. New token:'),
        h('pre', { class: 'wrap' }, data.webhook_token),
        data.previous
          ? h(
              'p',
              { class: 'muted' },
              `The previous token also signs webhooks until ${data.previous.expires_at} UTC.`,
            )
          : null,
      );
    } catch (error) {
      mount(status, notice('error', describe(error, 'Rotating the token')));
    }
  };
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'tok' },
    h('h2', { id: 'tok' }, 'Webhook token'),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', onclick: () => void show() }, 'Show token'),
      h('button', { type: 'button', onclick: () => void rotate() }, 'Rotate token'),
      h('label', {}, 'overlap (hours) ', overlap),
    ),
    status,
  );
}

/** The page's query of `GET /accounts` (`page`, `per_page`, `after`), from the fragment's query. */
function accountsQuery(query: URLSearchParams): URLSearchParams {
  const params = new URLSearchParams({ page: query.get('page') ?? '1', per_page: String(PER_PAGE) });
  const after = query.get('after');
  if (after) params.set('after', after);
  return params;
}

/** The fragment of the page a `Link` target of the listing names, or undefined without that link. */
function pageHref(link: string | null, rel: 'prev' | 'next'): string | undefined {
  const query = linkQuery(link, rel);
  if (query === undefined) return undefined;
  query.delete('per_page');
  return `#/endpoints?${query}`;
}

/** Renders `#/endpoints?…`: one page of accounts (each card one call for its charts), previous/next. */
export async function renderEndpoints(
  main: HTMLElement,
  manage: boolean,
  query: URLSearchParams = new URLSearchParams(),
): Promise<void> {
  mount(main, h('h1', {}, 'Endpoints'), notice('info', 'Loading accounts…'));
  const refresh = () => void renderEndpoints(main, manage, query);
  try {
    const { data, headers } = await call<AccountView[]>(`/accounts?${accountsQuery(query)}`);
    const prev = pageHref(headers.get('Link'), 'prev');
    const next = pageHref(headers.get('Link'), 'next');
    // The accounts' own endpoints, whose health the listing carries: reading each account's further
    // endpoints too would double the page's calls past the organization's burst. Its page shows them.
    const banner = h('div', {});
    const own = data.map((account) => ({ ...account, default: true }));
    void healthBanner(own, { manage, enabled: refresh, linkAccounts: true }).then((section) =>
      mount(banner, section),
    );
    mount(
      main,
      h('h1', {}, 'Endpoints'),
      banner,
      data.length === 0
        ? notice('info', 'No accounts yet.')
        : data.map((a) => accountCard(a, manage, refresh)),
      prev || next
        ? h(
            'nav',
            { class: 'pager', 'aria-label': 'Pages of accounts' },
            prev ? h('a', { href: prev, rel: 'prev' }, '← Previous') : null,
            next ? h('a', { href: next, rel: 'next' }, 'Next →') : null,
          )
        : null,
      manage ? tokenSection() : null,
    );
  } catch (error) {
    mount(main, h('h1', {}, 'Endpoints'), notice('error', describe(error)));
  }
}
