/**
 * The webhook portal: sign-in (portal link or API key), then events, endpoints, the event type catalog,
 * operational notices and receiver help. Routing is by URL fragment (`#/events?…`, `#/events/<id>`,
 * `#/endpoints`, `#/endpoints/<iban>`, `#/event-types`, `#/event-types/<type>`, `#/operational`,
 * `#/help`), so the page is one static document and nothing in the URL ever reaches a server log.
 */
import { renderAccountEndpoints } from './account-endpoints';
import { call, canManage, describe, loadSession, type Session, saveSession, whenSignedOut } from './api';
import { renderCatalog, renderEventType } from './catalog';
import { h, mount, notice } from './dom';
import { renderEndpoints } from './endpoints';
import { renderEvent, renderEvents } from './events';
import { renderHelp } from './help';
import { renderOperational } from './operational';

const app = document.getElementById('app') as HTMLElement;

interface SessionAnswer {
  api_key: string;
  scope: 'read' | 'manage';
  expires_at: string;
  org: { id: string; name: string };
}

/** Exchanges a link's token (from the fragment, removed from the address bar first) for a session. */
async function signInWithLink(token: string): Promise<void> {
  history.replaceState(null, '', `${location.pathname}#/events`);
  mount(app, h('main', { class: 'signin' }, notice('info', 'Signing in…')));
  try {
    const { data } = await call<SessionAnswer>('/portal/session', {
      method: 'POST',
      body: { token },
      key: null,
    });
    saveSession({ key: data.api_key, scope: data.scope, org: data.org, expiresAt: data.expires_at });
    route();
  } catch (error) {
    showSignIn(describe(error));
  }
}

function showSignIn(message?: string): void {
  const input = h('input', {
    id: 'api-key',
    name: 'api-key',
    type: 'password',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
  });
  const status = h('div', { 'aria-live': 'polite' }, message ? notice('error', message) : null);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const key = input.value.trim();
    mount(status, notice('info', 'Checking the key…'));
    try {
      await call('/accounts', { key });
      saveSession({ key, scope: 'key' });
      location.hash = '#/events';
      route();
    } catch (error) {
      mount(status, notice('error', describe(error)));
    }
  };
  mount(
    app,
    h(
      'main',
      { class: 'signin', id: 'main' },
      h('h1', {}, 'Herald webhook portal'),
      status,
      h('p', {}, 'Open the sign-in link you were given, or paste an API key of your organization.'),
      h(
        'form',
        { onsubmit: (e) => void submit(e) },
        h('label', { for: 'api-key' }, 'API key'),
        input,
        h('button', { type: 'submit' }, 'Sign in'),
      ),
    ),
  );
  input.focus();
}

function shell(session: Session, current: string): HTMLElement {
  const main = h('main', { id: 'main', tabindex: -1 });
  const link = (href: string, text: string) =>
    h('a', { href, 'aria-current': current === href ? 'page' : undefined }, text);
  const signOut = async (): Promise<void> => {
    // A session key revokes itself, so a copy left behind stops working; a pasted key is only forgotten.
    const revoke =
      session.scope === 'key' ? Promise.resolve() : call('/portal/session', { method: 'DELETE' });
    const failed = await revoke.then(
      () => undefined,
      (error: unknown) => describe(error),
    );
    saveSession(undefined);
    showSignIn(failed && `Signed out here, but the session key could not be revoked: ${failed}`);
  };
  const scope = session.scope === 'key' ? 'API key' : `${session.scope} access`;
  const until = session.expiresAt ? ` until ${session.expiresAt.slice(11, 16)} UTC` : '';
  mount(
    app,
    h(
      'a',
      {
        class: 'skip',
        href: '#main',
        onclick: (e) => {
          e.preventDefault();
          main.focus();
        },
      },
      'Skip to content',
    ),
    h(
      'header',
      {},
      h('strong', { class: 'brand' }, 'Herald'),
      h(
        'nav',
        { 'aria-label': 'Portal' },
        link('#/events', 'Events'),
        link('#/endpoints', 'Endpoints'),
        link('#/event-types', 'Event types'),
        link('#/operational', 'Operational'),
        link('#/help', 'Receiver help'),
      ),
      h(
        'span',
        { class: 'who' },
        session.org ? `${session.org.name} · ` : '',
        h('span', { class: `scope scope-${session.scope}` }, scope),
        until ? h('span', { class: 'muted' }, until) : null,
        h('button', { type: 'button', class: 'link', onclick: () => void signOut() }, 'Sign out'),
      ),
    ),
    main,
  );
  return main;
}

/** Renders the page the fragment names. */
function route(): void {
  const hash = location.hash.slice(1);
  const token = new URLSearchParams(hash).get('token');
  if (token) {
    void signInWithLink(token);
    return;
  }
  const session = loadSession();
  if (!session) {
    showSignIn();
    return;
  }
  const [path = '/events', query = ''] = (hash || '/events').split('?');
  const event = /^\/events\/([^/]+)$/.exec(path);
  const eventType = /^\/event-types\/([^/]+)$/.exec(path);
  const account = /^\/endpoints\/([^/]+)$/.exec(path);
  const current = event ? '#/events' : eventType ? '#/event-types' : account ? '#/endpoints' : `#${path}`;
  const main = shell(session, current);
  const manage = canManage(session);
  if (event?.[1]) void renderEvent(main, decodeURIComponent(event[1]), manage);
  else if (account?.[1]) void renderAccountEndpoints(main, decodeURIComponent(account[1]), manage);
  else if (path === '/endpoints') void renderEndpoints(main, manage, new URLSearchParams(query));
  else if (eventType?.[1])
    void renderEventType(main, decodeURIComponent(eventType[1]), new URLSearchParams(query));
  else if (path === '/event-types') void renderCatalog(main);
  else if (path === '/help') void renderHelp(main, session);
  else if (path === '/operational') void renderOperational(main, manage, new URLSearchParams(query));
  else void renderEvents(main, new URLSearchParams(query));
}

whenSignedOut((message) => {
  saveSession(undefined);
  showSignIn(`Signed out: ${message}`);
});
addEventListener('hashchange', route);
route();
