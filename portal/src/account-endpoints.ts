/**
 * An account's webhook endpoints (`#/endpoints/<iban>`): each one's URL (masked for a read session, as
 * the API masks it), subscription (event types, payload filter), description, order, health and
 * security summary, the default one marked as the account's `webhook_url`. A manage session adds,
 * edits, disables, enables and removes them (`/accounts/{iban}/endpoints…`); a read session only sees.
 * Above them, a banner about each one failing or disabled (./health-banner.ts).
 * What the page draws is bounded: at most the account's endpoints (the API's limit), each long
 * subscription cut with an ellipsis.
 */
import { MAX_ENDPOINTS_PER_ACCOUNT } from '../../lambdas/config/limits';
import { call, describe } from './api';
import { type EventType, loadCatalog } from './catalog';
import { badge, h, mount, notice } from './dom';
import { type EndpointView, endpointForm } from './endpoint-form';
import { securityLines } from './endpoint-security';
import { healthLine } from './endpoints';
import { healthBanner } from './health-banner';

/** Characters of a filter's JSON the list shows; the rest is cut with an ellipsis. */
const FILTER_SHOWN = 600;
/** Event type names the list shows; the rest are counted. */
const TYPES_SHOWN = 12;

/** Text cut to `max` characters, an ellipsis marking the cut. */
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function typesLine(types: readonly string[] | null): HTMLElement {
  if (types === null) return h('dd', {}, 'every type');
  const more = types.length - TYPES_SHOWN;
  return h(
    'dd',
    { class: 'mono wrap' },
    types.slice(0, TYPES_SHOWN).join(', '),
    more > 0 ? ` … and ${more} more` : '',
  );
}

function filterLine(filter: Record<string, unknown> | null): HTMLElement {
  if (filter === null) return h('dd', {}, 'every payload');
  return h('dd', {}, h('pre', { class: 'wrap filter' }, cut(JSON.stringify(filter, null, 2), FILTER_SHOWN)));
}

/** What a manage session may do with one endpoint: edit, disable or enable, remove (confirmed). */
function actions(
  iban: string,
  endpoint: EndpointView & { endpoint_id: string },
  types: readonly EventType[],
  done: (message: string) => void,
): HTMLElement {
  const status = h('div', { 'aria-live': 'polite' });
  const path = `/accounts/${encodeURIComponent(iban)}/endpoints/${encodeURIComponent(endpoint.endpoint_id)}`;
  const act = async (what: string, request: () => Promise<unknown>, message: string): Promise<void> => {
    try {
      await request();
      done(message);
    } catch (error) {
      mount(status, notice('error', describe(error, what)));
    }
  };
  const toggle = endpoint.enabled
    ? h(
        'button',
        {
          type: 'button',
          onclick: () =>
            void act(
              'Disabling an endpoint',
              () => call(path, { method: 'PUT', body: { enabled: false } }),
              `Disabled endpoint ${endpoint.endpoint_id}.`,
            ),
        },
        'Disable',
      )
    : h(
        'button',
        {
          type: 'button',
          onclick: () =>
            void act(
              'Enabling an endpoint',
              () => call(path, { method: 'PUT', body: { enabled: true } }),
              `Enabled endpoint ${endpoint.endpoint_id}.`,
            ),
        },
        'Enable',
      );
  // Removing asks first; the default endpoint stays with its account, and the card says why.
  const confirm = h('div', { hidden: true });
  mount(
    confirm,
    h(
      'div',
      { class: 'row' },
      h('span', {}, `Remove endpoint ${endpoint.endpoint_id}? Its pending deliveries settle skipped.`),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () =>
            void act(
              'Removing an endpoint',
              () => call(path, { method: 'DELETE' }),
              `Removed endpoint ${endpoint.endpoint_id}.`,
            ),
        },
        'Yes, remove it',
      ),
      h('button', { type: 'button', onclick: () => confirm.toggleAttribute('hidden', true) }, 'Cancel'),
    ),
  );
  const remove = endpoint.default
    ? h(
        'span',
        { class: 'muted' },
        "The default endpoint is the account's webhook URL and stays with the account: clear its URL or " +
          'disable it instead.',
      )
    : h('button', { type: 'button', onclick: () => confirm.toggleAttribute('hidden', false) }, 'Remove');
  return h(
    'div',
    {},
    h('details', {}, h('summary', {}, 'Edit'), endpointForm({ iban, endpoint, types, saved: done })),
    h('div', { class: 'row' }, toggle, remove),
    endpoint.default ? null : confirm,
    status,
  );
}

function endpointCard(
  iban: string,
  endpoint: EndpointView,
  manage: { types: readonly EventType[]; done: (message: string) => void } | undefined,
): HTMLElement {
  const id = endpoint.endpoint_id;
  return h(
    'article',
    { class: 'card endpoint', 'data-endpoint': id ?? 'default' },
    h(
      'h2',
      { class: 'mono' },
      id ?? 'Default endpoint',
      endpoint.default ? h('span', { class: 'badge' }, "default: the account's webhook_url") : null,
      endpoint.enabled ? null : badge('disabled'),
    ),
    h('p', { class: 'mono wrap' }, endpoint.url ?? 'No URL: its events are recorded as skipped.'),
    endpoint.description ? h('p', {}, endpoint.description) : null,
    h(
      'dl',
      { class: 'settings' },
      h('dt', {}, 'Event types'),
      typesLine(endpoint.event_types),
      h('dt', {}, 'Filter'),
      filterLine(endpoint.filter),
      h('dt', {}, 'Delivery order'),
      h('dd', {}, endpoint.delivery_order),
      h('dt', {}, 'Enabled'),
      h('dd', {}, endpoint.enabled ? 'yes' : 'no: nothing is sent to it'),
    ),
    healthLine(endpoint.webhook_health),
    ...securityLines(endpoint),
    manage && id !== null ? actions(iban, { ...endpoint, endpoint_id: id }, manage.types, manage.done) : null,
    manage && id === null
      ? h('p', { class: 'muted' }, 'Change this endpoint on the account’s card until it has an id.')
      : null,
  );
}

/** Renders `#/endpoints/<iban>`: the account's endpoints, and for a manage session their controls. */
export async function renderAccountEndpoints(
  main: HTMLElement,
  iban: string,
  manage: boolean,
  message?: string,
): Promise<void> {
  const title = h('h1', {}, 'Endpoints of ', h('span', { class: 'mono' }, iban));
  const back = h('p', {}, h('a', { href: '#/endpoints' }, '← Accounts'));
  mount(main, back, title, notice('info', 'Loading endpoints…'));
  const done = (text: string) => void renderAccountEndpoints(main, iban, manage, text);
  try {
    const path = `/accounts/${encodeURIComponent(iban)}/endpoints`;
    // Without the catalog the list still shows; only the choice of types is missing, and said so.
    const catalog: Promise<EventType[] | string> = manage
      ? loadCatalog().catch((error: unknown) => describe(error, 'The event type catalog'))
      : Promise.resolve([]);
    const [endpoints, loaded] = await Promise.all([
      call<EndpointView[]>(path).then((answer) => answer.data.slice(0, MAX_ENDPOINTS_PER_ACCOUNT)),
      catalog,
    ]);
    const types = typeof loaded === 'string' ? [] : loaded;
    const controls = manage ? { types, done } : undefined;
    // The list shows at once; the banner follows when the notices it quotes are read.
    const banner = h('div', {});
    void healthBanner(
      endpoints.map((endpoint) => ({ ...endpoint, iban })),
      { manage, enabled: done, linkAccounts: false },
    ).then((section) => mount(banner, section));
    mount(
      main,
      back,
      title,
      message ? notice('ok', message) : null,
      banner,
      typeof loaded === 'string' ? notice('error', `${loaded} Event types cannot be chosen now.`) : null,
      h(
        'p',
        {},
        `${endpoints.length} of at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints. Each event goes to every ` +
          'enabled endpoint whose event types and filter match it, with its own attempts and health.',
      ),
      endpoints.map((endpoint) => endpointCard(iban, endpoint, controls)),
      manage
        ? h(
            'section',
            { class: 'card', 'aria-labelledby': 'add-endpoint' },
            h('h2', { id: 'add-endpoint' }, 'Add an endpoint'),
            endpoints.length >= MAX_ENDPOINTS_PER_ACCOUNT
              ? notice('info', `The account has ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints: remove one first.`)
              : null,
            endpointForm({ iban, types, saved: done }),
            h(
              'p',
              { class: 'muted' },
              'Client certificates, CAs and payload encryption keys are set with the API or the CLI ' +
                '(herald endpoint update); the API never shows them back.',
            ),
          )
        : null,
    );
  } catch (error) {
    mount(main, back, title, notice('error', describe(error, 'Endpoints of an account')));
  }
}
