/**
 * An endpoint's TLS material as the sender's requests carry it, and the check, when an account is saved,
 * that this runtime's TLS can use it: both build the same options, so what the check accepts the sender
 * can use.
 */
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import type { ClientTls } from '#domain/endpoint-security/endpoint-security';
import type { TlsMaterialCheck } from '#domain/endpoint-security/ports';
import { TLS_KEY_RULE } from '#domain/endpoint-security/tls-keys';
import { ValidationError } from '#domain/errors';

/** The TLS options of a request that carries `tls`: client certificate chain and key, receiver CA. */
export function tlsContextOptions(tls: ClientTls): SecureContextOptions {
  const options: { cert?: string; key?: string; ca?: string } = {};
  if (tls.cert !== undefined) options.cert = tls.cert;
  if (tls.key !== undefined) options.key = tls.key;
  if (tls.ca !== undefined) options.ca = tls.ca;
  return options;
}

/**
 * Builds the secure context a request with this material would build (the client certificate with its
 * key, or the receiver CA), and refuses what this runtime's OpenSSL refuses: a key below its security
 * level, a certificate signed with a digest it no longer trusts (SHA-1, MD5), a chain it cannot load.
 */
export const checkTlsMaterial: TlsMaterialCheck = (tls) => {
  try {
    createSecureContext(tlsContextOptions(tls));
  } catch (error) {
    const field = tls.cert === undefined ? 'tls_ca_certificate' : 'tls_client_certificate';
    throw new ValidationError(field, refusal(error as NodeJS.ErrnoException & { reason?: string }));
  }
};

/** Why OpenSSL refused the material, in words, with its own reason and code (no secret in either). */
function refusal(error: NodeJS.ErrnoException & { reason?: string }): string {
  const runtime = `this runtime's TLS (OpenSSL ${process.versions.openssl})`;
  const said = `${error.reason ?? error.message} (${error.code ?? 'no code'})`;
  switch (error.code) {
    case 'ERR_SSL_EE_KEY_TOO_SMALL':
    case 'ERR_SSL_CA_KEY_TOO_SMALL':
      return `${runtime} refuses a key of this chain as too small: ${said}; allowed: ${TLS_KEY_RULE}`;
    case 'ERR_SSL_CA_MD_TOO_WEAK':
      return `${runtime} refuses a certificate of this chain for its signature's digest: ${said}; have it signed with SHA-256 or stronger`;
    default:
      return `${runtime} cannot use it: ${said}`;
  }
}
