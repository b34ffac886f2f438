/**
 * Putting an account's URL with its endpoint security (issue 18 review): ownership is checked before any
 * KMS work, the security is written before the URL (a new URL never gets plain JSON or no certificate
 * that the same request asked for), and a client certificate on an `http:` URL is refused. Every field
 * absent keeps what is stored and only `null` removes it (issue 28).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTlsMaterial } from '#adapters/http/client-tls';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { putEndpoint } from '#use-cases/accounts/put-endpoint';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
import { InMemoryEventStore } from '../support/fakes/event-store';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { createTestCa } from '../support/test-ca';

const IBAN = 'DE89370400440532013000';
const ca = createTestCa();
const client = ca.issue('put-endpoint-client');
const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ format: 'pem', type: 'spki' })
  .toString();
afterAll(() => ca.remove());

function world(owner = 'org-1') {
  const directory = new InMemoryDirectoryStore();
  directory.addOrganization('org-1');
  directory.addOrganization('org-2');
  directory.addAccount({ iban: IBAN, orgId: owner, webhookUrl: 'https://old.example.com/h' });
  const store = new FakeEndpointSecretStore(directory);
  const sealer = new FakeSecretSealer();
  const events = new InMemoryEventStore();
  const deps = {
    directory,
    events,
    endpointSecrets: store,
    sealer,
    policy: 'allow-http' as const,
    checkTls: checkTlsMaterial,
    now: Date.now,
  };
  return { directory, events, store, sealer, deps };
}

const certificate = { tlsClientCertificate: client.cert, tlsClientKey: client.key };

describe('putting an endpoint', () => {
  it("checks ownership before sealing anything: another organization's account costs no KMS call", async () => {
    const w = world('org-2');
    const input = {
      orgId: 'org-1',
      iban: IBAN,
      webhookUrl: 'https://new.example.com/h',
      security: certificate,
    };
    await expect(putEndpoint(w.deps, { ...input, mayCreate: false })).rejects.toThrow(NotFoundError);
    await expect(putEndpoint(w.deps, { ...input, mayCreate: true })).rejects.toThrow(ConflictError);
    expect(w.sealer.calls.sealed).toBe(0);
    expect(w.store.items.size).toBe(0);
  });

  it('writes the security before the URL: when the security write fails, the URL has not changed', async () => {
    const w = world();
    w.store.saveSecurity = async () => {
      throw new Error('DynamoDB unavailable');
    };
    const input = {
      orgId: 'org-1',
      iban: IBAN,
      webhookUrl: 'https://new.example.com/h',
      security: { payloadEncryptionKey: PEM },
      mayCreate: false,
    };
    await expect(putEndpoint(w.deps, input)).rejects.toThrow(/unavailable/);
    expect(w.directory.accounts.get(IBAN)?.webhookUrl).toBe('https://old.example.com/h');
  });

  it('sets both, and the account answered carries the summary', async () => {
    const w = world();
    const input = { orgId: 'org-1', iban: IBAN, webhookUrl: 'https://new.example.com/h' };
    const account = await putEndpoint(w.deps, {
      ...input,
      security: { payloadEncryptionKey: PEM },
      mayCreate: false,
    });
    expect(account.webhookUrl).toBe('https://new.example.com/h');
    expect(account.security?.payloadEncryption?.bits).toBe(2048);
  });

  it('refuses a client certificate on an http: URL, in the same request or kept from an earlier one', async () => {
    const w = world();
    const http = {
      orgId: 'org-1',
      iban: IBAN,
      webhookUrl: 'http://receiver.example.com/h',
      mayCreate: false,
    };
    const refused = putEndpoint(w.deps, { ...http, security: certificate });
    await expect(refused).rejects.toThrow(ValidationError);
    await expect(refused).rejects.toMatchObject({ params: [{ name: 'tls_client_certificate' }] });
    expect(w.directory.accounts.get(IBAN)?.webhookUrl).toBe('https://old.example.com/h');
    await putEndpoint(w.deps, { ...http, webhookUrl: 'https://old.example.com/h', security: certificate });
    await expect(putEndpoint(w.deps, { ...http, security: {} })).rejects.toMatchObject({
      params: [{ name: 'tls_client_certificate' }],
    });
  });

  it('keeps the delivery order it was given, with or without a security change, and an absent one as stored', async () => {
    const w = world();
    const base = { orgId: 'org-1', iban: IBAN, webhookUrl: 'https://new.example.com/h', mayCreate: false };
    expect(await putEndpoint(w.deps, { ...base, security: {}, deliveryOrder: 'ordered' })).toMatchObject({
      deliveryOrder: 'ordered',
    });
    expect(w.directory.accounts.get(IBAN)?.deliveryOrder).toBe('ordered');
    await putEndpoint(w.deps, { ...base, security: {} });
    expect(w.directory.accounts.get(IBAN)?.deliveryOrder).toBe('ordered');
    await putEndpoint(w.deps, {
      ...base,
      security: { payloadEncryptionKey: PEM },
      deliveryOrder: 'concurrent',
    });
    expect(w.directory.accounts.get(IBAN)?.deliveryOrder).toBeUndefined();
    await putEndpoint(w.deps, { ...base, security: { payloadEncryptionKey: PEM }, deliveryOrder: 'ordered' });
    expect(w.directory.accounts.get(IBAN)?.deliveryOrder).toBe('ordered');
  });

  it('starts the watermark of an account made ordered at its latest sequence: its history is not gated again', async () => {
    const w = world();
    for (let n = 1; n <= 7; n++)
      w.events.seed({ id: `e${n}`, account: IBAN, sequence: n, webhookStatus: 'success' });
    const base = {
      orgId: 'org-1',
      iban: IBAN,
      webhookUrl: 'https://new.example.com/h',
      security: {},
      mayCreate: false,
    };
    expect(await putEndpoint(w.deps, { ...base, deliveryOrder: 'ordered' })).toMatchObject({
      settledThrough: 7,
    });
    expect(w.directory.accounts.get(IBAN)).toMatchObject({
      deliveryOrder: 'ordered',
      settledThrough: 7,
      orderEpoch: 1,
    });
    // Already ordered: a put leaves the watermark where the gate moved it.
    w.events.seed({ id: 'e8', account: IBAN, sequence: 8 });
    await putEndpoint(w.deps, { ...base, deliveryOrder: 'ordered' });
    expect(w.directory.accounts.get(IBAN)?.settledThrough).toBe(7);
  });

  describe('a field left out keeps what is stored, null removes it (issue 28)', () => {
    const OLD_URL = 'https://old.example.com/h';
    const own = { orgId: 'org-1', iban: IBAN };

    it.each([
      ['the operator', true],
      ["the organization's key", false],
    ])('keeps the URL through a write of the order alone, by %s', async (_who, mayCreate) => {
      const w = world();
      const put = await putEndpoint(w.deps, { ...own, security: {}, deliveryOrder: 'ordered', mayCreate });
      expect(put).toMatchObject({ webhookUrl: OLD_URL, deliveryOrder: 'ordered' });
      expect(w.directory.accounts.get(IBAN)).toMatchObject({ webhookUrl: OLD_URL, deliveryOrder: 'ordered' });
    });

    it('keeps the URL and the order through a write of a security field alone, set or removed', async () => {
      const w = world();
      w.directory.addAccount({ ...own, webhookUrl: OLD_URL, deliveryOrder: 'ordered' });
      const base = { ...own, mayCreate: false };
      await putEndpoint(w.deps, { ...base, security: { payloadEncryptionKey: PEM } });
      expect(w.directory.accounts.get(IBAN)).toMatchObject({ webhookUrl: OLD_URL, deliveryOrder: 'ordered' });
      const removed = await putEndpoint(w.deps, { ...base, security: { payloadEncryptionKey: null } });
      expect(removed.security?.payloadEncryption).toBeUndefined();
      expect(w.directory.accounts.get(IBAN)).toMatchObject({ webhookUrl: OLD_URL, deliveryOrder: 'ordered' });
    });

    it('keeps the order and the security through a write of the URL alone, and removes the URL for null', async () => {
      const w = world();
      const base = { ...own, mayCreate: false };
      await putEndpoint(w.deps, {
        ...base,
        security: { payloadEncryptionKey: PEM },
        deliveryOrder: 'ordered',
      });
      await putEndpoint(w.deps, { ...base, webhookUrl: 'https://new.example.com/h', security: {} });
      expect(w.directory.accounts.get(IBAN)).toMatchObject({
        webhookUrl: 'https://new.example.com/h',
        deliveryOrder: 'ordered',
        security: { payloadEncryption: { bits: 2048 } },
      });
      const cleared = await putEndpoint(w.deps, { ...base, webhookUrl: null, security: {} });
      expect(cleared.webhookUrl).toBeUndefined();
      expect(w.directory.accounts.get(IBAN)?.webhookUrl).toBeUndefined();
      expect(w.directory.accounts.get(IBAN)).toMatchObject({
        deliveryOrder: 'ordered',
        security: { payloadEncryption: { bits: 2048 } },
      });
      // Removed stays removed through a write that leaves the URL out.
      await putEndpoint(w.deps, { ...base, security: {}, deliveryOrder: 'concurrent' });
      expect(w.directory.accounts.get(IBAN)?.webhookUrl).toBeUndefined();
    });

    it('creates a new account without a URL when the operator gives none', async () => {
      const w = world();
      const NEW = 'GB82WEST12345698765432';
      const created = await putEndpoint(w.deps, { ...own, iban: NEW, security: {}, mayCreate: true });
      expect(created).toMatchObject({ iban: NEW, orgId: 'org-1' });
      expect(created.webhookUrl).toBeUndefined();
    });

    it('refuses a client certificate when the URL left out is a stored http: one, writing nothing', async () => {
      const w = world();
      w.directory.addAccount({ ...own, webhookUrl: 'http://receiver.example.com/h' });
      const refused = putEndpoint(w.deps, { ...own, security: certificate, mayCreate: false });
      await expect(refused).rejects.toMatchObject({ params: [{ name: 'tls_client_certificate' }] });
      expect(w.store.items.size).toBe(0);
      // Removing the URL in the same request leaves nothing the certificate could be sent over in clear.
      await putEndpoint(w.deps, { ...own, webhookUrl: null, security: certificate, mayCreate: false });
      expect(w.directory.accounts.get(IBAN)?.security?.tlsClient).toBeDefined();
    });
  });

  it('refuses a certificate the sender could not use before sealing its key, and keeps what is stored', async () => {
    const w = world();
    const base = { orgId: 'org-1', iban: IBAN, webhookUrl: 'https://old.example.com/h', mayCreate: false };
    await putEndpoint(w.deps, { ...base, security: certificate });
    const stored = w.store.items.get(IBAN)?.secrets.tlsClient;
    const sealed = w.sealer.calls.sealed;
    // An RSA key of 1024 bits: refused by the rule, whatever this runtime's OpenSSL would allow.
    const weak = ca.issue('weak-client', { key: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] });
    const refused = putEndpoint(w.deps, {
      ...base,
      security: { tlsClientCertificate: weak.cert, tlsClientKey: weak.key },
    });
    await expect(refused).rejects.toMatchObject({
      params: [
        {
          name: 'tls_client_certificate',
          reason: expect.stringMatching(
            /has an RSA key of 1024 bits, which TLS cannot use; allowed: RSA keys/,
          ),
        },
      ],
    });
    // Whatever else the runtime's TLS refuses, as the sender would build it: the PKCS #8 key it opens.
    const seen: unknown[] = [];
    const refusing = {
      ...w.deps,
      checkTls: (tls: unknown) => {
        seen.push(tls);
        throw new ValidationError('tls_client_certificate', 'this runtime refuses it');
      },
    };
    const other = ca.issue('other-client');
    await expect(
      putEndpoint(refusing, {
        ...base,
        security: { tlsClientCertificate: other.cert, tlsClientKey: other.key },
      }),
    ).rejects.toThrow(/this runtime refuses it/);
    expect(seen).toEqual([{ cert: other.cert, key: expect.stringMatching(/^-----BEGIN PRIVATE KEY-----/) }]);
    await expect(putEndpoint(refusing, { ...base, security: { tlsCaCertificate: ca.cert } })).rejects.toThrow(
      /this runtime refuses it/,
    );
    expect(seen[1]).toEqual({ ca: ca.cert });
    expect(w.sealer.calls.sealed).toBe(sealed);
    expect(w.store.items.get(IBAN)?.secrets.tlsClient).toEqual(stored);
    expect(w.store.items.get(IBAN)?.secrets.tlsCa).toBeUndefined();
  });
});
