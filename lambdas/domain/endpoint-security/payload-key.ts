/**
 * The receiver's payload encryption key: an RSA public key of at least 2048 bits with the public
 * exponent 65537, given as PEM or as a JWK, kept as a JWK with its public members only.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { MAX_PUBLIC_KEY_LENGTH } from '#config/limits';
import { ValidationError } from '#domain/errors';
import type { PayloadKeySummary, RsaPublicJwk } from './endpoint-security';
import { requireAtMost } from './pem';

/** The smallest modulus accepted: NIST's floor for RSA through 2030. */
export const MIN_RSA_BITS = 2048;
/** The largest: longer keys only slow every attempt down. */
export const MAX_RSA_BITS = 8192;

/**
 * The only public exponent accepted (F4, JWK `e` = `AQAB`): what every RSA key generator makes. An
 * exponent of 1 encrypts nothing (m¹ mod n = m: the padded content key is readable by anyone), and
 * Herald does not judge other exponents, so one safe value is the rule.
 */
export const RSA_PUBLIC_EXPONENT = 65537n;

const FIELD = 'payload_encryption_key';
const REASON = `must be an RSA public key of ${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits with public exponent ${RSA_PUBLIC_EXPONENT}, as PEM (-----BEGIN PUBLIC KEY-----) or a JWK object`;

/**
 * The key and its summary.
 *
 * @throws ValidationError naming `payload_encryption_key` for anything but an RSA public key in range
 *   (a private key is refused too: it must never be sent to Herald), or for a PEM text or JWK (as JSON)
 *   longer than {@link MAX_PUBLIC_KEY_LENGTH}, before it is parsed
 */
export function parsePayloadKey(value: string | Record<string, unknown>): {
  readonly jwk: RsaPublicJwk;
  readonly summary: PayloadKeySummary;
} {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  requireAtMost(FIELD, text, MAX_PUBLIC_KEY_LENGTH, typeof value === 'string' ? 'PEM' : 'JWK as JSON');
  let key: KeyObject;
  try {
    if (typeof value === 'string') {
      if (/PRIVATE KEY/.test(value)) throw new ValidationError(FIELD, `${REASON}; never send a private key`);
      key = createPublicKey({ key: value, format: 'pem' });
    } else {
      if ('d' in value) throw new ValidationError(FIELD, `${REASON}; never send a private key`);
      key = createPublicKey({ key: value as never, format: 'jwk' });
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    throw new ValidationError(FIELD, REASON);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS || bits > MAX_RSA_BITS) {
    throw new ValidationError(FIELD, `${REASON}; this one is ${key.asymmetricKeyType} of ${bits} bits`);
  }
  const exponent = key.asymmetricKeyDetails?.publicExponent;
  if (exponent !== RSA_PUBLIC_EXPONENT) {
    throw new ValidationError(FIELD, `${REASON}; this one has public exponent ${exponent}`);
  }
  const exported = key.export({ format: 'jwk' });
  const jwk: RsaPublicJwk = { kty: 'RSA', n: String(exported.n), e: String(exported.e) };
  return { jwk, summary: { keyId: thumbprint(jwk), bits } };
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, base64url. */
export function thumbprint(jwk: RsaPublicJwk): string {
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(canonical, 'utf8').digest('base64url');
}
