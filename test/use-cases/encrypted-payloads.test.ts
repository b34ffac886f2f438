/**
 * Encrypted payloads (issue 18) with fakes: an account with a payload key gets its webhook bodies as a
 * JWE (`RSA-OAEP-256`, `A256GCM`), `application/jose`, signed over the bytes sent, decrypted here with
 * `jose` to the event's JSON; the stored event stays plain; the material is read once per batch and only
 * for accounts that have some; absent keeps, null removes; an account that asked for encryption never
 * gets plain JSON (without its key the attempt fails, recorded, and nothing is sent).
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { JosePayloadEncrypter } from '#adapters/crypto/jose-payload-encrypter';
import { InMemoryEndpointStore } from '#adapters/memory/endpoint-store';
import { deliverBatch } from '#delivery/deliver-batch';
import { deliverEvent } from '#delivery/deliver-event';
import { defaultEndpoint } from '#domain/endpoints/endpoint';
import { ValidationError } from '#domain/errors';
import { deleteAccount } from '#use-cases/accounts/delete-account';
import { prepareEndpointSecurity, saveEndpointSecurity } from '#use-cases/accounts/endpoint-security';
import { deliveryWorld } from '../support/fakes/delivery-deps';
import { message } from '../support/fakes/delivery-queue';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';

const receiver = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = receiver.publicKey.export({ format: 'pem', type: 'spki' }).toString();

const CONTEXT = { orgId: 'org-1', iban: 'DE89370400440532013000', nowMs: Date.parse('2026-11-21T12:00:00Z') };

function world() {
  const w = deliveryWorld();
  const store = new FakeEndpointSecretStore(w.directory);
  return { ...w, store, deps: { ...w.deps, endpointSecrets: store, encrypter: new JosePayloadEncrypter() } };
}

async function encrypt(w: ReturnType<typeof world>) {
  const account = w.directory.accounts.get(w.iban);
  if (!account) throw new Error('no account');
  return saveEndpointSecurity(
    w.store,
    defaultEndpoint(account),
    await prepareEndpointSecurity({ payloadEncryptionKey: PEM }, CONTEXT),
  );
}

describe('encrypted payloads', () => {
  it('send a JWE of the JSON body as application/jose, signed over those bytes; the event stays plain', async () => {
    const w = world();
    const saved = await encrypt(w);
    expect(saved?.payloadEncryption).toMatchObject({ bits: 2048 });
    w.events.seed({ id: 'e1' });
    await deliverEvent(w.deps, { id: 'e1' });
    const request = w.sender.requests[0];
    if (!request) throw new Error('nothing sent');
    const stored = w.events.events.get('e1');
    expect(request.headers['Content-Type']).toBe('application/jose');
    expect(request.body.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(request.body)).toMatchObject({
      alg: 'RSA-OAEP-256',
      enc: 'A256GCM',
      kid: saved?.payloadEncryption?.keyId,
    });
    const { plaintext } = await compactDecrypt(request.body, receiver.privateKey);
    expect(new TextDecoder().decode(plaintext)).toBe(stored?.body);
    // Nothing of the JSON is sent in the clear: five base64url parts, and not the stored body.
    expect(request.body).toMatch(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*){4}$/);
    expect(request.body).not.toBe(stored?.body);
    // The HMAC covers the bytes sent.
    const token = w.directory.organizations.get('org-1')?.webhookToken ?? '';
    const key = Buffer.from(token.slice('whsec_'.length), 'base64');
    const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
    expect(request.headers['webhook-signature']).toBe(
      `v1,${createHmac('sha256', key).update(signed).digest('base64')}`,
    );
  });

  it('read the material once per batch, and never for accounts without any', async () => {
    const w = world();
    for (const id of ['a', 'b']) w.events.seed({ id });
    await deliverBatch(w.deps, [message('a'), message('b')]);
    expect(w.store.reads).toBe(0);
    await encrypt(w);
    for (const id of ['c', 'd']) w.events.seed({ id });
    await deliverBatch(w.deps, [message('c'), message('d')]);
    expect(w.store.reads).toBe(1);
    expect(w.sender.requests.map((r) => r.headers['Content-Type'])).toEqual([
      'application/json',
      'application/json',
      'application/jose',
      'application/jose',
    ]);
  });

  it('never fall back to plain JSON when the key is missing: nothing is sent, the attempt fails saying why', async () => {
    const w = world();
    await encrypt(w);
    w.store.items.delete(w.iban);
    w.events.seed({ id: 'e1' });
    expect(await deliverEvent(w.deps, { id: 'e1' })).toMatchObject({ kind: 'retry' });
    expect(w.sender.requests).toHaveLength(0);
    expect(w.events.events.get('e1')).toMatchObject({
      webhookRetries: 1,
      deliveries: [
        {
          responseStatus: 0,
          responseBody: 'not sent: the endpoint asks for encrypted payloads, but its key is not available',
        },
      ],
    });
  });

  it('keep the key when the field is absent, remove it with null, and refuse a bad key before any write', async () => {
    const w = world();
    const saved = await encrypt(w);
    const endpoint = { iban: w.iban, orgId: 'org-1', security: saved };
    const kept = await saveEndpointSecurity(w.store, endpoint, await prepareEndpointSecurity({}, CONTEXT));
    expect(kept).toEqual(saved);
    await expect(prepareEndpointSecurity({ payloadEncryptionKey: 'nonsense' }, CONTEXT)).rejects.toThrow(
      ValidationError,
    );
    expect(w.store.items.get(w.iban)?.secrets.payloadEncryptionKey).toBeDefined();
    const removed = await saveEndpointSecurity(
      w.store,
      endpoint,
      await prepareEndpointSecurity({ payloadEncryptionKey: null }, CONTEXT),
    );
    expect(removed?.payloadEncryption).toBeUndefined();
    expect(w.directory.accounts.get(w.iban)?.security).toBeUndefined();
  });
});

describe('deleting an account with endpoint material', () => {
  it('removes the material with the account, so a later owner of the IBAN starts without it', async () => {
    const w = world();
    await encrypt(w);
    expect(w.store.items.has(w.iban)).toBe(true);
    const deps = {
      directory: w.directory,
      events: w.events,
      now: w.clock.now,
      endpoints: new InMemoryEndpointStore(w.directory),
      notices: w.notices,
      removeEndpointSecrets: w.store.removeSecrets,
    };
    await deleteAccount(deps, { iban: w.iban, erase: false });
    expect(w.store.items.has(w.iban)).toBe(false);
  });

  it('removes it again on every retry when the removal failed after the account went', async () => {
    const w = world();
    await encrypt(w);
    let failing = true;
    const deps = {
      directory: w.directory,
      events: w.events,
      now: w.clock.now,
      endpoints: new InMemoryEndpointStore(w.directory),
      notices: w.notices,
      removeEndpointSecrets: async (iban: string, orgId: string) => {
        if (failing) throw new Error('DynamoDB unavailable');
        await w.store.removeSecrets(iban, orgId);
      },
    };
    await expect(deleteAccount(deps, { iban: w.iban, erase: false })).rejects.toThrow(/unavailable/);
    expect(w.store.items.has(w.iban)).toBe(true);
    failing = false;
    // The retry finds the account gone (404), but the tombstone's owner removes the material first.
    await expect(deleteAccount(deps, { iban: w.iban, erase: false })).rejects.toThrow(/deleted/);
    expect(w.store.items.has(w.iban)).toBe(false);
    // An erasure's retry does too.
    w.store.items.set(w.iban, { orgId: 'org-1', secrets: {}, summary: {}, version: 1 });
    await deleteAccount(deps, { iban: w.iban, erase: true });
    expect(w.store.items.has(w.iban)).toBe(false);
  });
});
