/**
 * The check, when an account is saved, that this runtime's TLS can use an endpoint's material: it builds
 * the secure context a request would build (the sender's own options), so what the runtime's OpenSSL
 * refuses (here Node 24's, at security level 2: an RSA key of 1024 bits) is a 400 naming the field, the
 * OpenSSL version and its reason, instead of a failure at every attempt.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkTlsMaterial, tlsContextOptions } from '#adapters/http/client-tls';
import { invalidParams } from '../domain/catch-error';
import { createTestCa } from '../support/test-ca';

const ca = createTestCa();
afterAll(() => ca.remove());
const client = ca.issue('usable');
const other = ca.issue('other');
const weak = ca.issue('weak', { key: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] });

describe("the runtime's TLS check of an endpoint's material", () => {
  it('take a certificate and key, or a CA, that the sender can use', () => {
    expect(() => checkTlsMaterial({ cert: `${client.cert}${ca.cert}`, key: client.key })).not.toThrow();
    expect(() => checkTlsMaterial({ ca: ca.cert })).not.toThrow();
  });

  it('refuse a key the runtime finds too small, saying which OpenSSL and the rule', () => {
    expect(invalidParams(() => checkTlsMaterial({ cert: weak.cert, key: weak.key }))).toEqual([
      {
        name: 'tls_client_certificate',
        reason: expect.stringMatching(
          new RegExp(
            `^this runtime's TLS \\(OpenSSL ${process.versions.openssl.replaceAll('.', '\\.')}\\) refuses a key of this chain as too small: ee key too small \\(ERR_SSL_EE_KEY_TOO_SMALL\\); allowed: RSA keys of 2048`,
          ),
        ),
      },
    ]);
  });

  it('refuse anything else it cannot load, with its own reason and no key material', () => {
    const params = invalidParams(() => checkTlsMaterial({ cert: client.cert, key: other.key }));
    expect(params).toEqual([
      { name: 'tls_client_certificate', reason: expect.stringMatching(/cannot use it: .*mismatch/) },
    ]);
    expect(JSON.stringify(params)).not.toContain('PRIVATE KEY');
  });

  it('give the sender the same options it checks, and none it was not given', () => {
    expect(tlsContextOptions({ cert: client.cert, key: client.key })).toEqual({
      cert: client.cert,
      key: client.key,
    });
    expect(tlsContextOptions({ ca: ca.cert })).toEqual({ ca: ca.cert });
  });
});
