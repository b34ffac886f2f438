/** The events table the list and the id search share. */
import { badge, cell, h } from './dom';

/** An element of `GET /events`. */
export interface EventSummary {
  id: string;
  account: string;
  type: string;
  triggered_at: string;
  webhook_status: string;
  webhook_retries: number;
}

/** The events as a table; below 640 px each row becomes a card of labelled cells (styles/fit.css). */
export function eventsTable(events: readonly EventSummary[], caption = 'Events, newest first'): HTMLElement {
  const columns = ['Id', 'Status', 'Type', 'Account', 'Triggered (UTC)', 'Attempts'];
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'events cards' },
      h('caption', { class: 'sr' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        {},
        events.map((e) => {
          const href = `#/events/${encodeURIComponent(e.id)}`;
          return h(
            'tr',
            { 'data-id': e.id },
            // The whole id: Herald's ids (UUID v7) begin with their time, so events of the same minute
            // share their first 8 characters and only the rest tells them apart.
            cell('Id', { class: 'mono id' }, h('a', { href }, e.id)),
            cell('Status', {}, badge(e.webhook_status)),
            cell('Type', {}, h('a', { href }, e.type)),
            cell('Account', { class: 'mono' }, e.account),
            cell('Triggered (UTC)', { class: 'mono' }, e.triggered_at),
            cell('Attempts', { class: 'num' }, e.webhook_retries),
          );
        }),
      ),
    ),
  );
}
