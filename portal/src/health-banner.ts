/**
 * The banner of an account's pages: each endpoint that is failing (degraded, with failures in a row) or
 * disabled, since when, why, the receiver's last answer, and what can be done: a manage session enables
 * a disabled endpoint with the call its page already makes; a read session is told who can. The last
 * answer comes from the newest notice about that endpoint's current run (the health does not keep it):
 * one read of the latest {@link NOTICES_READ} notices, made only when some endpoint needs attention.
 */
import { call, describe } from './api';
import { h, mount, notice } from './dom';
import type { Health } from './endpoints';
import { answerLine, loadNotices, NOTICES_READ, type NoticeView } from './notices';

/** An endpoint as both account pages know it (the account's default one, or one of its endpoints). */
export interface WatchedEndpoint {
  readonly iban: string;
  readonly endpoint_id: string | null;
  readonly default: boolean;
  readonly webhook_health: Health;
}

/** Failing (degraded with failures in a row) or disabled: what the banner is about. */
const needsAttention = (health: Health): boolean =>
  health.state === 'disabled' || (health.state === 'degraded' && health.consecutive_failures > 0);

/** Where the endpoint's current trouble began: notices older than that are about an earlier run. */
const runStart = (health: Health): string | null => health.failing_since ?? health.since;

/** The newest notice about the endpoint's current run that carries an answer. */
function latestAnswer(endpoint: WatchedEndpoint, notices: readonly NoticeView[]): NoticeView | undefined {
  const start = runStart(endpoint.webhook_health);
  return notices.find(
    (n) =>
      n.account === endpoint.iban &&
      n.endpoint_id === endpoint.endpoint_id &&
      n.last_answer !== null &&
      (start === null || n.since >= start),
  );
}

/** How the endpoint is named: its id, and whether it is the account's `webhook_url`. */
const nameOf = (endpoint: WatchedEndpoint): string =>
  `${endpoint.default ? 'Default endpoint' : 'Endpoint'}${endpoint.endpoint_id ? ` ${endpoint.endpoint_id}` : ''}`;

/** The existing enable call: the account's for its default endpoint, the endpoint's own otherwise. */
function enable(endpoint: WatchedEndpoint): Promise<unknown> {
  const account = `/accounts/${encodeURIComponent(endpoint.iban)}`;
  if (endpoint.default || endpoint.endpoint_id === null) {
    return call(`${account}/enable`, { method: 'POST', body: {} });
  }
  return call(`${account}/endpoints/${encodeURIComponent(endpoint.endpoint_id)}`, {
    method: 'PUT',
    body: { enabled: true },
  });
}

/** What can be done about it, by the session's scope. */
function remedy(endpoint: WatchedEndpoint, manage: boolean, enabled: (message: string) => void): HTMLElement {
  const health = endpoint.webhook_health;
  if (health.state !== 'disabled') {
    return h(
      'p',
      {},
      'Herald keeps retrying, more slowly; the first success clears this. If it keeps failing it is ' +
        'disabled: fix the receiver, or change its URL.',
    );
  }
  const name = nameOf(endpoint);
  if (!manage) {
    return h(
      'p',
      {},
      'Nothing is sent to it until it is enabled. Enabling needs manage access: a manage portal link or ' +
        'API key (',
      h(
        'code',
        {},
        endpoint.default
          ? `POST /accounts/${endpoint.iban}/enable`
          : `PUT /accounts/${endpoint.iban}/endpoints/${endpoint.endpoint_id ?? ''} {"enabled": true}`,
      ),
      ').',
    );
  }
  const status = h('span', { 'aria-live': 'polite' });
  const button = h('button', { type: 'button' }, `Enable ${name.toLowerCase()}`);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await enable(endpoint);
      enabled(`Enabled ${name.toLowerCase()} of ${endpoint.iban}.`);
    } catch (error) {
      button.disabled = false;
      mount(status, notice('error', describe(error, 'Enabling an endpoint')));
    }
  });
  return h(
    'p',
    { class: 'row' },
    button,
    h('span', { class: 'muted' }, 'Nothing is sent to it until it is enabled.'),
    status,
  );
}

function item(
  endpoint: WatchedEndpoint,
  told: NoticeView | undefined,
  options: BannerOptions,
  noticesError: string | undefined,
): HTMLElement {
  const health = endpoint.webhook_health;
  const disabled = health.state === 'disabled';
  const since = disabled ? health.since : (health.failing_since ?? health.since);
  const facts = [
    since ? `since ${since} UTC` : '',
    health.reason ?? '',
    health.consecutive_failures ? `${health.consecutive_failures} failures in a row` : '',
    told?.disable_at && !disabled ? `disabled at ${told.disable_at} UTC if it keeps failing` : '',
  ].filter(Boolean);
  const answer = told?.last_answer
    ? h(
        'p',
        {},
        'Last answer',
        h('span', { class: 'muted' }, ` (${told.at} UTC)`),
        ': ',
        answerLine(told.last_answer),
      )
    : h('p', { class: 'muted' }, noticesError ?? 'Last answer: not in its notices yet.');
  return h(
    'li',
    { class: disabled ? 'disabled' : 'failing', 'data-banner-endpoint': endpoint.endpoint_id ?? 'default' },
    h(
      'p',
      {},
      h('strong', {}, `${nameOf(endpoint)} of `, h('span', { class: 'mono' }, endpoint.iban)),
      disabled ? ' is disabled' : ' is failing',
      facts.length ? `: ${facts.join(' · ')}` : '',
    ),
    answer,
    options.linkAccounts
      ? h(
          'p',
          {},
          h('a', { href: `#/endpoints/${encodeURIComponent(endpoint.iban)}` }, 'The account’s endpoints →'),
        )
      : null,
    remedy(endpoint, options.manage, options.enabled),
  );
}

/** How the banner behaves on its page. */
export interface BannerOptions {
  readonly manage: boolean;
  /** Called once an endpoint was enabled, with what was done: the page redraws. */
  readonly enabled: (message: string) => void;
  /** Link each item to its account's endpoints page (on the list of accounts). */
  readonly linkAccounts: boolean;
}

/**
 * The banner about the endpoints that need attention, or null when none does. Without the notices (a
 * failed read) it still shows each endpoint's health, and says why the last answer is missing.
 */
export async function healthBanner(
  endpoints: readonly WatchedEndpoint[],
  options: BannerOptions,
): Promise<HTMLElement | null> {
  const troubled = endpoints.filter((endpoint) => needsAttention(endpoint.webhook_health));
  if (troubled.length === 0) return null;
  let notices: NoticeView[] = [];
  let noticesError: string | undefined;
  try {
    notices = (await loadNotices(1, NOTICES_READ)).notices;
  } catch (error) {
    noticesError = `Last answer: unknown. ${describe(error, 'Operational notices')}`;
  }
  return h(
    'section',
    { class: 'banner', 'aria-labelledby': 'attention' },
    h('h2', { id: 'attention' }, 'Endpoints that need attention'),
    h(
      'ul',
      {},
      troubled.map((endpoint) => item(endpoint, latestAnswer(endpoint, notices), options, noticesError)),
    ),
  );
}
