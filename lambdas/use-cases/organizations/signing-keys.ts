/**
 * The organization's Ed25519 signing keys (`v1a`): made, rotated with an overlap as the HMAC token is,
 * listed by their public halves, and which signature schemes its webhooks carry.
 */
import { UnprocessableError } from '#domain/errors';
import type { Organization, SignatureScheme } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import { type SecretSealer, signingKeyContext } from '#domain/signing/secret-sealer';
import {
  generateSigningKeyPair,
  type SigningKey,
  signingKeyId,
  signingKeysAt,
} from '#domain/signing/signing-keys';
import { requireOrganization } from './require-organization';

/** What rotating a key needs. */
export interface SigningKeyDeps {
  readonly directory: Pick<DirectoryStore, 'getOrganization' | 'setSigningKey'>;
  readonly sealer: SecretSealer;
}

/** A new key pair for `orgId`, its private half sealed for that organization only. */
export async function newSigningKey(sealer: SecretSealer, orgId: string, nowMs: number): Promise<SigningKey> {
  const pair = generateSigningKeyPair();
  const sealedPrivateKey = await sealer.seal(pair.privateKey, signingKeyContext(orgId));
  pair.privateKey.fill(0);
  return {
    id: signingKeyId(pair.publicKey),
    publicKey: pair.publicKey,
    sealedPrivateKey,
    createdAt: new Date(nowMs).toISOString(),
  };
}

/**
 * Replaces the organization's signing key (or gives it its first). For `overlapHours` (0 to
 * `MAX_OVERLAP_HOURS`, checked by the request parser) both keys sign; a key replaced earlier is dropped.
 *
 * @returns the keys that sign now, new first
 */
export async function rotateSigningKey(
  deps: SigningKeyDeps,
  orgId: string,
  overlapHours: number,
  nowMs: number = Date.now(),
): Promise<readonly SigningKey[]> {
  const org = await requireOrganization(deps.directory, orgId);
  const key = await newSigningKey(deps.sealer, orgId, nowMs);
  const previous =
    org.signingKey && overlapHours > 0
      ? { ...org.signingKey, expiresAt: new Date(nowMs + overlapHours * 3_600_000).toISOString() }
      : undefined;
  await deps.directory.setSigningKey(orgId, key, previous);
  return signingKeysAt({ signingKey: key, previousSigningKey: previous }, nowMs);
}

/** The organization's public keys that sign at `nowMs`, new first (the previous one with its expiry). */
export async function listSigningKeys(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  orgId: string,
  nowMs: number = Date.now(),
): Promise<readonly SigningKey[]> {
  return signingKeysAt(await requireOrganization(directory, orgId), nowMs);
}

/**
 * Sets which schemes the organization's webhooks carry (at least one, checked by the parser). `v1a`
 * alone needs a signing key: without one, a webhook would have no signature a receiver could check.
 *
 * @throws UnprocessableError naming `signature_schemes` when `v1a` alone is asked for without a key
 */
export async function setSignatureSchemes(
  directory: Pick<DirectoryStore, 'getOrganization' | 'setSignatureSchemes'>,
  orgId: string,
  schemes: readonly SignatureScheme[],
): Promise<Organization> {
  const org = await requireOrganization(directory, orgId);
  if (!schemes.includes('v1') && !org.signingKey) {
    throw new UnprocessableError(
      'signature_schemes',
      'the organization has no signing key yet: rotate its webhook keys first, or keep v1',
    );
  }
  await directory.setSignatureSchemes(orgId, schemes);
  return { ...org, signatureSchemes: schemes };
}
