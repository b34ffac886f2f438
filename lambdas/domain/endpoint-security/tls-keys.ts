/**
 * Which keys the certificates of an endpoint may have: those the sender's TLS can present or verify, so
 * a certificate it could not use is refused when it is saved rather than failing every attempt.
 */
import type { X509Certificate } from 'node:crypto';
import { ValidationError } from '#domain/errors';
import { truncateText } from '#domain/truncate';
import { MAX_RSA_BITS, MIN_RSA_BITS } from './payload-key';

/** The elliptic curves TLS 1.2 and 1.3 sign with (RFC 8446 `ecdsa_secp256r1_sha256` …), by OpenSSL's name. */
const TLS_CURVES: Readonly<Record<string, string>> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
};

/**
 * The keys a certificate of an endpoint may have: what OpenSSL accepts at security level 2 (the default
 * of the OpenSSL in Node 24, the functions' runtime: 112-bit security, so RSA of at least 2048 bits) and
 * what a TLS handshake can sign or verify with (no DSA, no curve TLS has no signature scheme for). The
 * cap on RSA bounds what one handshake costs.
 */
export const TLS_KEY_RULE = `RSA keys of ${MIN_RSA_BITS} to ${MAX_RSA_BITS} bits, EC keys on ${Object.values(TLS_CURVES).join(', ')}, or Ed25519 or Ed448 keys`;

/**
 * Refuses a certificate whose key TLS cannot use ({@link TLS_KEY_RULE}). Every certificate of the field
 * is checked: OpenSSL refuses a weak key anywhere in a chain it presents or verifies.
 *
 * @throws ValidationError naming `field`, the certificate, its key and the rule
 */
export function checkTlsKeys(field: string, certificates: readonly X509Certificate[]): void {
  certificates.forEach((certificate, index) => {
    const key = certificate.publicKey;
    const type = key.asymmetricKeyType ?? 'unknown';
    const details = key.asymmetricKeyDetails ?? {};
    const bits = details.modulusLength ?? 0;
    const rsa = type === 'rsa' || type === 'rsa-pss';
    const usable = rsa
      ? bits >= MIN_RSA_BITS && bits <= MAX_RSA_BITS
      : type === 'ec'
        ? details.namedCurve !== undefined && details.namedCurve in TLS_CURVES
        : type === 'ed25519' || type === 'ed448';
    if (usable) return;
    const has =
      rsa || type === 'dsa'
        ? `${rsa ? 'an' : 'a'} ${type.toUpperCase()} key of ${bits} bits`
        : type === 'ec'
          ? `an EC key on ${details.namedCurve ?? 'an unnamed curve'}`
          : `a key of type ${type}`;
    const name = truncateText(certificate.subject.replaceAll('\n', ', '), 64);
    throw new ValidationError(
      field,
      `certificate ${index + 1} (${name}) has ${has}, which TLS cannot use; allowed: ${TLS_KEY_RULE}`,
    );
  });
}
