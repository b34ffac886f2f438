/** The events list with the API's filters and paging, and the search by id. */
import { type Answer, call, describe } from './api';
import { h, mount, notice } from './dom';
import { searchForm, searchResults } from './event-search';
import { type EventSummary, eventsTable } from './events-table';
import { toApiTime, utcTimeInput } from './utc-time';

export { renderEvent } from './event-page';

const FILTERS = ['webhook_status', 'type', 'account', 'since', 'until'] as const;
const STATUSES = ['pending', 'success', 'failed', 'skipped'];
const PAGE_SIZES = ['10', '25', '50', '100'];

function field(label: string, control: HTMLElement): HTMLElement {
  return h('label', { class: 'field' }, h('span', {}, label), control);
}

function filterForm(query: URLSearchParams, accounts: readonly string[]): HTMLFormElement {
  const status = h(
    'select',
    { name: 'webhook_status' },
    h('option', { value: '' }, 'any'),
    STATUSES.map((s) => h('option', { value: s, selected: query.get('webhook_status') === s }, s)),
  );
  const account = h(
    'select',
    { name: 'account' },
    h('option', { value: '' }, 'any'),
    accounts.map((iban) => h('option', { value: iban, selected: query.get('account') === iban }, iban)),
  );
  const time = (name: string) => utcTimeInput(name, query.get(name) ?? '');
  const size = query.get('per_page') ?? '10';
  const sizes = PAGE_SIZES.includes(size) ? PAGE_SIZES : [size, ...PAGE_SIZES];
  const perPage = h(
    'select',
    { name: 'per_page' },
    sizes.map((n) => h('option', { value: n, selected: size === n }, n)),
  );
  const form = h(
    'form',
    { class: 'filters', 'aria-label': 'Filter events' },
    field('Status', status),
    field(
      'Type',
      h('input', {
        name: 'type',
        value: query.get('type') ?? '',
        placeholder: 'e.g. credit_transfer_status_change',
      }),
    ),
    field('Account', account),
    field('Since (UTC)', time('since')),
    field('Until (UTC)', time('until')),
    field('Per page', perPage),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, 'Apply'),
      h('a', { href: '#/events' }, 'Clear'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      const text = String(value).trim();
      if (text === '' || (name === 'per_page' && text === '10')) continue;
      next.set(name, name === 'since' || name === 'until' ? (toApiTime(text) ?? text) : text);
    }
    location.hash = `#/events?${next}`;
  });
  return form;
}

function table(events: readonly EventSummary[]): HTMLElement {
  return events.length === 0 ? notice('info', 'No events match these filters.') : eventsTable(events);
}

/** Renders `#/events?…`: the id search, filters, and one page of events or the search's matches. */
export async function renderEvents(main: HTMLElement, query: URLSearchParams): Promise<void> {
  mount(main, h('h1', {}, 'Events'), notice('info', 'Loading events…'));
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const filters = new URLSearchParams();
  for (const name of FILTERS) {
    const value = query.get(name);
    if (value) filters.set(name, value);
  }
  const params = new URLSearchParams(filters);
  params.set('page', String(page));
  params.set('per_page', query.get('per_page') ?? '10');
  const find = query.get('find');
  const [events, accounts] = await Promise.allSettled([
    find ? searchResults(filters, find) : call<EventSummary[]>(`/events?${params}`),
    // The filter's menu offers one page of accounts: the most one bounded request answers.
    call<{ iban: string }[]>('/accounts?per_page=100'),
  ]);
  const ibans = accounts.status === 'fulfilled' ? accounts.value.data.map((a) => a.iban) : [];
  const heading = [h('h1', {}, 'Events'), searchForm(query), filterForm(query, ibans)];
  if (events.status === 'rejected') return mount(main, heading, notice('error', describe(events.reason)));
  if (events.value instanceof HTMLElement) return mount(main, heading, events.value);
  const { data, headers }: Answer<EventSummary[]> = events.value;
  const hasNext = /rel="next"/.test(headers.get('Link') ?? '');
  const pageHref = (n: number) => {
    const next = new URLSearchParams(query);
    next.set('page', String(n));
    return `#/events?${next}`;
  };
  mount(
    main,
    heading,
    table(data),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Pages' },
      page > 1 ? h('a', { href: pageHref(page - 1), rel: 'prev' }, '← Newer') : null,
      h('span', {}, `Page ${page}`),
      hasNext ? h('a', { href: pageHref(page + 1), rel: 'next' }, 'Older →') : null,
    ),
  );
}
