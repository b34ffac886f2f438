/**
 * The `v1a` (Ed25519) signatures every attempt carries (issue 18), with fakes and an injected clock:
 * verified here with `node:crypto`'s `verify` on a public key built from the listed `whpk_` string, not
 * with the signer's code; the overlap after a rotation; the schemes setting; and that a key sealed for one
 * organization signs nothing for another.
 */
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliverBatch } from '#delivery/deliver-batch';
import { deliverEvent } from '#delivery/deliver-event';
import type { WebhookRequest } from '#domain/ports';
import { toWebhookKeyView } from '#http/organizations/webhook-key-view';
import {
  listSigningKeys,
  rotateSigningKey,
  setSignatureSchemes,
} from '#use-cases/organizations/signing-keys';
import { type DeliveryWorld, deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';

const HOUR = 3_600_000;

/** A receiver's check: the public keys (as `whpk_…`) whose signature a `v1a` entry of the request is. */
function v1aSigners(request: WebhookRequest, publicKeys: readonly string[]): string[] {
  const signed = Buffer.from(
    `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`,
  );
  return (request.headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .map((entry) => {
      const signature = Buffer.from(entry.slice('v1a,'.length), 'base64');
      const found = publicKeys.find((whpk) => {
        const x = Buffer.from(whpk.slice('whpk_'.length), 'base64').toString('base64url');
        const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
        return verify(null, signed, key, signature);
      });
      expect(found, `v1a entry ${entry} matches no public key`).toBeDefined();
      return found ?? '';
    });
}

function world(): DeliveryWorld & { sealer: FakeSecretSealer } {
  const sealer = new FakeSecretSealer();
  const w = deliveryWorld();
  return { ...w, sealer, deps: { ...w.deps, sealer } };
}

/** The value, or a failed test when there is none. */
function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

async function attempt(w: DeliveryWorld, id: string): Promise<WebhookRequest> {
  w.events.seed({ id });
  await deliverEvent(w.deps, { id });
  const request = w.sender.requests.at(-1);
  if (!request) throw new Error('nothing sent');
  return request;
}

describe('v1a signatures', () => {
  it('sign every attempt next to v1 once the organization has a key, verified with its listed public key', async () => {
    const w = world();
    const before = await attempt(w, 'before');
    expect(before.headers['webhook-signature']).not.toContain('v1a,');
    const [key] = await rotateSigningKey(
      { directory: w.directory, sealer: w.sealer },
      'org-1',
      24,
      w.clock.now(),
    );
    const listed = (await listSigningKeys(w.directory, 'org-1', w.clock.now())).map(toWebhookKeyView);
    expect(listed).toEqual([
      {
        key_id: key?.id,
        public_key: expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/),
        created_at: expect.any(String),
      },
    ]);
    const request = await attempt(w, 'after');
    expect(request.headers['webhook-signature']).toMatch(/^v1,\S+ v1a,\S+$/);
    expect(request.headers['X-Signature']).toBeDefined();
    expect(
      v1aSigners(
        request,
        listed.map((k) => k.public_key),
      ),
    ).toEqual([listed[0]?.public_key]);
    expect(w.events.events.get('after')?.deliveries[0]?.signingKeys).toContain(key?.id);
    // A tampered body no longer verifies.
    expect(() =>
      v1aSigners({ ...request, body: `${request.body} ` }, [listed[0]?.public_key ?? '']),
    ).toThrow();
  });

  it('sign with both keys during an overlap, new first, and with the new one only from its end', async () => {
    const w = world();
    const deps = { directory: w.directory, sealer: w.sealer };
    const [old] = await rotateSigningKey(deps, 'org-1', 0, w.clock.now());
    const [fresh, previous] = await rotateSigningKey(deps, 'org-1', 1, w.clock.now());
    expect(previous).toMatchObject({ id: old?.id, expiresAt: new Date(w.clock.now() + HOUR).toISOString() });
    const keys = [fresh?.publicKey ?? '', old?.publicKey ?? ''];
    expect(v1aSigners(await attempt(w, 'during'), keys)).toEqual(keys);
    expect(toWebhookKeyView(present(previous))).toHaveProperty('expires_at');
    w.clock.advance(HOUR);
    expect(v1aSigners(await attempt(w, 'ended'), keys)).toEqual([fresh?.publicKey]);
    expect(await listSigningKeys(w.directory, 'org-1', w.clock.now())).toHaveLength(1);
  });

  it('follow the schemes setting: v1a alone drops the HMAC headers; v1 alone drops v1a', async () => {
    const w = world();
    await expect(setSignatureSchemes(w.directory, 'org-1', ['v1a'])).rejects.toMatchObject({
      kind: 'unprocessable',
      params: [{ name: 'signature_schemes', reason: expect.stringContaining('no signing key') }],
    });
    const [key] = await rotateSigningKey(
      { directory: w.directory, sealer: w.sealer },
      'org-1',
      0,
      w.clock.now(),
    );
    await setSignatureSchemes(w.directory, 'org-1', ['v1a']);
    const onlyV1a = await attempt(w, 'v1a-only');
    expect(onlyV1a.headers['X-Signature']).toBeUndefined();
    expect(onlyV1a.headers['webhook-signature']).toMatch(/^v1a,\S+$/);
    expect(v1aSigners(onlyV1a, [key?.publicKey ?? ''])).toHaveLength(1);
    await setSignatureSchemes(w.directory, 'org-1', ['v1']);
    const onlyV1 = await attempt(w, 'v1-only');
    expect(onlyV1.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(onlyV1.headers['X-Signature']).toBeDefined();
  });

  it('never sign for another organization: a key moved onto its item does not open, and nothing is sent', async () => {
    const w = world();
    const other = w.directory.addOrganization('org-2');
    const [key] = await rotateSigningKey(
      { directory: w.directory, sealer: w.sealer },
      'org-2',
      0,
      w.clock.now(),
    );
    w.directory.organizations.set('org-1', {
      ...present(w.directory.organizations.get('org-1')),
      signingKey: key,
    });
    w.events.seed({ id: 'stolen' });
    // Nothing is sent: the attempt is recorded as failed, saying why (never the key or the sealer's error).
    const outcome = await deliverEvent(w.deps, { id: 'stolen' });
    expect(outcome).toMatchObject({
      kind: 'retry',
      notSentError: expect.objectContaining({ message: expect.stringMatching(/another context/) }),
    });
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('stolen')?.deliveries).toEqual([
      expect.objectContaining({
        responseStatus: 0,
        responseBody: "not sent: the organization's signing key could not be opened (Error)",
        signingKeys: [],
      }),
    ]);
    expect(other.signingKey).toBeUndefined();
  });

  it('keep the private key sealed: the stored key holds no PKCS #8, the views only public fields', async () => {
    const w = world();
    const [key] = await rotateSigningKey(
      { directory: w.directory, sealer: w.sealer },
      'org-1',
      0,
      w.clock.now(),
    );
    expect(key?.sealedPrivateKey).toMatch(/^fake\.signing-key\.org-1\./);
    expect(Object.keys(toWebhookKeyView(present(key))).sort()).toEqual([
      'created_at',
      'key_id',
      'public_key',
    ]);
    expect(JSON.stringify(toWebhookKeyView(present(key)))).not.toContain(key?.sealedPrivateKey ?? '-');
  });

  it('open each organization key once per batch, not per attempt', async () => {
    const w = world();
    await rotateSigningKey({ directory: w.directory, sealer: w.sealer }, 'org-1', 0, w.clock.now());
    for (const id of ['a', 'b', 'c']) w.events.seed({ id });
    await deliverBatch(
      w.deps,
      ['a', 'b', 'c'].map((id) => message(id)),
    );
    expect(w.sender.requests).toHaveLength(3);
    expect(w.sealer.calls.opened).toBe(1);
  });

  it('open no key while v1a is off, nor a previous key whose overlap has ended', async () => {
    const w = world();
    const deps = { directory: w.directory, sealer: w.sealer };
    await rotateSigningKey(deps, 'org-1', 0, w.clock.now());
    await rotateSigningKey(deps, 'org-1', 1, w.clock.now());
    await setSignatureSchemes(w.directory, 'org-1', ['v1']);
    await attempt(w, 'v1-only');
    expect(w.sealer.calls.opened).toBe(0);
    await setSignatureSchemes(w.directory, 'org-1', ['v1', 'v1a']);
    w.clock.advance(HOUR);
    await attempt(w, 'after-overlap');
    expect(w.sealer.calls.opened).toBe(1);
  });

  it('open nothing for a message that is not due or whose endpoint is deferred', async () => {
    const w = world();
    await rotateSigningKey({ directory: w.directory, sealer: w.sealer }, 'org-1', 0, w.clock.now());
    w.events.seed({ id: 'later', webhookRetries: 1, nextAttemptAt: w.clock.now() + 60_000 });
    expect((await deliverEvent(w.deps, { id: 'later' })).kind).toBe('not-due');
    w.health.health.set(w.iban, {
      state: 'degraded',
      consecutiveFailures: 5,
      circuitOpenUntil: w.clock.now() + 60_000,
    });
    w.events.seed({ id: 'deferred' });
    expect((await deliverEvent(w.deps, { id: 'deferred' })).kind).toBe('deferred');
    expect(w.sealer.calls.opened).toBe(0);
    expect(w.sender.requests).toHaveLength(0);
  });
});
