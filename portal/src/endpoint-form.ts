/**
 * The form that adds an endpoint to an account or edits one (manage sessions): URL, event types chosen
 * from the catalog, payload filter as JSON, description and delivery order. An edit sends only the
 * fields changed, and a field cleared as `null` (the API keeps what a write leaves out and removes what
 * it sets to null). A field the API refuses (`invalid_params`) is shown beside that field. Security
 * material (client certificate and key, CA, payload key) is not asked for here: the API never shows it
 * back, so the page could only ever hold it on the way in.
 */
import { ApiError, call, describe } from './api';
import type { EventType } from './catalog';
import { h, mount, notice } from './dom';
import type { EndpointSecurityFields } from './endpoint-security';
import type { Health } from './endpoints';

/** An endpoint as `GET /accounts/{iban}/endpoints` shows it (see the `Endpoint` schema). */
export interface EndpointView extends EndpointSecurityFields {
  endpoint_id: string | null;
  /** The account's `webhook_url`: it stays with the account and cannot be removed. */
  default: boolean;
  url: string | null;
  event_types: string[] | null;
  filter: Record<string, unknown> | null;
  description: string | null;
  delivery_order: 'concurrent' | 'ordered';
  enabled: boolean;
  webhook_health: Health;
}

/** The delivery orders an endpoint may have (see the `Endpoint` schema). */
const DELIVERY_ORDERS = ['concurrent', 'ordered'] as const;

/** The fields of the form, by the first segment of the names the API gives them in `invalid_params`. */
type Field = 'url' | 'event_types' | 'filter' | 'description' | 'delivery_order';
const FIELDS: readonly Field[] = ['url', 'event_types', 'filter', 'description', 'delivery_order'];

/** Where the form goes and what it starts from. */
export interface EndpointFormOptions {
  readonly iban: string;
  /** The endpoint edited; absent: a new one. */
  readonly endpoint?: EndpointView;
  /** The catalog's types to choose from. */
  readonly types: readonly EventType[];
  /** Called with what was done once the API accepted it. */
  readonly saved: (message: string) => void;
}

/** The filter as the form shows it: indented JSON, empty for none. */
const filterText = (filter: Record<string, unknown> | null | undefined): string =>
  filter ? JSON.stringify(filter, null, 2) : '';

/** The checkboxes of the event types: the catalog's, plus any the endpoint has that the catalog lost. */
function typeChoices(types: readonly EventType[], chosen: readonly string[], label: string): HTMLElement {
  const known = new Set(types.map((type) => type.type));
  const names = [...types.map((type) => type.type), ...chosen.filter((name) => !known.has(name))];
  const deprecated = new Set(types.filter((type) => type.deprecated).map((type) => type.type));
  return h(
    'div',
    { class: 'types', role: 'group', 'aria-label': label },
    names.map((name) =>
      h(
        'label',
        { class: 'mono' },
        h('input', { type: 'checkbox', name: 'event_types', value: name, checked: chosen.includes(name) }),
        ` ${name}${deprecated.has(name) ? ' (deprecated)' : ''}${known.has(name) ? '' : ' (not in the catalog)'}`,
      ),
    ),
  );
}

/** The body of the write: every field for a new endpoint, only those changed (cleared: null) for an edit. */
function changes(
  endpoint: EndpointView | undefined,
  values: Record<Field, unknown>,
  initial: Record<Field, string>,
  current: Record<Field, string>,
): Record<string, unknown> {
  if (endpoint === undefined) {
    return Object.fromEntries(
      FIELDS.filter((field) => current[field] !== '').map((field) => [field, values[field]]),
    );
  }
  return Object.fromEntries(
    FIELDS.filter((field) => current[field] !== initial[field]).map((field) => [
      field,
      current[field] === '' ? null : values[field],
    ]),
  );
}

/** The add or edit form of an endpoint. */
export function endpointForm(options: EndpointFormOptions): HTMLFormElement {
  const { iban, endpoint } = options;
  const what = endpoint ? `endpoint ${endpoint.endpoint_id ?? ''}` : `a new endpoint of ${iban}`;
  const url = h('input', {
    type: 'url',
    name: 'url',
    value: endpoint?.url ?? '',
    required: endpoint === undefined || !endpoint.default,
    spellcheck: 'false',
  });
  const types = typeChoices(options.types, endpoint?.event_types ?? [], `Event types of ${what}`);
  const filter = h('textarea', { name: 'filter', rows: 4, spellcheck: 'false', class: 'mono' });
  filter.value = filterText(endpoint?.filter);
  const description = h('input', { type: 'text', name: 'description', value: endpoint?.description ?? '' });
  const order = h(
    'select',
    { name: 'delivery_order' },
    DELIVERY_ORDERS.map((value) =>
      h('option', { value, selected: (endpoint?.delivery_order ?? 'concurrent') === value }, value),
    ),
  );
  const errors = Object.fromEntries(
    FIELDS.map((field) => [field, h('span', { class: 'field-error', 'data-error': field })]),
  ) as Record<Field, HTMLElement>;
  const field = (name: Field, label: string, control: HTMLElement): HTMLElement =>
    h('label', { class: 'field' }, h('span', {}, label), control, errors[name]);
  const status = h('div', { 'aria-live': 'polite' });
  const checked = (): string[] =>
    [...types.querySelectorAll<HTMLInputElement>('input:checked')].map((box) => box.value);
  const read = (): Record<Field, string> => ({
    url: url.value.trim(),
    event_types: checked().sort().join(','),
    filter: filter.value.trim(),
    description: description.value.trim(),
    delivery_order: order.value,
  });
  const initial = read();
  const form = h(
    'form',
    { class: 'endpoint-form', 'aria-label': endpoint ? `Edit ${what}` : `Add an endpoint to ${iban}` },
    field('url', 'URL', url),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Event types (none chosen: every type, those added later included)'),
      types,
      errors.event_types,
    ),
    field('filter', 'Payload filter (JSON; empty: every payload)', filter),
    field('description', 'Description', description),
    field('delivery_order', 'Delivery order', order),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, endpoint ? 'Save' : 'Add endpoint')),
    status,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const name of FIELDS) mount(errors[name]);
    mount(status);
    const current = read();
    let parsed: unknown = null;
    if (current.filter !== '') {
      try {
        parsed = JSON.parse(current.filter);
      } catch (error) {
        mount(errors.filter, `Not JSON: ${error instanceof Error ? error.message : 'unreadable'}`);
        return;
      }
    }
    const values = {
      url: current.url,
      event_types: checked(),
      filter: parsed,
      description: current.description,
      delivery_order: current.delivery_order,
    };
    const body = changes(endpoint, values, initial, current);
    if (endpoint && Object.keys(body).length === 0) {
      mount(status, notice('info', 'Nothing changed.'));
      return;
    }
    const path = `/accounts/${encodeURIComponent(iban)}/endpoints`;
    try {
      const id = endpoint?.endpoint_id ?? '';
      const { data } = await call<EndpointView>(endpoint ? `${path}/${encodeURIComponent(id)}` : path, {
        method: endpoint ? 'PUT' : 'POST',
        body,
      });
      options.saved(endpoint ? `Saved endpoint ${id}.` : `Added endpoint ${data.endpoint_id ?? ''}.`);
    } catch (error) {
      const params = error instanceof ApiError ? error.params : [];
      const shown = params.filter((param) => {
        const name = FIELDS.find((field) => field === param.name.split('/')[0]);
        if (name !== undefined) errors[name].append(`${param.name}: ${param.reason} `);
        return name !== undefined;
      });
      if (shown.length < params.length || params.length === 0) {
        mount(
          status,
          notice('error', describe(error, endpoint ? 'Editing an endpoint' : 'Adding an endpoint')),
        );
      }
    }
  });
  return form;
}
