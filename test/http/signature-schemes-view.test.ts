import { describe, expect, it } from 'vitest';
import { SIGNATURE_SCHEMES } from '#domain/model';
import type { SigningKey } from '#domain/signing/signing-keys';
import { toSignatureSchemesView } from '#http/organizations/webhook-key-view';

const KEY: SigningKey = {
  id: 'whk_1',
  publicKey: 'whpk_x',
  sealedPrivateKey: 'sealed',
  createdAt: '2026-11-01T00:00:00.000Z',
};

describe('the signature schemes view', () => {
  it('shows every scheme by default once the organization has a key', () => {
    expect(toSignatureSchemesView({ signingKey: KEY }).signature_schemes).toEqual(SIGNATURE_SCHEMES);
    expect(toSignatureSchemesView({ signingKey: KEY, signatureSchemes: ['v1a'] }).signature_schemes).toEqual([
      'v1a',
    ]);
  });

  it('never reports v1a for an organization without a key: its webhooks carry the HMAC only', () => {
    expect(toSignatureSchemesView({}).signature_schemes).toEqual(['v1']);
    expect(toSignatureSchemesView({ signatureSchemes: ['v1', 'v1a'] }).signature_schemes).toEqual(['v1']);
  });
});
