/**
 * Webhook signatures end to end (issue 16, item 4): real webhooks from the local runtime, verified
 * without Herald's signer: both headers recomputed with node:crypto, `webhook-signature` with the
 * `standardwebhooks` library, and the Node and Python receivers of `docs/webhooks.md`, before, during and
 * after a rotation's overlap and after a rotation that retires a leaked token at once. Those receivers,
 * run as printed against real webhooks whose first application fails (issue 28, item 6), apply each event
 * exactly once: the 500 is retried and the retry applies it, and the same webhook sent again (as it was,
 * under another `webhook-id`, or after 5 minutes) applies nothing.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import type { SeededTenant } from '#local/tenant-seed';
import { type DeliveryHarness, setupDeliveryFile } from '../support/delivery-harness';
import { fastSchedule } from '../support/delivery-queue-helpers';
import {
  CREDITS_TABLE,
  docsNodeReceiver,
  docsPythonVerifies,
  failingOnceChange,
  type PythonDocsReceiver,
  signatureHeaders,
  startPythonDocsReceiver,
} from '../support/docs-receivers';
import { connectApi } from '../support/e2e-http';
import { TRANSFER, transferPayload } from '../support/payloads';
import { type RecordedRequest, reply } from '../support/receiver';

let harness: DeliveryHarness;
const receiver = setupDeliveryFile(
  { label: 'e2e-verification', retrySchedule: fastSchedule(1) },
  (started) => {
    harness = started;
  },
);
const dir = mkdtempSync(join(tmpdir(), 'herald-docs-snippets-'));
const pythonReceivers: PythonDocsReceiver[] = [];
afterAll(async () => {
  await Promise.all(pythonReceivers.map((r) => r.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The tokens whose signatures each header holds, in order, recomputed with node:crypto. */
function signersOf(request: RecordedRequest, tokens: readonly string[]) {
  const h = signatureHeaders(request.headers);
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
    new Webhook(token).verify(request.body, signatureHeaders(request.headers));
    return true;
  } catch {
    return false;
  }
};

const idOf = (token: string) => `whk_${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/** Publishes an event of the account and returns its id. */
async function publish(iban: string): Promise<string> {
  const { id } = await harness.publish({
    account: iban,
    type: TRANSFER,
    payload: transferPayload(),
  });
  return id;
}

/** Publishes an event of the account and returns the webhook the receiver got for it. */
async function delivered(tenant: SeededTenant, iban: string, requests: () => readonly RecordedRequest[]) {
  const id = await publish(iban);
  const view = await harness.waitForEvent(tenant, id, 'success');
  const request = requests().find((r) => r.headers['webhook-id'] === id);
  if (!request) throw new Error(`no webhook for ${id}`);
  return { request, view };
}

/** Sends a captured webhook again, as an attacker or a proxy would. */
async function resend(url: string, headers: Record<string, string>, rawBody: Buffer): Promise<number> {
  const answer = await fetch(url, { method: 'POST', headers, body: rawBody });
  await answer.arrayBuffer();
  return answer.status;
}

/** How many times each event was applied (credited) in a receiver's database, and which ids it recorded. */
function ledger(db: DatabaseSync, id: string) {
  const count = (sql: string) => Number((db.prepare(sql).get(id) as { n: number }).n);
  return {
    credits: count('SELECT count(*) AS n FROM credits WHERE event_id = ?'),
    recorded: count('SELECT count(*) AS n FROM herald_applied_events WHERE event_id = ?'),
  };
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
    const docs = await docsNodeReceiver(dir, 'rotation');
    for (const { at, signers } of cases) {
      expect(signersOf(at.request, all)).toEqual({ x: signers, standard: signers });
      expect(at.view.webhook_deliveries.at(-1)?.signing_keys).toEqual(signers.map(idOf));
      expect(at.view.signature).toBe(at.request.headers['x-signature']);
      for (const token of all) {
        const signs = signers.includes(token);
        expect(libraryVerifies(token, at.request)).toBe(signs);
        expect(docs.verifyHeraldWebhook(at.request.headers, at.request.rawBody, [token]) !== null).toBe(
          signs,
        );
      }
    }
    const python = docsPythonVerifies(
      cases.flatMap(({ at }) =>
        all.map((token) => ({
          headers: signatureHeaders(at.request.headers),
          rawBody: at.request.rawBody,
          secrets: [token],
          now: Date.now() / 1000,
        })),
      ),
    );
    expect(python).toEqual(cases.flatMap(({ signers }) => all.map((token) => signers.includes(token))));
  });
});

describe('the docs’ receivers', () => {
  it('Node: a change that fails answers 500, the retry applies the event once, and a replay applies nothing', {
    timeout: 60_000,
  }, async () => {
    const tenant = await harness.createTenant();
    const docs = await docsNodeReceiver(dir, 'exactly-once');
    const db = docs.openDatabase(join(dir, 'node-receiver.db'));
    db.exec(CREDITS_TABLE);
    const change = failingOnceChange();
    let clockAhead = 0;
    const hook = await receiver((request) => {
      try {
        const now = Date.now() / 1000 + clockAhead;
        const secrets = [tenant.webhookToken];
        return reply.status(
          docs.receiveHeraldWebhook(db, request.headers, request.rawBody, secrets, change, now),
        );
      } catch (error) {
        return reply.status(500, (error as Error).message);
      }
    });
    const iban = await harness.createAccount(tenant, hook.url);
    const id = await publish(iban);
    const view = await harness.waitForEvent(tenant, id, 'success', { attempts: 2 });
    expect(view.webhook_deliveries.map((d) => [d.response_status, d.response_body])).toEqual([
      [500, 'the ledger is unavailable'],
      [204, ''],
    ]);
    expect(ledger(db, id)).toEqual({ credits: 1, recorded: 1 });

    // Each webhook sent again as it was, or under another webhook-id (X-Signature does not cover it):
    // acknowledged, and nothing applied again.
    const captured = [...hook.requests];
    expect(captured).toHaveLength(2);
    for (const request of captured) {
      const headers = signatureHeaders(request.headers);
      expect(await resend(hook.url, headers, request.rawBody)).toBe(204);
      expect(await resend(hook.url, { ...headers, 'webhook-id': 'another' }, request.rawBody)).toBe(204);
    }
    // Five minutes and a second later: refused, and a fresh timestamp breaks the signature.
    clockAhead = 301;
    const [first] = captured;
    if (!first) throw new Error('no webhook arrived');
    const headers = signatureHeaders(first.headers);
    expect(await resend(hook.url, headers, first.rawBody)).toBe(401);
    const now = Math.floor(Date.now() / 1000) + clockAhead;
    const restamped = headers['x-signature']?.replace(/^t=\d+/, `t=${now}`) ?? '';
    expect(await resend(hook.url, { ...headers, 'x-signature': restamped }, first.rawBody)).toBe(401);
    expect(ledger(db, id)).toEqual({ credits: 1, recorded: 1 });
    db.close();
  });

  it('Python: a change that fails answers 500, the retry applies the event once, and a replay applies nothing', {
    timeout: 60_000,
  }, async () => {
    const tenant = await harness.createTenant();
    const path = join(dir, 'python-receiver.db');
    const python = await startPythonDocsReceiver(path, tenant.webhookToken);
    pythonReceivers.push(python);
    const iban = await harness.createAccount(tenant, python.url);
    const id = await publish(iban);
    const view = await harness.waitForEvent(tenant, id, 'success', { attempts: 2 });
    expect(view.webhook_deliveries.map((d) => d.response_status)).toEqual([500, 204]);
    const db = new DatabaseSync(path, { readOnly: true });
    expect(ledger(db, id)).toEqual({ credits: 1, recorded: 1 });

    const captured = [...python.received];
    expect(captured.map((r) => r.status)).toEqual([500, 204]);
    for (const request of captured) {
      const headers = signatureHeaders(request.headers);
      expect(await resend(python.url, headers, request.rawBody)).toBe(204);
      expect(await resend(python.url, { ...headers, 'webhook-id': 'another' }, request.rawBody)).toBe(204);
    }
    expect(ledger(db, id)).toEqual({ credits: 1, recorded: 1 });
    db.close();
    // Five minutes and a second later the same webhook is refused.
    const late = captured.map((request) => ({
      headers: signatureHeaders(request.headers),
      rawBody: request.rawBody,
      secrets: [tenant.webhookToken],
      now: Date.now() / 1000 + 301,
    }));
    expect(docsPythonVerifies(late)).toEqual([false, false]);
  });
});
