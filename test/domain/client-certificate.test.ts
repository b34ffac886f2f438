/**
 * An endpoint's mutual-TLS material, checked before anything is stored: a chain whose leaf matches the
 * key and is valid now, and CA certificates; each refusal names its field. Certificates from a test CA
 * made by openssl.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkCaCertificate,
  checkClientCertificate,
  daysLeft,
} from '#domain/endpoint-security/client-certificate';
import { createTestCa } from '../support/test-ca';
import { invalidParams } from './catch-error';

const ca = createTestCa();
afterAll(() => ca.remove());
const client = ca.issue('acme-client');
const other = ca.issue('someone-else');
const now = Date.now();

describe('client certificates', () => {
  it('summarise the leaf (subject, issuer, expiry) of a chain whose key matches', () => {
    const { summary } = checkClientCertificate(`${client.cert}${ca.cert}`, client.key, now);
    expect(summary).toMatchObject({ subject: 'CN=acme-client', issuer: 'CN=Herald Test CA' });
    expect(daysLeft(summary.expiresAt, now)).toBe(0);
    expect(checkCaCertificate(ca.cert, now)).toMatchObject({ subject: 'CN=Herald Test CA' });
  });

  it('refuse a key of another certificate, an expired one, bad PEM, and a CA that is not one', () => {
    expect(invalidParams(() => checkClientCertificate(client.cert, other.key, now))).toEqual([
      { name: 'tls_client_key', reason: expect.stringContaining('does not match') },
    ]);
    expect(
      invalidParams(() => checkClientCertificate(client.cert, client.key, now + 3 * 86_400_000)),
    ).toEqual([{ name: 'tls_client_certificate', reason: expect.stringContaining('expired on') }]);
    expect(
      invalidParams(() =>
        checkClientCertificate(
          '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
          client.key,
          now,
        ),
      ),
    ).toEqual([{ name: 'tls_client_certificate', reason: expect.stringContaining('not a valid X.509') }]);
    expect(invalidParams(() => checkClientCertificate('hello', client.key, now))).toEqual([
      { name: 'tls_client_certificate', reason: expect.stringContaining('must be PEM') },
    ]);
    expect(invalidParams(() => checkClientCertificate(client.cert, 'not a key', now))).toEqual([
      { name: 'tls_client_key', reason: expect.stringContaining('PEM private key') },
    ]);
    expect(invalidParams(() => checkCaCertificate(client.cert, now))).toEqual([
      { name: 'tls_ca_certificate', reason: expect.stringContaining('CA:TRUE') },
    ]);
  });
});
