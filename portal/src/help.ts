/** Receiver help: verification snippets filled with the organization's values. */
import { call, canManage, type Session } from './api';
import { copyable, h, mount, notice } from './dom';
import { ENV_TOKEN, LANGUAGES, type Language, type SnippetValues, snippet, tokenLiterals } from './snippets';

/** Renders `#/help`. */
export async function renderHelp(main: HTMLElement, session: Session): Promise<void> {
  const accounts = await call<{ webhook_url: string | null }[]>('/accounts').catch(() => ({ data: [] }));
  const first = accounts.data.find((a) => a.webhook_url)?.webhook_url;
  const path = first ? new URL(first).pathname : '/herald';
  const values: { v: SnippetValues } = {
    v: { tokenLiteral: ENV_TOKEN, path, orgName: session.org?.name ?? 'your organization' },
  };
  const panel = h('div', { id: 'snippet-panel', role: 'tabpanel' });
  const tokenNote = h('div', { 'aria-live': 'polite' });
  let current: Language = 'Node';
  const tabs = LANGUAGES.map((language) =>
    h(
      'button',
      { type: 'button', role: 'tab', 'aria-controls': 'snippet-panel', onclick: () => show(language) },
      language,
    ),
  );
  const show = (language: Language): void => {
    current = language;
    for (const tab of tabs) tab.setAttribute('aria-selected', String(tab.textContent === language));
    mount(panel, copyable(`${language} snippet`, snippet(language, values.v)));
  };
  const fillToken = async (): Promise<void> => {
    try {
      const { data } = await call<{ webhook_token: string }>('/webhook-token');
      values.v = { ...values.v, tokenLiteral: tokenLiterals(data.webhook_token) };
      mount(tokenNote, notice('ok', 'The snippets now contain your webhook token: keep them secret.'));
      show(current);
    } catch {
      mount(
        tokenNote,
        notice('info', 'The token cannot be shown here; the snippets read HERALD_WEBHOOK_TOKEN.'),
      );
    }
  };
  mount(
    main,
    h('h1', {}, 'Receiver help'),
    h(
      'p',
      {},
      'Each webhook attempt is signed twice with the same token(s): Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature), which the ',
      'libraries below verify with your webhook token (whsec_…), and X-Signature (t=<timestamp>,sha256=…). Verify the raw body before parsing it, refuse a timestamp more than 5 minutes off; answer 2xx within 10 s.',
    ),
    h(
      'p',
      {},
      'Then apply each event once, keyed by its id: record the id in the same transaction as your change, never before. ',
      'If the change fails, answer 5xx and nothing is recorded, so Herald’s retry applies it; a repeat (a retry whose answer was lost, a redelivery, a replay) finds the id, changes nothing and gets 2xx.',
    ),
    canManage(session)
      ? h(
          'p',
          {},
          h('button', { type: 'button', onclick: () => void fillToken() }, 'Fill in my webhook token'),
        )
      : h(
          'p',
          { class: 'muted' },
          'The snippets read the token from HERALD_WEBHOOK_TOKEN; ask an administrator for it.',
        ),
    tokenNote,
    h('div', { role: 'tablist', class: 'tabs', 'aria-label': 'Language' }, tabs),
    panel,
  );
  show('Node');
}
