/**
 * The keys an endpoint's certificates may have: those the sender's TLS can present or verify (RSA of
 * 2048 to 8192 bits, EC on P-256/P-384/P-521, Ed25519, Ed448), checked for every certificate of
 * `tls_client_certificate` and `tls_ca_certificate` when they are saved; each refusal names the field,
 * the certificate, its key and the rule. Certificates from a test CA made by openssl.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCaCertificate, checkClientCertificate } from '#domain/endpoint-security/client-certificate';
import { TLS_KEY_RULE } from '#domain/endpoint-security/tls-keys';
import { createTestCa } from '../support/test-ca';
import { invalidParams } from './catch-error';

const ca = createTestCa();
const weakCa = createTestCa('Weak CA', { key: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024'] });
afterAll(() => {
  ca.remove();
  weakCa.remove();
});
const rsa = (bits: number) => ['-algorithm', 'RSA', '-pkeyopt', `rsa_keygen_bits:${bits}`];
const dsa = generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 224 })
  .privateKey.export({ format: 'pem', type: 'pkcs8' })
  .toString();

describe('keys TLS can use', () => {
  it('state the rule once: RSA 2048 to 8192 bits, EC on P-256, P-384, P-521, Ed25519 or Ed448', () => {
    expect(TLS_KEY_RULE).toBe(
      'RSA keys of 2048 to 8192 bits, EC keys on P-256, P-384, P-521, or Ed25519 or Ed448 keys',
    );
  });

  it.each([
    ['EC P-256', undefined],
    ['EC P-384', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384']],
    ['RSA 2048', rsa(2048)],
    ['Ed25519', ['-algorithm', 'ED25519']],
  ])('take a client certificate with a key of %s', (_name, key) => {
    const issued = ca.issue('fine', key === undefined ? {} : { key });
    expect(checkClientCertificate(issued.cert, issued.key, Date.now()).summary.subject).toBe('CN=fine');
  });

  it.each([
    ['RSA 1024', rsa(1024), 'an RSA key of 1024 bits'],
    ['DSA 2048 (OpenSSL takes it, TLS 1.3 cannot sign with it)', dsa, 'a DSA key of 2048 bits'],
    [
      'EC secp256k1 (no TLS signature scheme)',
      ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:secp256k1'],
      'an EC key on secp256k1',
    ],
  ])('refuse a client certificate with a key of %s, naming it and the rule', (_name, key, has) => {
    const issued = ca.issue('weak', { key });
    expect(invalidParams(() => checkClientCertificate(issued.cert, issued.key, Date.now()))).toEqual([
      {
        name: 'tls_client_certificate',
        reason: `certificate 1 (CN=weak) has ${has}, which TLS cannot use; allowed: ${TLS_KEY_RULE}`,
      },
    ]);
  });

  it('check every certificate of the chain and of the CA field, not only the first', () => {
    const leaf = weakCa.issue('leaf-of-weak-ca');
    expect(
      invalidParams(() => checkClientCertificate(`${leaf.cert}${weakCa.cert}`, leaf.key, Date.now())),
    ).toEqual([
      {
        name: 'tls_client_certificate',
        reason: expect.stringMatching(/^certificate 2 \(CN=Weak CA\) has an RSA key of 1024 bits/),
      },
    ]);
    expect(invalidParams(() => checkCaCertificate(`${ca.cert}${weakCa.cert}`, Date.now()))).toEqual([
      {
        name: 'tls_ca_certificate',
        reason: expect.stringMatching(/^certificate 2 \(CN=Weak CA\) has an RSA key of 1024 bits/),
      },
    ]);
  });
});
