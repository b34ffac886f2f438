/**
 * Finding an event by its id. A full id opens the event (one `GET /events/{id}`). A prefix, at least the
 * first 8 characters, is looked for among the newest events that match the filters: at most
 * {@link SEARCH_PAGES} requests of {@link PAGE_SIZE}, each bounded by the API's own read limits, so a
 * search costs at most five list requests whatever the organization holds. The API has no prefix filter:
 * ids are not indexed by prefix, and a filter over the index would only move the same bounded scan to
 * the server. The ids Herald gives are UUID v7, whose first 8 characters are their time to about a
 * minute: a prefix that short lists the matching events of that minute among those searched, and more
 * characters narrow it down (an id a publisher chose may be a UUID v4, random throughout). An older
 * event is found by narrowing Since and Until around it, which moves the searched pages back in time.
 */
import { type Answer, call } from './api';
import { h, notice } from './dom';
import { type EventSummary, eventsTable } from './events-table';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** At least 8 characters: fewer would match too many events to be worth a search. */
const PREFIX = /^[0-9a-f]{8}[0-9a-f-]{0,28}$/;
/** Requests one search may make… */
export const SEARCH_PAGES = 5;
/** …of this many events each (`page × per_page` stays within the API's 1,000). */
const PAGE_SIZE = 100;

/** The search field: Enter or Find opens a full id, or lists the events whose id starts with a prefix. */
export function searchForm(query: URLSearchParams): HTMLFormElement {
  const input = h('input', {
    name: 'find',
    value: query.get('find') ?? '',
    placeholder: 'full id or its start',
    class: 'mono',
    autocomplete: 'off',
    spellcheck: false,
  });
  const form = h(
    'form',
    { class: 'search row', role: 'search', 'aria-label': 'Find an event by id' },
    h('label', {}, 'Event id ', input),
    h('button', { type: 'submit' }, 'Find'),
  );
  input.addEventListener('input', () => input.setCustomValidity(''));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim().toLowerCase();
    if (FULL_ID.test(text)) {
      location.hash = `#/events/${text}`;
    } else if (PREFIX.test(text)) {
      const next = new URLSearchParams(query);
      next.delete('page');
      next.set('find', text);
      location.hash = `#/events?${next}`;
    } else {
      input.setCustomValidity('Enter a full event id, or at least its first 8 characters.');
      input.reportValidity();
    }
  });
  return form;
}

/** The events among the newest matching `filters` whose id starts with `prefix`, or why there are none. */
export async function searchResults(filters: URLSearchParams, prefix: string): Promise<HTMLElement> {
  const found: EventSummary[] = [];
  let scanned = 0;
  let more = true;
  for (let page = 1; page <= SEARCH_PAGES && more; page += 1) {
    const params = new URLSearchParams(filters);
    params.set('page', String(page));
    params.set('per_page', String(PAGE_SIZE));
    const answer: Answer<EventSummary[]> = await call<EventSummary[]>(`/events?${params}`);
    scanned += answer.data.length;
    found.push(...answer.data.filter((event) => event.id.startsWith(prefix)));
    more = /rel="next"/.test(answer.headers.get('Link') ?? '');
  }
  const among = more
    ? `the newest ${scanned} events matching these filters`
    : `all ${scanned} events matching these filters`;
  if (found.length === 0) {
    const hint = more ? ' Narrow Since and Until to the time around it, or enter the full id.' : '';
    return notice('info', `No event whose id starts with ${prefix} among ${among}.${hint}`);
  }
  const count = found.length === 1 ? '1 event' : `${found.length} events`;
  return h(
    'div',
    {},
    notice('ok', `${count} whose id starts with ${prefix}, among ${among}.`),
    eventsTable(found, `Events whose id starts with ${prefix}`),
  );
}
