/**
 * The portal's served page: the checked-in bundle is what the sources build to, it is small, the CSP
 * pins exactly the inline script and style, and the receiver snippets verify real Herald signatures.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { signAttempt, standardSignature } from '#domain/signing/signatures';
import { generateWebhookToken, webhookKey } from '#domain/signing/webhook-token';
import { PORTAL_SCRIPT, PORTAL_STYLE } from '#http/portal/portal-assets.generated';
import { portalPage } from '#http/portal/portal-page';
import { LANGUAGES, type Language, snippet } from '../../portal/src/snippets';
import { PORTAL_ASSETS_MODULE, renderPortalAssetsModule } from '../../scripts/portal/build';

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const dir = mkdtempSync(join(tmpdir(), 'herald-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the portal page', () => {
  it('is built from portal/ (run `npm run build:portal` after changing it)', async () => {
    expect(readFileSync(PORTAL_ASSETS_MODULE, 'utf8')).toBe(await renderPortalAssetsModule());
  });

  it('ships at most 100 KB of gzipped JavaScript', () => {
    expect(gzipSync(PORTAL_SCRIPT).length).toBeLessThanOrEqual(100 * 1024);
  });

  it('allows exactly its inline script and style, and nothing from elsewhere', () => {
    const { html, headers } = portalPage();
    const csp = headers['Content-Security-Policy'] ?? '';
    expect(csp).toContain(`script-src ${hash(PORTAL_SCRIPT)};`);
    expect(csp).toContain(`style-src ${hash(PORTAL_STYLE)};`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(html).toContain(`<script>${PORTAL_SCRIPT}</script>`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]*\s(src|href)=/);
    expect(headers['Referrer-Policy']).toBe('no-referrer');
  });
});

describe('receiver snippets', () => {
  const token = generateWebhookToken();
  const values = {
    tokenLiteral: {
      node: `'${token}'`,
      python: `"${token}"`,
      go: `"${token}"`,
      java: `"${token}"`,
      ruby: `'${token}'`,
    },
    path: '/hooks/herald',
    orgName: 'Acme',
  };

  it('fill in the token, route and organization in every language', () => {
    for (const language of LANGUAGES) {
      const text = snippet(language, values);
      expect(text, language).toContain(token);
      expect(text, language).toContain('Acme');
      if (language !== 'X-Signature (Node)') expect(text, language).toContain('/hooks/herald');
    }
  });

  it('verify, then apply each event once: its id recorded after the change, in the change’s transaction', () => {
    // In each language, in this order: the transaction, the check for a recorded id, the change, the id's
    // record (`record`, which appears once: nothing is remembered at verification), the commit; and the
    // library's verification before the event is applied.
    const cases: Readonly<Record<string, { steps: readonly string[]; record: string }>> = {
      Node: {
        steps: [
          "'BEGIN",
          'FROM herald_applied_events',
          'change(db, event)',
          'INSERT INTO',
          "'COMMIT'",
          'wh.verify(',
          'applyOnce(event, (tx',
        ],
        record: 'INSERT INTO herald_applied_events',
      },
      Python: {
        steps: [
          '"BEGIN',
          'FROM herald_applied_events',
          'change(db, event)',
          'INSERT INTO',
          '"COMMIT"',
          'wh.verify(',
          'apply_once(event, lambda',
        ],
        record: 'INSERT INTO herald_applied_events',
      },
      Go: {
        steps: [
          'db.Begin()',
          'FROM herald_applied_events',
          'change(tx)',
          'INSERT INTO',
          'tx.Commit()',
          'wh.Verify(',
          'applyOnce(db, event.ID',
        ],
        record: 'INSERT INTO herald_applied_events',
      },
      Java: {
        steps: [
          'WH.verify(',
          'setAutoCommit(false)',
          'FROM herald_applied_events',
          'change.apply(tx',
          'INSERT INTO',
          'tx.commit()',
        ],
        record: 'INSERT INTO herald_applied_events',
      },
      Ruby: {
        steps: [
          'DB.transaction',
          'where(event_id:',
          'yield event',
          '.insert(',
          'WH.verify(',
          'apply_once(event) {',
        ],
        record: '[:herald_applied_events].insert(',
      },
    };
    for (const [language, { steps, record }] of Object.entries(cases)) {
      const text = snippet(language as Language, values);
      const at = steps.map((step) => text.indexOf(step));
      expect(Math.min(...at), `${language}: every step present`).toBeGreaterThanOrEqual(0);
      expect(at, `${language}: ${steps.join(' < ')}`).toEqual([...at].sort((x, y) => x - y));
      expect(text.split(record).length - 1, `${language}: ids recorded in one place`).toBe(1);
    }
  });

  it('X-Signature: the Node snippet accepts a Herald signature in time, by either token, and nothing else', async () => {
    const file = join(dir, 'x-signature.mjs');
    writeFileSync(file, snippet('X-Signature (Node)', values));
    const { verifyXSignature } = (await import(pathToFileURL(file).href)) as {
      verifyXSignature: (body: string, header: string | undefined, nowSeconds?: number) => boolean;
    };
    const body = '{"id":"e1","payload":{"amount":"1.00"}}';
    const t = Math.floor(Date.now() / 1000);
    const header = signAttempt({ webhookToken: token }, 'e1', t, body, 0).xSignature;
    expect(verifyXSignature(body, header)).toBe(true);
    expect(verifyXSignature(`${body} `, header)).toBe(false);
    expect(verifyXSignature(body, undefined)).toBe(false);
    // A replay more than 5 minutes later, or a header whose time was changed, fails.
    expect(verifyXSignature(body, header, t + 301)).toBe(false);
    expect(verifyXSignature(body, header.replace(`t=${t}`, `t=${t + 1}`))).toBe(false);
    // During an overlap the receiver's token may be the second one.
    const overlap = {
      webhookToken: generateWebhookToken(),
      previousWebhookToken: { token, expiresAt: '2999-01-01T00:00:00Z' },
    };
    expect(verifyXSignature(body, signAttempt(overlap, 'e1', t, body, 0).xSignature)).toBe(true);
    expect(
      verifyXSignature(
        body,
        signAttempt({ webhookToken: generateWebhookToken() }, 'e1', t, body, 0).xSignature,
      ),
    ).toBe(false);
  });

  it('Standard Webhooks: the token the snippets use verifies Herald headers with the library', () => {
    const body = '{"id":"e1"}';
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'e1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': standardSignature(webhookKey(token), 'e1', timestamp, body),
    };
    expect(new Webhook(token).verify(body, headers)).toEqual({ id: 'e1' });
  });
});
