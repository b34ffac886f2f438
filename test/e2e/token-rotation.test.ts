/**
 * Webhook token rotation end to end: an organization key with the `manage` scope rotates its token with an
 * overlap; webhooks sent during the overlap carry two signatures in both headers (new, then old): the
 * Standard Webhooks ones each verified by the `standardwebhooks` library with its own token, the
 * `X-Signature` ones recomputed with node:crypto; after the overlap only the new one, in both. The
 * operator's rotate route and its errors too.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/e2e-http';
import { type Received, TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { sleep, waitFor } from '../support/wait';

const op = useOperatorFixture();

const AT = 'AT611904300234573201';
/** 7.2 s: long enough to deliver one webhook inside it, short enough to wait for its end. */
const OVERLAP_HOURS = 0.002;

interface TokenView {
  webhook_token: string;
  previous: { webhook_token: string; expires_at: string } | null;
}

async function publishAndReceive(): Promise<{ request: Received }> {
  const id = randomUUID();
  const published = await op.admin('POST', '/events', {
    account: AT,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: id }),
    id,
  });
  expect(published.status, published.text).toBe(201);
  // Nothing is signed at publish.
  expect((published.body as { signature: string | null }).signature).toBeNull();
  const request = await waitFor(() => op.fixture.received.find((r) => r.headers['webhook-id'] === id), {
    timeoutMs: 30_000,
    what: `the webhook of ${id}`,
  });
  return { request };
}

/** Which of `tokens` signed the request's `X-Signature`, in its order (recomputed with node:crypto). */
function xSignatureTokens(request: Received, tokens: readonly string[]): string[] {
  const [stamp = '', ...entries] = String(request.headers['x-signature']).split(',');
  const t = stamp.slice('t='.length);
  expect(t).toBe(String(request.headers['webhook-timestamp']));
  return entries.map(
    (entry) =>
      tokens.find((token) => {
        const key = Buffer.from(token.slice('whsec_'.length), 'base64');
        return entry === `sha256=${createHmac('sha256', key).update(`${t}.${request.body}`).digest('hex')}`;
      }) ?? 'none',
  );
}

function headersWith(request: Received, signature: string): Record<string, string> {
  return {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': signature,
  };
}

const verifies = (token: string, request: Received, signature: string): boolean => {
  try {
    new Webhook(token).verify(request.body, headersWith(request, signature));
    return true;
  } catch {
    return false;
  }
};

describe('webhook token rotation', () => {
  it('signs with the new and the old token during the overlap, then with the new one only', async () => {
    const org = (await op.admin('POST', '/admin/organizations', { name: 'Rotating' })).body as {
      id: string;
      api_key: string;
      webhook_token: string;
    };
    const put = await op.admin('PUT', `/admin/accounts/${AT}`, {
      org: org.id,
      webhook_url: `${op.fixture.receiverUrl}/ok`,
    });
    expect(put.status, put.text).toBe(200);

    const rotated = await op.api.call('/webhook-token/rotate', {
      method: 'POST',
      key: org.api_key,
      body: { overlap_hours: OVERLAP_HOURS },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const tokens = rotated.body as TokenView;
    const oldToken = org.webhook_token;
    const newToken = tokens.webhook_token;
    expect(newToken).not.toBe(oldToken);
    expect(tokens.previous?.webhook_token).toBe(oldToken);
    expect((await op.api.call('/webhook-token', { key: org.api_key })).body).toEqual(tokens);
    const rotatedAt = Date.now();

    const during = await publishAndReceive();
    const header = String(during.request.headers['webhook-signature']);
    // The HMAC entries; the organization's Ed25519 key adds a `v1a` one (test/e2e/v1a-signatures.test.ts).
    const signatures = header.split(' ').filter((entry) => entry.startsWith('v1,'));
    expect(signatures).toHaveLength(2);
    // As the served document's webhook describes the header.
    const documented = (op.api.document.webhooks.event?.post?.parameters ?? []).find(
      (parameter) => 'name' in parameter && parameter.name === 'webhook-signature',
    );
    const pattern = documented && 'schema' in documented ? documented.schema.pattern : undefined;
    expect(header).toMatch(new RegExp(String(pattern)));
    const [first = '', second = ''] = signatures;
    // The whole header verifies with either secret, so receivers on either side of the switch keep working.
    expect(verifies(newToken, during.request, header)).toBe(true);
    expect(verifies(oldToken, during.request, header)).toBe(true);
    // Each signature alone verifies with its own token only: new first, then old.
    expect([verifies(newToken, during.request, first), verifies(oldToken, during.request, first)]).toEqual([
      true,
      false,
    ]);
    expect([verifies(newToken, during.request, second), verifies(oldToken, during.request, second)]).toEqual([
      false,
      true,
    ]);
    // X-Signature carries the same tokens, in the same order.
    expect(xSignatureTokens(during.request, [newToken, oldToken])).toEqual([newToken, oldToken]);

    await sleep(Math.max(0, rotatedAt + OVERLAP_HOURS * 3_600_000 + 500 - Date.now()));
    const after = await publishAndReceive();
    const single = String(after.request.headers['webhook-signature']);
    expect(single.split(' ').filter((entry) => entry.startsWith('v1,'))).toHaveLength(1);
    expect(verifies(newToken, after.request, single)).toBe(true);
    expect(verifies(oldToken, after.request, single)).toBe(false);
    expect(xSignatureTokens(after.request, [newToken, oldToken])).toEqual([newToken]);
    expect(
      ((await op.api.call('/webhook-token', { key: org.api_key })).body as TokenView).previous,
    ).toBeNull();
  }, 60_000);

  it("lets the operator rotate any organization's token, 24 h of overlap by default", async () => {
    const orgB = op.fixture.orgB;
    const rotated = await op.admin('POST', `/admin/organizations/${orgB.orgId}/webhook-token/rotate`);
    expect(rotated.status, rotated.text).toBe(200);
    const view = rotated.body as TokenView;
    expect(view.previous?.webhook_token).toBe(orgB.webhookToken);
    const hours = (Date.parse(`${view.previous?.expires_at.replace(' ', 'T')}Z`) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);

    const noOverlap = await op.admin('POST', `/admin/organizations/${orgB.orgId}/webhook-token/rotate`, {
      overlap_hours: 0,
    });
    expect((noOverlap.body as TokenView).previous).toBeNull();
    const shown = await op.admin('GET', `/admin/organizations/${orgB.orgId}`);
    expect(shown.body).toMatchObject({
      webhook_token: (noOverlap.body as TokenView).webhook_token,
      previous: null,
    });

    const tooLong = await op.admin('POST', `/admin/organizations/${orgB.orgId}/webhook-token/rotate`, {
      overlap_hours: 200,
    });
    expect(expectProblem(tooLong, 400).invalid_params?.[0]?.name).toBe('overlap_hours');
    expectProblem(await op.admin('POST', '/admin/organizations/nope/webhook-token/rotate'), 404);
  });
});
