/** One event: payload, the webhook request as sent, every attempt, and (manage) redelivery. */
import { ApiError, call, describe } from './api';
import { badge, cell, copyable, h, mount, notice } from './dom';

interface Delivery {
  delivery_at: string;
  response_status: number;
  response_time: number;
  response_body: string;
  /** Where this attempt went (null: recorded before URLs were kept). */
  url: string | null;
  signing_keys: string[];
}

interface EventDetail {
  id: string;
  signature: string | null;
  account: string;
  /** The event's place in its account; null for an event stored before sequences. */
  sequence: number | null;
  type: string;
  /** The version of its type the payload passed; null for an event published before the catalog. */
  type_version: number | null;
  triggered_at: string;
  payload: unknown;
  webhook_status: string;
  webhook_retries: number;
  next_attempt_at: string | null;
  webhook_deliveries: Delivery[];
  _links: { self: string; account: string };
}

/** A delivered event may be sent again too (a new cycle, within the cap on cycles). */
const REDELIVERABLE = ['failed', 'skipped', 'pending', 'success'];
const POLL_MS = 1000;
const WAIT_MS = 90_000;

/**
 * The body Herald POSTs: the event's fields in the order the publisher wrote them. The publisher stores
 * `JSON.stringify(payload)`, so parsing and serialising again yields the same bytes.
 */
function webhookBody(e: EventDetail): string {
  const { id, type, type_version, account, sequence, triggered_at, payload, _links } = e;
  // An event stored before the catalog was sent without a version, one stored before sequences without
  // a sequence: JSON.stringify leaves out an undefined field.
  return JSON.stringify({
    id,
    type,
    type_version: type_version ?? undefined,
    account,
    sequence: sequence ?? undefined,
    triggered_at,
    payload,
    _links,
  });
}

/** The request as the latest attempt sent it: its own URL, not the account's current one. */
function requestSection(e: EventDetail, version: string): HTMLElement {
  const last = e.webhook_deliveries.at(-1);
  const headers: [string, string][] = [
    ['Content-Type', 'application/json'],
    ['User-Agent', `Herald/${version}`],
    [
      'X-Signature',
      `${e.signature ?? 't=<webhook-timestamp>,sha256=<hex HMAC-SHA256 of "<t>.<body>">'} (per attempt; shown: the latest)`,
    ],
    ['webhook-id', e.id],
    ['webhook-timestamp', 'Unix seconds of each attempt (see Attempts)'],
    [
      'webhook-signature',
      'v1,<base64 HMAC-SHA256> of "<webhook-id>.<webhook-timestamp>.<body>", per attempt',
    ],
  ];
  const target = last
    ? `POST ${last.url ?? '(URL not recorded for this attempt)'}`
    : "No attempt yet: the next one goes to the account's webhook_url.";
  return h(
    'section',
    { 'aria-labelledby': 'req' },
    h('h2', { id: 'req' }, last ? 'Webhook request (latest attempt)' : 'Webhook request'),
    h('p', { class: 'mono wrap' }, target),
    h(
      'div',
      { class: 'scroll' },
      h(
        'table',
        { class: 'headers' },
        h('caption', { class: 'sr' }, 'Headers sent'),
        h(
          'tbody',
          {},
          headers.map(([n, v]) =>
            h('tr', {}, h('th', { scope: 'row' }, n), h('td', { class: 'mono wrap' }, v)),
          ),
        ),
      ),
    ),
    copyable('body', webhookBody(e)),
  );
}

function attemptsSection(deliveries: readonly Delivery[], fresh: number): HTMLElement {
  const rows = deliveries.map((d, i) => {
    const ok = d.response_status >= 200 && d.response_status < 300;
    const result = d.response_status === 0 ? 'no answer' : `HTTP ${d.response_status}`;
    return h(
      'tr',
      { class: i >= fresh ? 'fresh' : undefined },
      cell('#', { class: 'num' }, i + 1, i >= fresh ? h('span', { class: 'new' }, ' new') : null),
      cell('Time (UTC)', { class: 'mono' }, d.delivery_at),
      cell('URL', { class: 'mono wrap' }, d.url ?? h('span', { class: 'muted' }, '(not recorded)')),
      cell(
        'Result',
        {},
        h('span', { class: `badge ${ok ? 's-success' : 's-failed'}` }, `${result} · ${ok ? 'ok' : 'failed'}`),
      ),
      cell('Signed by', { class: 'mono' }, d.signing_keys.length > 0 ? d.signing_keys.join(' ') : '–'),
      cell('Response time', { class: 'num' }, `${d.response_time} ms`),
      cell(
        'Response body',
        {},
        d.response_body
          ? h('pre', { class: 'body' }, d.response_body)
          : h('span', { class: 'muted' }, '(empty)'),
      ),
    );
  });
  return h(
    'section',
    { 'aria-labelledby': 'att' },
    h('h2', { id: 'att' }, `Attempts (${deliveries.length})`),
    deliveries.length === 0
      ? notice('info', 'No attempt yet.')
      : h(
          'div',
          { class: 'scroll' },
          h(
            'table',
            { class: 'attempts cards' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['#', 'Time (UTC)', 'URL', 'Result', 'Signed by', 'Response time', 'Response body'].map((t) =>
                  h('th', { scope: 'col' }, t),
                ),
              ),
            ),
            h('tbody', {}, rows),
          ),
        ),
  );
}

/** Renders `#/events/<id>`. */
export async function renderEvent(
  main: HTMLElement,
  id: string,
  manage: boolean,
  fresh = Infinity,
): Promise<void> {
  mount(main, h('p', {}, h('a', { href: '#/events' }, '← Events')), notice('info', 'Loading the event…'));
  let event: EventDetail;
  try {
    event = (await call<EventDetail>(`/events/${encodeURIComponent(id)}`)).data;
  } catch (error) {
    return mount(
      main,
      h('p', {}, h('a', { href: '#/events' }, '← Events')),
      notice('error', describe(error)),
    );
  }
  const health = await call<{ version: string }>('/health', { key: null }).catch(() => undefined);
  const version = health?.data.version ?? '<version>';
  const status = h('div', { 'aria-live': 'polite' });
  mount(
    main,
    h('p', {}, h('a', { href: '#/events' }, '← Events')),
    h('h1', {}, event.type, ' ', badge(event.webhook_status)),
    h(
      'dl',
      { class: 'facts' },
      [
        ['Event id', event.id],
        ['Account', event.account],
        ['Sequence', event.sequence === null ? '–' : String(event.sequence)],
        ['Triggered (UTC)', event.triggered_at],
        ['Attempts', String(event.webhook_retries)],
        ...(event.webhook_status === 'pending'
          ? [['Next attempt (UTC)', event.next_attempt_at ?? 'queued, within seconds']]
          : []),
      ].flatMap(([k, v]) => [h('dt', {}, k), h('dd', { class: 'mono' }, v)]),
    ),
    redeliverControl(main, event, manage, status),
    status,
    h(
      'section',
      { 'aria-labelledby': 'pl' },
      h('h2', { id: 'pl' }, 'Payload'),
      copyable('payload', JSON.stringify(event.payload, null, 2)),
    ),
    attemptsSection(event.webhook_deliveries, fresh),
    requestSection(event, version),
  );
}

function redeliverControl(
  main: HTMLElement,
  event: EventDetail,
  manage: boolean,
  status: HTMLElement,
): HTMLElement | null {
  if (!manage) return h('p', { class: 'muted' }, 'Redelivery needs a portal link with manage access.');
  if (!REDELIVERABLE.includes(event.webhook_status)) return null;
  const pending = event.webhook_status === 'pending';
  const button = h('button', { type: 'button', class: 'primary' }, pending ? 'Attempt now' : 'Redeliver');
  button.addEventListener('click', () => void redeliver(main, event, button, status));
  const note = pending
    ? 'Makes the next attempt of this cycle now instead of at its scheduled time.'
    : 'Starts a new cycle of up to 20 attempts.';
  return h('p', {}, button, ' ', h('span', { class: 'muted' }, note));
}

async function redeliver(
  main: HTMLElement,
  event: EventDetail,
  button: HTMLButtonElement,
  status: HTMLElement,
): Promise<void> {
  button.disabled = true;
  const before = event.webhook_deliveries.length;
  try {
    await call(`/events/${encodeURIComponent(event.id)}/redeliver`, { method: 'POST' });
  } catch (error) {
    button.disabled = false;
    const message =
      error instanceof ApiError && error.status === 403
        ? error.message
        : `Redelivery refused: ${describe(error)}`;
    return mount(status, notice('error', message));
  }
  mount(status, notice('info', 'Redelivery queued; waiting for the new attempt…'));
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline && main.isConnected) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const { data } = await call<EventDetail>(`/events/${encodeURIComponent(event.id)}`).catch(() => ({
      data: event,
    }));
    if (data.webhook_deliveries.length > before) {
      await renderEvent(main, event.id, true, before);
      const last = data.webhook_deliveries.at(-1);
      const text = last
        ? `New attempt landed: ${last.response_status === 0 ? 'no answer' : `HTTP ${last.response_status}`} in ${last.response_time} ms.`
        : '';
      main.querySelector('[aria-live]')?.replaceChildren(notice('ok', text));
      return;
    }
  }
  if (main.isConnected)
    mount(status, notice('info', 'No new attempt yet; it is queued. Reload later to see it.'));
}
