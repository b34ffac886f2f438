/**
 * Putting an account's URL with its endpoint security (issue 18 review): ownership is checked before any
 * KMS work, the security is written before the URL (a new URL never gets plain JSON or no certificate
 * that the same request asked for), and a client certificate on an `http:` URL is refused.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { putEndpoint } from '#use-cases/accounts/put-endpoint';
import { InMemoryDirectoryStore } from '../support/fakes/directory-store';
import { FakeEndpointSecretStore } from '../support/fakes/endpoint-secret-store';
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
  const deps = { directory, endpointSecrets: store, sealer, policy: 'allow-http' as const, now: Date.now };
  return { directory, store, sealer, deps };
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
    expect(account.endpointSecurity?.payloadEncryption?.bits).toBe(2048);
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
});
