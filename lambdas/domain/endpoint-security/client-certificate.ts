/**
 * An endpoint's mutual-TLS material: the client certificate chain and its private key (the key sealed at
 * rest), and a CA to trust for the receiver. Checked when given: PEM of a bounded length that parses,
 * keys TLS can use (`tls-keys.ts`), a key that matches the leaf certificate, nothing expired; each refusal names its
 * field and what it allows.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import {
  MAX_CERTIFICATE_NAME_LENGTH,
  MAX_CERTIFICATE_PEM_LENGTH,
  MAX_PRIVATE_KEY_PEM_LENGTH,
} from '#config/limits';
import { ValidationError } from '#domain/errors';
import { truncateText } from '#domain/truncate';
import type { CertificateSummary } from './endpoint-security';
import { pemBlocks, requireAtMost } from './pem';
import { checkTlsKeys } from './tls-keys';

/**
 * How long before a client certificate expires its metric and alarm speak up, and its endpoint's
 * organization is told (`client_certificate_expiring`).
 */
export const CERTIFICATE_WARNING_DAYS = 14;

/**
 * The certificates of a PEM text, leaf first.
 *
 * @throws ValidationError naming `field` when the text is longer than {@link MAX_CERTIFICATE_PEM_LENGTH}
 *   (checked before it is parsed), holds no certificate, or one does not parse
 */
export function parseCertificates(field: string, pem: string): X509Certificate[] {
  requireAtMost(field, pem, MAX_CERTIFICATE_PEM_LENGTH, 'PEM');
  const blocks = pemBlocks(pem, 'CERTIFICATE');
  if (blocks.length === 0) {
    throw new ValidationError(
      field,
      'must be PEM: one or more -----BEGIN CERTIFICATE----- blocks, leaf first',
    );
  }
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw new ValidationError(field, 'holds a certificate block that is not a valid X.509 certificate');
    }
  });
}

/**
 * The non-secret description of a certificate: what the account views show. Subject and issuer are cut
 * to {@link MAX_CERTIFICATE_NAME_LENGTH} characters: they ride on the account item, read with every batch.
 */
export function summarize(certificate: X509Certificate): CertificateSummary {
  const name = (dn: string) => truncateText(dn.replaceAll('\n', ', '), MAX_CERTIFICATE_NAME_LENGTH);
  return {
    subject: name(certificate.subject),
    issuer: name(certificate.issuer),
    expiresAt: new Date(certificate.validTo).toISOString(),
  };
}

/**
 * Checks a client certificate chain and key, and summarises the leaf.
 *
 * @throws ValidationError naming `tls_client_certificate` (too long, unparsable, expired or not yet
 *   valid, a key TLS cannot use) or `tls_client_key` (too long, not a PEM private key, or not the
 *   certificate's key)
 */
export function checkClientCertificate(
  chainPem: string,
  keyPem: string,
  nowMs: number,
): { readonly summary: CertificateSummary; readonly key: KeyObject } {
  const chain = parseCertificates('tls_client_certificate', chainPem);
  const [leaf] = chain;
  if (!leaf) throw new ValidationError('tls_client_certificate', 'is empty');
  checkValidity('tls_client_certificate', leaf, nowMs);
  checkTlsKeys('tls_client_certificate', chain);
  requireAtMost('tls_client_key', keyPem, MAX_PRIVATE_KEY_PEM_LENGTH, 'PEM');
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: keyPem, format: 'pem' });
  } catch {
    throw new ValidationError(
      'tls_client_key',
      'must be an unencrypted PEM private key (PKCS #8, PKCS #1 or SEC 1)',
    );
  }
  if (!leaf.checkPrivateKey(key)) {
    throw new ValidationError(
      'tls_client_key',
      'does not match tls_client_certificate (the first certificate)',
    );
  }
  return { summary: summarize(leaf), key };
}

/**
 * Checks a CA certificate (or several) to trust for the receiver, and summarises the first.
 *
 * @throws ValidationError naming `tls_ca_certificate`
 */
export function checkCaCertificate(pem: string, nowMs: number): CertificateSummary {
  const certificates = parseCertificates('tls_ca_certificate', pem);
  checkTlsKeys('tls_ca_certificate', certificates);
  for (const certificate of certificates) {
    checkValidity('tls_ca_certificate', certificate, nowMs);
    if (!certificate.ca)
      throw new ValidationError('tls_ca_certificate', 'must be CA certificates (basicConstraints CA:TRUE)');
  }
  return summarize(certificates[0] as X509Certificate);
}

/** Days from `nowMs` until the certificate expires (negative once expired). */
export function daysLeft(expiresAt: string, nowMs: number): number {
  return Math.floor((Date.parse(expiresAt) - nowMs) / 86_400_000);
}

function checkValidity(field: string, certificate: X509Certificate, nowMs: number): void {
  if (Date.parse(certificate.validTo) <= nowMs) {
    throw new ValidationError(
      field,
      `expired on ${new Date(certificate.validTo).toISOString()}; send a valid certificate`,
    );
  }
  if (Date.parse(certificate.validFrom) > nowMs) {
    throw new ValidationError(field, `is valid only from ${new Date(certificate.validFrom).toISOString()}`);
  }
}
