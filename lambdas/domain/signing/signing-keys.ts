/**
 * The organization's Ed25519 signing keys, behind the Standard Webhooks asymmetric signature `v1a`:
 * receivers verify with a public key (`whpk_…`) and hold no secret. Like the HMAC token, a replaced key
 * keeps signing during an overlap, so a receiver that has not fetched the new public key yet still
 * verifies. The private key leaves this module only sealed ({@link SecretSealer}).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { hashId } from './webhook-token';

/** Prefix of a public key as Standard Webhooks writes it: `whpk_` + base64 of the raw 32 bytes. */
export const PUBLIC_KEY_PREFIX = 'whpk_';

/**
 * Prefix of a signing key's id: `whak_` (a webhook's asymmetric key, `v1a`), apart from a token's `whk_`
 * (`v1`, `X-Signature`), so an attempt's `signing_keys` says which kind of key each signature needs.
 */
export const SIGNING_KEY_ID_PREFIX = 'whak_';
/** The form of a signing key's id ({@link signingKeyId}). */
export const SIGNING_KEY_ID_PATTERN = /^whak_[0-9a-f]{16}$/;

const RAW_PUBLIC_KEY_BYTES = 32;

/** One of the organization's signing keys as stored: the public key in the clear, the private key sealed. */
export interface SigningKey {
  /** `whak_…` ({@link signingKeyId}), as attempts and views name it. */
  readonly id: string;
  /** `whpk_` + base64 of the raw Ed25519 public key. */
  readonly publicKey: string;
  /** The PKCS #8 private key, sealed with the context {@link signingKeyContext}. */
  readonly sealedPrivateKey: string;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
}

/** A replaced signing key during its overlap. */
export interface PreviousSigningKey extends SigningKey {
  /** ISO 8601 UTC; attempts sent from then on carry only the current key's `v1a` signature. */
  readonly expiresAt: string;
}

/** The organization's signing keys: none before its first key, the current one and, during an overlap, the previous. */
export interface SigningKeys {
  readonly signingKey?: SigningKey | undefined;
  readonly previousSigningKey?: PreviousSigningKey | undefined;
}

/** A private key opened for one batch of attempts, never stored or logged. */
export interface OpenedSigningKey {
  readonly id: string;
  readonly privateKey: KeyObject;
  /** Absent for the current key; the previous key signs only before this (ISO 8601 UTC). */
  readonly expiresAt?: string | undefined;
}

/** A new Ed25519 key pair: the public key as `whpk_…`, the private key as PKCS #8 DER to be sealed. */
export function generateSigningKeyPair(): { readonly publicKey: string; readonly privateKey: Uint8Array } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: encodePublicKey(publicKey),
    privateKey: new Uint8Array(privateKey.export({ format: 'der', type: 'pkcs8' })),
  };
}

/**
 * The non-secret id of a signing key: `whak_` + 16 hex of the SHA-256 of its `whpk_…` form. Keys made
 * before the prefix was their own were named `whk_` + the same 16 hex digits.
 */
export function signingKeyId(publicKey: string): string {
  return hashId(SIGNING_KEY_ID_PREFIX, publicKey);
}

/** `whpk_` + base64 of the raw 32-byte public key (the JWK's `x`, which is exactly those bytes). */
export function encodePublicKey(key: KeyObject): string {
  const { x } = key.export({ format: 'jwk' });
  return PUBLIC_KEY_PREFIX + Buffer.from(String(x), 'base64url').toString('base64');
}

/** The public key of a `whpk_…` string, as a receiver builds it. */
export function decodePublicKey(publicKey: string): KeyObject {
  const raw = Buffer.from(publicKey.slice(PUBLIC_KEY_PREFIX.length), 'base64');
  if (!publicKey.startsWith(PUBLIC_KEY_PREFIX) || raw.length !== RAW_PUBLIC_KEY_BYTES) {
    throw new RangeError(`a public key is ${PUBLIC_KEY_PREFIX} + base64 of ${RAW_PUBLIC_KEY_BYTES} bytes`);
  }
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  });
}

/** The private key of an opened (unsealed) PKCS #8 DER: a signing key, or an endpoint's TLS client key. */
export function privateKeyOf(pkcs8: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
}

/** The same key as PKCS #8 PEM, as a TLS connection takes it. */
export function privateKeyPemOf(pkcs8: Uint8Array): string {
  return privateKeyOf(pkcs8).export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** The keys as listed at `nowMs`: the current one and, while it still signs, the previous. */
export function signingKeysAt(keys: SigningKeys, nowMs: number): readonly SigningKey[] {
  const { signingKey, previousSigningKey } = keys;
  const previous =
    previousSigningKey && Date.parse(previousSigningKey.expiresAt) > nowMs ? [previousSigningKey] : [];
  return signingKey ? [signingKey, ...previous] : previous;
}

/** The opened keys that sign an attempt sent at `nowMs`, new first. */
export function keysSigningAt(keys: readonly OpenedSigningKey[], nowMs: number): readonly OpenedSigningKey[] {
  return keys.filter((key) => key.expiresAt === undefined || Date.parse(key.expiresAt) > nowMs);
}

/**
 * The Standard Webhooks asymmetric signature `v1a,<base64 Ed25519 signature of "<id>.<timestamp>.<body>">`,
 * an entry of `webhook-signature` beside the `v1,` ones.
 */
export function asymmetricSignature(
  key: KeyObject,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return `v1a,${sign(null, Buffer.from(`${id}.${timestampSeconds}.${body}`, 'utf8'), key).toString('base64')}`;
}
