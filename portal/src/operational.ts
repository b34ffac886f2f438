/**
 * The operational page (`#/operational?page=N`): where the organization's operational notices go (its
 * operational webhook URL: `GET /operational-webhook`, and for a manage session `PUT` it or clear it
 * with `{"url": null}`), and the notices themselves (`GET /operational-events`, paged by the listing's
 * `Link` header). A receiver's answer is shown as text, never parsed.
 */
import { call, describe, linkQuery } from './api';
import { cell, h, mount, notice } from './dom';
import { answerLine, kindLabel, loadNotices, type NoticeView } from './notices';

/** Notices per page. */
const PER_PAGE = 20;

/** `GET /operational-webhook`. */
interface OperationalWebhook {
  readonly url: string | null;
}

/** The fragment of the page a `Link` target names, or undefined without that link. */
function pageHref(link: string | null, rel: 'prev' | 'next'): string | undefined {
  const page = linkQuery(link, rel)?.get('page');
  return page ? `#/operational?page=${encodeURIComponent(page)}` : undefined;
}

/** The URL's section: what is set, and for a manage session the form that sets or clears it. */
function webhookSection(manage: boolean): HTMLElement {
  const section = h('section', { class: 'card', 'aria-labelledby': 'ops-webhook' });
  const title = h('h2', { id: 'ops-webhook' }, 'Operational webhook');
  const explain = h(
    'p',
    {},
    'Notices are also sent to this URL as signed webhooks (the same signature and retries as events); ' +
      'without one they are only listed below.',
  );
  const draw = async (message?: string): Promise<void> => {
    mount(section, title, explain, notice('info', 'Loading…'));
    let current: OperationalWebhook;
    try {
      current = (await call<OperationalWebhook>('/operational-webhook')).data;
    } catch (error) {
      mount(section, title, explain, notice('error', describe(error, 'The operational webhook')));
      return;
    }
    const shown = h(
      'p',
      { 'data-field': 'current' },
      'URL: ',
      current.url === null ? 'none' : h('span', { class: 'mono wrap' }, current.url),
    );
    mount(
      section,
      title,
      explain,
      message ? notice('ok', message) : null,
      shown,
      manage ? form(current) : null,
    );
  };
  const form = (current: OperationalWebhook): HTMLElement => {
    const status = h('div', { 'aria-live': 'polite' });
    const input = h('input', {
      type: 'url',
      name: 'url',
      value: current.url ?? '',
      required: true,
      placeholder: 'https://',
      'aria-label': 'Operational webhook URL',
    });
    const save = async (url: string | null, done: string): Promise<void> => {
      try {
        await call('/operational-webhook', { method: 'PUT', body: { url } });
        void draw(done);
      } catch (error) {
        mount(status, notice('error', describe(error, 'The operational webhook')));
      }
    };
    const element = h(
      'form',
      { class: 'row', 'aria-label': 'Set the operational webhook URL' },
      input,
      h('button', { type: 'submit' }, 'Save'),
      current.url === null
        ? null
        : h(
            'button',
            { type: 'button', onclick: () => void save(null, 'Cleared: notices are only listed now.') },
            'Clear',
          ),
    );
    element.addEventListener('submit', (event) => {
      event.preventDefault();
      void save(input.value.trim(), 'Saved.');
    });
    return h('div', {}, element, status);
  };
  void draw();
  return section;
}

/** The notices as a table; below 640 px each row becomes a card of labelled cells (styles/fit.css). */
function noticesTable(notices: readonly NoticeView[]): HTMLElement {
  const columns = ['Decided (UTC)', 'What', 'Account', 'Endpoint', 'Since (UTC)', 'Why', 'Last answer'];
  return h(
    'div',
    { class: 'scroll' },
    h(
      'table',
      { class: 'notices cards' },
      h('caption', { class: 'sr' }, 'Operational notices, newest first'),
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
        notices.map((n) =>
          h(
            'tr',
            { 'data-id': n.id },
            cell('Decided (UTC)', { class: 'mono' }, n.at),
            cell('What', {}, kindLabel(n.type), h('span', { class: 'muted mono' }, ` ${n.type}`)),
            cell(
              'Account',
              { class: 'mono' },
              h('a', { href: `#/endpoints/${encodeURIComponent(n.account)}` }, n.account),
            ),
            cell('Endpoint', { class: 'mono' }, n.endpoint_id),
            cell('Since (UTC)', { class: 'mono' }, n.since),
            cell(
              'Why',
              {},
              [
                n.reason ?? '',
                n.consecutive_failures ? `${n.consecutive_failures} failures in a row` : '',
                n.percent === null ? '' : `${n.percent} % of the disable period`,
                n.disable_at ? `disabled at ${n.disable_at} if it keeps failing` : '',
              ]
                .filter(Boolean)
                .join(' · '),
            ),
            cell('Last answer', {}, n.last_answer ? answerLine(n.last_answer) : '—'),
          ),
        ),
      ),
    ),
  );
}

/** Renders `#/operational?page=N`. */
export async function renderOperational(
  main: HTMLElement,
  manage: boolean,
  query: URLSearchParams,
): Promise<void> {
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  const list = h('section', { 'aria-labelledby': 'ops-notices' });
  const title = h('h2', { id: 'ops-notices' }, 'Notices');
  mount(main, h('h1', {}, 'Operational notices'), webhookSection(manage), list);
  mount(list, title, notice('info', 'Loading notices…'));
  try {
    const { notices, link } = await loadNotices(page, PER_PAGE);
    const prev = pageHref(link, 'prev');
    const next = pageHref(link, 'next');
    mount(
      list,
      title,
      h(
        'p',
        { class: 'muted' },
        'Each change of an endpoint’s health once, newest first: it started failing, is approaching its ' +
          'disable point, was disabled, recovered.',
      ),
      notices.length === 0 ? notice('info', 'No notices.') : noticesTable(notices),
      prev || next
        ? h(
            'nav',
            { class: 'pager', 'aria-label': 'Pages of notices' },
            prev ? h('a', { href: prev, rel: 'prev' }, '← Newer') : null,
            next ? h('a', { href: next, rel: 'next' }, 'Older →') : null,
          )
        : null,
    );
  } catch (error) {
    mount(list, title, notice('error', describe(error, 'Operational notices')));
  }
}
