/**
 * How signing ids are stored and read back: an attempt's token ids without their `whk_` prefix and its
 * Ed25519 key ids (`whak_…`) whole, so each kind reads back as itself; attempts and keys stored before the
 * keys' ids had a prefix of their own read back as sensibly as the stored data allows.
 */
import { describe, expect, it } from 'vitest';
import { attemptItem, toAttempts } from '#adapters/dynamodb/events/event-items';
import { signingKeyItem, toOrganization } from '#adapters/dynamodb/items';
import type { DeliveryAttempt } from '#domain/model';
import { generateSigningKeyPair, signingKeyId } from '#domain/signing/signing-keys';

const TOKEN = 'whk_0123456789abcdef';
const attempt = (signingKeys: readonly string[]): DeliveryAttempt => ({
  deliveredAt: '2026-11-24T10:00:00.000Z',
  responseStatus: 204,
  responseBody: '',
  responseTimeMs: 12,
  url: 'https://hooks.example.com/herald',
  signingKeys,
});

describe('an attempt’s signing ids', () => {
  it('keep their kind: a token’s whk_, a key’s whak_', () => {
    const key = signingKeyId(generateSigningKeyPair().publicKey);
    const item = attemptItem(attempt([TOKEN, key]));
    expect(item.keys).toEqual(['0123456789abcdef', key]);
    expect(toAttempts([item])[0]?.signingKeys).toEqual([TOKEN, key]);
  });

  it('read a bare id, as every id was stored before keys had their own prefix, as a token’s', () => {
    const stored = {
      at: '2026-11-24T10:00:00.000Z',
      status: 204,
      body: '',
      ms: 1,
      keys: ['0123456789abcdef'],
    };
    expect(toAttempts([stored])[0]?.signingKeys).toEqual([TOKEN]);
  });
});

describe('an organization’s signing key', () => {
  it('shows the whak_ id of its public key, also when stored with the earlier whk_ id', () => {
    const { publicKey } = generateSigningKeyPair();
    const key = {
      id: signingKeyId(publicKey),
      publicKey,
      sealedPrivateKey: 'sealed',
      createdAt: '2026-11-24T10:00:00.000Z',
    };
    const earlier = { ...signingKeyItem(key), id: `whk_${key.id.slice('whak_'.length)}` };
    const org = toOrganization({
      org_id: 'org-1',
      name: 'Acme',
      webhook_token: 'whsec_x',
      created_at: '2026-11-24T10:00:00.000Z',
      signing_key: earlier,
      previous_signing_key: { ...earlier, expires_at: '2026-11-25T10:00:00.000Z' },
    });
    expect(org.signingKey).toEqual(key);
    expect(org.previousSigningKey?.id).toBe(key.id);
    expect(signingKeyItem(key).id).toBe(key.id);
  });
});
