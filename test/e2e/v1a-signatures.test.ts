/**
 * `v1a` (Ed25519) signatures end to end (issue 18): a new organization has a key pair; its webhooks,
 * received by a real HTTP receiver, carry `v1a` next to `v1`, verified with the listed `whpk_` public key
 * by Node's `crypto.verify` and by the Node and Python (`cryptography`) snippets of
 * `docs/receiver-security.md`, never by the signer's code; rotation with an overlap (both keys sign), the
 * operator's rotation, the schemes setting, and a `read` key that lists but cannot rotate.
 */
import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/e2e-http';
import { type Received, TRANSFER } from '../support/events-api-fixture';
import { useOperatorFixture } from '../support/operator-fixture';
import { transferPayload } from '../support/payloads';
import { runNodeSnippet, runPythonSnippet, type SnippetCall } from '../support/receiver-snippets';
import { waitFor } from '../support/wait';

const op = useOperatorFixture();
const IBAN = 'ES9121000418450200051332';

interface KeyView {
  key_id: string;
  public_key: string;
  created_at: string;
  expires_at?: string;
}

async function publishAndReceive(): Promise<Received> {
  const id = randomUUID();
  const published = await op.admin('POST', '/events', {
    account: IBAN,
    type: TRANSFER,
    payload: transferPayload({ transfer_id: id }),
    id,
  });
  expect(published.status, published.text).toBe(201);
  return waitFor(() => op.fixture.received.find((r) => r.headers['webhook-id'] === id), {
    timeoutMs: 30_000,
    what: `the webhook of ${id}`,
  });
}

/** The ids the event's first attempt records as its signers, once it is recorded. */
function recordedSigners(apiKey: string, request: Received): Promise<readonly string[]> {
  const id = String(request.headers['webhook-id']);
  return waitFor(
    async () => {
      const view = await op.api.call(`/events/${id}`, { key: apiKey });
      const { webhook_deliveries } = view.body as { webhook_deliveries: { signing_keys: string[] }[] };
      return webhook_deliveries[0]?.signing_keys;
    },
    { what: `the attempt of ${id}` },
  );
}

/** The listed public keys whose signature each `v1a` entry is, checked with node:crypto. */
function v1aSigners(request: Received, keys: readonly string[]): string[] {
  const signed = Buffer.from(
    `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`,
  );
  return String(request.headers['webhook-signature'])
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .map(
      (entry) =>
        keys.find((whpk) => {
          const x = Buffer.from(whpk.slice('whpk_'.length), 'base64').toString('base64url');
          const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
          return verify(null, signed, key, Buffer.from(entry.slice('v1a,'.length), 'base64'));
        }) ?? 'none',
    );
}

const snippetCall = (keys: readonly string[], request: Received): SnippetCall => ({
  args: [
    keys,
    {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    },
    Buffer.from(request.body).toString('base64'),
  ],
  bodyArg: 2,
});

describe('v1a signatures', () => {
  it('sign every webhook next to v1, verified with the listed public key by node:crypto and the documented snippets', {
    timeout: 90_000,
  }, async () => {
    const org = (await op.admin('POST', '/admin/organizations', { name: 'Ed25519' })).body as {
      id: string;
      api_key: string;
    };
    const put = await op.admin('PUT', `/admin/accounts/${IBAN}`, {
      org: org.id,
      webhook_url: `${op.fixture.receiverUrl}/ok`,
    });
    expect(put.status, put.text).toBe(200);
    const listed = await op.api.call('/webhook-keys', { key: org.api_key });
    expect(listed.status, listed.text).toBe(200);
    const [key] = listed.body as KeyView[];
    expect(listed.body).toHaveLength(1);
    expect(key?.public_key).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    expect(listed.text).not.toMatch(/sealed|private/i);

    const request = await publishAndReceive();
    expect(String(request.headers['webhook-signature'])).toMatch(/^v1,\S+ v1a,\S+$/);
    const publicKeys = [key?.public_key ?? ''];
    expect(v1aSigners(request, publicKeys)).toEqual(publicKeys);
    // The attempt names the token (whk_…) and the key (whak_…, as listed) that signed it, apart.
    expect(key?.key_id).toMatch(/^whak_[0-9a-f]{16}$/);
    expect(await recordedSigners(org.api_key, request)).toEqual([
      expect.stringMatching(/^whk_[0-9a-f]{16}$/),
      key?.key_id,
    ]);
    const tampered = { ...request, body: request.body.replace('}', ' }') };
    const calls = [snippetCall(publicKeys, request), snippetCall(publicKeys, tampered)];
    expect(await runNodeSnippet('v1a-receiver', 'verifyV1a', calls)).toEqual([true, false]);
    expect(runPythonSnippet('v1a-receiver', 'verify_v1a', calls)).toEqual([true, false]);

    // Rotation by the organization: both keys sign during the overlap, new first.
    const rotated = await op.api.call('/webhook-keys/rotate', {
      method: 'POST',
      key: org.api_key,
      body: { overlap_hours: 1 },
    });
    expect(rotated.status, rotated.text).toBe(200);
    const [fresh, previous] = rotated.body as KeyView[];
    expect(previous).toMatchObject({ key_id: key?.key_id, expires_at: expect.any(String) });
    const both = [fresh?.public_key ?? '', previous?.public_key ?? ''];
    expect(v1aSigners(await publishAndReceive(), both)).toEqual(both);

    // The operator's rotation without overlap retires both at once; the attempt names the new key.
    const byOperator = await op.admin('POST', `/admin/organizations/${org.id}/webhook-keys/rotate`, {
      overlap_hours: 0,
    });
    expect(byOperator.status, byOperator.text).toBe(200);
    const [latest] = byOperator.body as KeyView[];
    expect(byOperator.body).toHaveLength(1);
    const last = await publishAndReceive();
    expect(v1aSigners(last, [latest?.public_key ?? '', ...both])).toEqual([latest?.public_key]);
    expect((await recordedSigners(org.api_key, last)).at(-1)).toBe(latest?.key_id);

    // v1a only: no HMAC at all, and the snippets still verify.
    const only = await op.api.call('/webhook-signatures', {
      method: 'PUT',
      key: org.api_key,
      body: { signature_schemes: ['v1a'] },
    });
    expect(only.status, only.text).toBe(200);
    const v1aOnly = await publishAndReceive();
    expect(v1aOnly.headers['x-signature']).toBeUndefined();
    expect(String(v1aOnly.headers['webhook-signature'])).toMatch(/^v1a,\S+$/);
    expect(
      runPythonSnippet('v1a-receiver', 'verify_v1a', [snippetCall([latest?.public_key ?? ''], v1aOnly)]),
    ).toEqual([true]);
  });

  it('lets a read key list the public keys but not rotate them or change the schemes', async () => {
    const readKey = (
      await op.admin('POST', `/admin/organizations/${op.fixture.orgB.orgId}/api-keys`, {
        name: 'r',
        scope: 'read',
      })
    ).body as { api_key: string };
    expect((await op.api.call('/webhook-keys', { key: readKey.api_key })).status).toBe(200);
    expectProblem(await op.api.call('/webhook-keys/rotate', { method: 'POST', key: readKey.api_key }), 403);
    const bad = await op.admin('PUT', `/admin/organizations/${op.fixture.orgB.orgId}/webhook-signatures`, {
      signature_schemes: ['v2'],
    });
    expect(expectProblem(bad, 400).invalid_params).toEqual([
      { name: 'signature_schemes', reason: expect.stringContaining('v1, v1a') },
    ]);
    // The seeded organization B has no key yet (created without a sealer): v1a alone is refused.
    const alone = await op.admin('PUT', `/admin/organizations/${op.fixture.orgB.orgId}/webhook-signatures`, {
      signature_schemes: ['v1a'],
    });
    expectProblem(alone, 422);
  });
});
