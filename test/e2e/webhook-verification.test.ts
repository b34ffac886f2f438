/**
 * Webhook signatures end to end (issue 16, item 4): real webhooks from the local runtime, verified
 * without Herald's signer: both headers recomputed with node:crypto, `webhook-signature` with the
 * `standardwebhooks` library, and the Node and Python snippets of `docs/webhooks.md`, before, during and after
 * a rotation's overlap and after a rotation that retires a leaked token at once. A captured webhook
 * re-sent later is refused by a receiver that follows `docs/webhooks.md`.
 */
import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import { connectApi } from '../support/e2e-http';
import { type RecordedRequest, reply } from '../support/receiver';

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  { label: 'e2e-verification', retrySchedule: fastSchedule(1) },
  (started) => {
    harness = started;
  },
);
const dir = mkdtempSync(join(tmpdir(), 'herald-docs-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Verdict = 'handle' | 'repeat' | 'refuse';
type Check = (headers: object, rawBody: Buffer, secrets: string[], now?: number) => Verdict;

/** The code block of `docs/webhooks.md` in `language` that contains `marker`, as printed there. */
function docsSnippet(language: string, marker: string): string {
  const page = readFileSync(join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const block = [...page.matchAll(/```(\w+)\n([\s\S]*?)```/g)].find(
    ([, lang, code]) => lang === language && code?.includes(marker),
  );
  if (!block?.[2]) throw new Error(`docs/webhooks.md has no ${language} block with ${marker}`);
  return block[2];
}

let copies = 0;
/** A fresh module of the docs' Node snippet (its memory of handled ids starts empty). */
async function docsNode(): Promise<Check> {
  copies += 1;
  const file = join(dir, `check-${copies}.mjs`);
  writeFileSync(file, docsSnippet('js', 'checkHeraldWebhook'));
  return ((await import(pathToFileURL(file).href)) as { checkHeraldWebhook: Check }).checkHeraldWebhook;
}

/** The docs' Python snippet on each case, in order, in one interpreter (one memory of handled ids). */
function docsPython(cases: { request: RecordedRequest; secrets: string[]; now: number }[]): Verdict[] {
  const driver = `${docsSnippet('python', 'check_herald_webhook')}
import base64, json, sys
cases = json.load(sys.stdin)
print(json.dumps([check_herald_webhook(c["headers"], base64.b64decode(c["body"]), c["secrets"], c["now"]) for c in cases]))
`;
  const input = cases.map(({ request, secrets, now }) => ({
    headers: signatureHeaders(request),
    body: request.rawBody.toString('base64'),
    secrets,
    now,
  }));
  const run = spawnSync('python3', ['-c', driver], { input: JSON.stringify(input), encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Verdict[];
}

function signatureHeaders(request: RecordedRequest): Record<string, string> {
  const names = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-signature'];
  return Object.fromEntries(names.map((name) => [name, String(request.headers[name] ?? '')]));
}

/** The tokens whose signatures each header holds, in order, recomputed with node:crypto. */
function signersOf(request: RecordedRequest, tokens: readonly string[]) {
  const h = signatureHeaders(request);
  const key = (token: string) => Buffer.from(token.slice('whsec_'.length), 'base64');
  const mac = (token: string, text: Buffer, encoding: 'hex' | 'base64') =>
    createHmac('sha256', key(token)).update(text).digest(encoding);
  const [stamp = '', ...entries] = (h['x-signature'] ?? '').split(',');
  expect(stamp).toBe(`t=${h['webhook-timestamp']}`);
  const xText = Buffer.concat([Buffer.from(`${h['webhook-timestamp']}.`), request.rawBody]);
  const v1Text = Buffer.concat([
    Buffer.from(`${h['webhook-id']}.${h['webhook-timestamp']}.`),
    request.rawBody,
  ]);
  return {
    x: entries.map((e) => tokens.find((t) => e === `sha256=${mac(t, xText, 'hex')}`) ?? 'unknown'),
    standard: (h['webhook-signature'] ?? '')
      .split(' ')
      .map((e) => tokens.find((t) => e === `v1,${mac(t, v1Text, 'base64')}`) ?? 'unknown'),
  };
}

const libraryVerifies = (token: string, request: RecordedRequest): boolean => {
  try {
    new Webhook(token).verify(request.body, signatureHeaders(request));
    return true;
  } catch {
    return false;
  }
};

const idOf = (token: string) => `whk_${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/** Publishes an event of the account and returns the webhook the receiver got for it. */
async function delivered(tenant: SeededTenant, iban: string, requests: () => readonly RecordedRequest[]) {
  const { id } = await harness.publish({
    account: iban,
    type: 'credit_transfer_status_change',
    payload: { id: 1 },
  });
  const view = await harness.waitForEvent(tenant, id, 'success');
  const request = requests().find((r) => r.headers['webhook-id'] === id);
  if (!request) throw new Error(`no webhook for ${id}`);
  return { request, view };
}

describe('webhook signatures', () => {
  it('carry the same tokens in both headers across a rotation, and none of a retired token', {
    timeout: 90_000,
  }, async () => {
    const tenant = await harness.createTenant();
    const hook = await receiver();
    const iban = await harness.createAccount(tenant, hook.url);
    const api = await connectApi(harness.runtime.baseUrl);
    const rotate = async (overlapHours: number): Promise<string> => {
      const answer = await api.call('/webhook-token/rotate', {
        method: 'POST',
        key: tenant.apiKey,
        body: { overlap_hours: overlapHours },
      });
      expect(answer.status, answer.text).toBe(200);
      return (answer.body as { webhook_token: string }).webhook_token;
    };
    const t0 = tenant.webhookToken;
    const before = await delivered(tenant, iban, () => hook.requests);
    const t1 = await rotate(1);
    const during = await delivered(tenant, iban, () => hook.requests);
    // A leak of t1: retired at once, without an overlap (t0 went with this second rotation too).
    const t2 = await rotate(0);
    const after = await delivered(tenant, iban, () => hook.requests);
    const all = [t0, t1, t2];

    const cases = [
      { at: before, signers: [t0] },
      { at: during, signers: [t1, t0] },
      { at: after, signers: [t2] },
    ];
    const check = await docsNode();
    for (const { at, signers } of cases) {
      expect(signersOf(at.request, all)).toEqual({ x: signers, standard: signers });
      expect(at.view.webhook_deliveries.at(-1)?.signing_keys).toEqual(signers.map(idOf));
      expect(at.view.signature).toBe(at.request.headers['x-signature']);
      for (const token of all) {
        const signs = signers.includes(token);
        expect(libraryVerifies(token, at.request)).toBe(signs);
        expect(check(at.request.headers, at.request.rawBody, [token]) !== 'refuse').toBe(signs);
      }
    }
    const python = docsPython(
      cases.flatMap(({ at }) =>
        all.map((token) => ({ request: at.request, secrets: [token], now: Date.now() / 1000 })),
      ),
    );
    expect(python.map((verdict) => verdict !== 'refuse')).toEqual(
      cases.flatMap(({ signers }) => all.map((token) => signers.includes(token))),
    );
  });

  it('are refused when a captured webhook is re-sent after 5 minutes, as the docs’ receiver does', {
    timeout: 60_000,
  }, async () => {
    const tenant = await harness.createTenant();
    const check = await docsNode();
    let clockAhead = 0;
    let handledCount = 0;
    const hook = await receiver((request) => {
      const verdict = check(
        request.headers,
        request.rawBody,
        [tenant.webhookToken],
        Date.now() / 1000 + clockAhead,
      );
      if (verdict === 'handle') handledCount += 1;
      return verdict === 'refuse'
        ? reply.status(401, verdict)
        : reply.status(verdict === 'handle' ? 204 : 200, verdict);
    });
    const iban = await harness.createAccount(tenant, hook.url);
    const { request, view } = await delivered(tenant, iban, () => hook.requests);
    expect(view.webhook_deliveries.map((d) => d.response_status)).toEqual([204]);

    const resend = async (headers = signatureHeaders(request)) => {
      const answer = await fetch(hook.url, { method: 'POST', headers, body: request.rawBody });
      return { status: answer.status, text: await answer.text() };
    };
    // At once: a repeat, acknowledged and not handled again.
    expect(await resend()).toEqual({ status: 200, text: 'repeat' });
    // Five minutes and a second later: refused, and a fresh timestamp breaks the signature.
    clockAhead = 301;
    expect(await resend()).toEqual({ status: 401, text: 'refuse' });
    const now = Math.floor(Date.now() / 1000) + clockAhead;
    const signature = String(request.headers['x-signature']).replace(/^t=\d+/, `t=${now}`);
    expect(await resend({ ...signatureHeaders(request), 'x-signature': signature })).toEqual({
      status: 401,
      text: 'refuse',
    });
    expect(handledCount).toBe(1);
    expect(docsPython([{ request, secrets: [tenant.webhookToken], now: Date.now() / 1000 + 301 }])).toEqual([
      'refuse',
    ]);
  });
});
