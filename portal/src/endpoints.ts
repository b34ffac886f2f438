/** Endpoints: each account's webhook URL, health and chart, and (manage) URL, re-enable and token actions. */
import { call, describe } from './api';
import { chart, loadAttempts, WINDOWS } from './chart';
import { badge, h, mount, notice } from './dom';
import { toApiTime, utcTimeInput } from './utc-time';

/** The part of an account's `webhook_health` the card shows (see the `EndpointHealth` schema). */
interface Health {
  state: 'healthy' | 'degraded' | 'disabled';
  since: string | null;
  reason: string | null;
  consecutive_failures: number;
}

interface AccountView {
  iban: string;
  webhook_url: string | null;
  webhook_health: Health;
}

function healthLine(health: Health): HTMLElement {
  const parts = [
    health.since ? `since ${health.since}` : '',
    health.reason ?? '',
    health.consecutive_failures ? `${health.consecutive_failures} failures in a row` : '',
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
  const form = h('form', { class: 'row' }, input, h('button', { type: 'submit' }, 'Save URL'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await call(`/accounts/${encodeURIComponent(account.iban)}`, {
        method: 'PUT',
        body: { webhook_url: input.value.trim() },
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
      await call(`/accounts/${encodeURIComponent(account.iban)}/enable`, { method: 'POST', body });
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
  const now = Date.now();
  loadAttempts(account.iban, now)
    .then(({ points, capped }) =>
      mount(
        charts,
        WINDOWS.map((w) => chart(points, w, now)),
        capped ? h('p', { class: 'muted' }, 'Drawn from the latest 100 events of the last 7 days.') : null,
      ),
    )
    .catch((error: unknown) => mount(charts, notice('error', describe(error))));
  return h(
    'article',
    { class: 'card', 'data-iban': account.iban },
    h('h2', { class: 'mono' }, account.iban),
    h('p', { class: 'mono wrap' }, account.webhook_url ?? 'No webhook URL: events are recorded as skipped.'),
    healthLine(account.webhook_health),
    manage ? editUrlForm(account, status, refresh) : null,
    manage && account.webhook_health.state === 'disabled' ? enableForm(account, status, refresh) : null,
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

/** Renders `#/endpoints`. */
export async function renderEndpoints(main: HTMLElement, manage: boolean): Promise<void> {
  mount(main, h('h1', {}, 'Endpoints'), notice('info', 'Loading accounts…'));
  const refresh = () => void renderEndpoints(main, manage);
  try {
    const { data } = await call<AccountView[]>('/accounts');
    mount(
      main,
      h('h1', {}, 'Endpoints'),
      data.length === 0
        ? notice('info', 'No accounts yet.')
        : data.map((a) => accountCard(a, manage, refresh)),
      manage ? tokenSection() : null,
    );
  } catch (error) {
    mount(main, h('h1', {}, 'Endpoints'), notice('error', describe(error)));
  }
}
