/**
 * An endpoint's material against DynamoDB Local: stored in its own `ENDPOINT#` item with the summary on
 * the account item (what the account views read back), kept per field, removed with null, bound to the
 * organization of the IBAN (another organization can neither overwrite nor remove it), deleted with the
 * account; signing keys on the organization item come back as stored, the private key sealed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { DynamoEndpointSecretStore } from '#adapters/dynamodb/endpoint-secret-store';
import { TenantSeeder } from '#local/tenant-seed';
import { prepareEndpointSecurity, saveEndpointSecurity } from '#use-cases/accounts/endpoint-security';
import { rotateSigningKey } from '#use-cases/organizations/signing-keys';
import { FakeSecretSealer } from '../support/fakes/secret-sealer';
import { type IsolatedResources, isolatedResources } from '../support/resources';
import { createTestCa } from '../support/test-ca';

const IBAN = 'DE89370400440532013000';
const ca = createTestCa();
const client = ca.issue('store-client');
const receiver = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ format: 'pem', type: 'spki' })
  .toString();
const sealer = new FakeSecretSealer();
let resources: IsolatedResources;
let directory: DynamoDirectoryStore;
let store: DynamoEndpointSecretStore;
let orgA: string;
let orgB: string;

beforeAll(async () => {
  resources = await isolatedResources({ label: 'endpoint-secrets' });
  directory = new DynamoDirectoryStore(resources.documents, resources.tableName);
  store = new DynamoEndpointSecretStore(resources.documents, resources.tableName);
  const seeder = new TenantSeeder(resources.documents, resources.tableName);
  orgA = (await seeder.tenant('A', [{ iban: IBAN, webhookUrl: 'http://127.0.0.1:9/a' }])).orgId;
  orgB = (await seeder.tenant('B')).orgId;
});
afterAll(async () => {
  await resources?.destroy();
  ca.remove();
});

const context = (orgId: string) => ({ orgId, iban: IBAN, nowMs: Date.now(), sealer });
const account = async () => {
  const found = await directory.getAccount(IBAN, { consistent: true });
  if (!found) throw new Error('no account');
  return found;
};

describe('endpoint material in DynamoDB', () => {
  it('stores the material apart, the summary on the account, and keeps fields a change leaves out', async () => {
    const change = {
      payloadEncryptionKey: receiver,
      tlsClientCertificate: client.cert,
      tlsClientKey: client.key,
    };
    await saveEndpointSecurity(store, await account(), await prepareEndpointSecurity(change, context(orgA)));
    expect((await account()).security).toMatchObject({
      payloadEncryption: { bits: 2048 },
      tlsClient: { subject: 'CN=store-client' },
    });
    const item = await resources.documents.send(
      new GetCommand({ TableName: resources.tableName, Key: { pk: `ACCOUNT#${IBAN}`, sk: 'ACCOUNT' } }),
    );
    expect(JSON.stringify(item.Item)).not.toContain('PRIVATE');
    expect(JSON.stringify(item.Item)).not.toContain('BEGIN');
    const caOnly = await prepareEndpointSecurity({ tlsCaCertificate: ca.cert }, context(orgA));
    await saveEndpointSecurity(store, await account(), caOnly);
    const secrets = await store.getSecrets({ iban: IBAN, orgId: orgA }, { consistent: true });
    expect(secrets?.tlsClient?.sealedKey).toMatch(new RegExp(`^fake\\.tls-client-key\\.${orgA}/${IBAN}\\.`));
    expect(secrets).toMatchObject({ tlsCa: ca.cert, payloadEncryptionKey: { kty: 'RSA' } });
    const removed = await prepareEndpointSecurity({ payloadEncryptionKey: null }, context(orgA));
    await saveEndpointSecurity(store, await account(), removed);
    expect(
      (await store.getSecrets({ iban: IBAN, orgId: orgA }, { consistent: true }))?.payloadEncryptionKey,
    ).toBeUndefined();
    expect((await account()).security?.payloadEncryption).toBeUndefined();
  });

  it('refuses a save based on a version another save replaced, so no change is lost', async () => {
    const before = await store.readForUpdate({ iban: IBAN, orgId: orgA });
    const save = { summary: before.summary ?? {}, secrets: before.secrets ?? {}, version: before.version };
    expect(await store.saveSecurity({ iban: IBAN, orgId: orgA }, save)).toBe('saved');
    expect(await store.saveSecurity({ iban: IBAN, orgId: orgA }, save)).toBe('conflict');
    // Two requests changing different fields at once: both changes stay, and the summary names both.
    const ca2 = createTestCa();
    const [one, two] = await Promise.all([
      prepareEndpointSecurity({ tlsCaCertificate: ca2.cert }, context(orgA)),
      prepareEndpointSecurity({ payloadEncryptionKey: receiver }, context(orgA)),
    ]);
    const start = await account();
    await Promise.all([saveEndpointSecurity(store, start, one), saveEndpointSecurity(store, start, two)]);
    const secrets = await store.getSecrets({ iban: IBAN, orgId: orgA }, { consistent: true });
    expect(secrets?.tlsCa).toBe(ca2.cert);
    expect(secrets?.payloadEncryptionKey).toEqual(two.payload?.jwk);
    expect(secrets?.tlsClient).toBeDefined();
    const summary = (await account()).security;
    expect(summary?.tlsCa).toEqual(one.tlsCa?.summary);
    expect(summary?.payloadEncryption).toEqual(two.payload?.summary);
    expect(summary?.tlsClient).toBeDefined();
    ca2.remove();
  });

  it("binds the material to the IBAN's organization, and deletes it with the account", async () => {
    expect(
      await store.saveSecurity({ iban: IBAN, orgId: orgB }, { summary: {}, secrets: {}, version: 0 }),
    ).toBe('not-found');
    await store.removeSecrets(IBAN, orgB);
    expect((await store.getSecrets({ iban: IBAN, orgId: orgA }))?.tlsClient).toBeDefined();
    // Another organization never reads it as its own.
    expect(await store.getSecrets({ iban: IBAN, orgId: orgB }, { consistent: true })).toBeUndefined();
    expect(await store.readForUpdate({ iban: IBAN, orgId: orgB })).toEqual({ version: 0 });
    await store.removeSecrets(IBAN, orgA);
    expect(await store.getSecrets({ iban: IBAN, orgId: orgA }, { consistent: true })).toBeUndefined();
  });

  it('keeps the signing keys on the organization item, the private key only sealed', async () => {
    const [key] = await rotateSigningKey({ directory, sealer }, orgA, 0);
    const org = await directory.getOrganization(orgA, { consistent: true });
    expect(org?.signingKey).toEqual(key);
    expect(org?.signingKey?.sealedPrivateKey).toMatch(new RegExp(`^fake\\.signing-key\\.${orgA}\\.`));
  });
});
