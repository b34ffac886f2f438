/**
 * An endpoint's mutual-TLS material, checked before anything is stored: a chain whose leaf matches the
 * key and is valid now, and CA certificates; each refusal names its field. Certificates from a test CA
 * made by openssl.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  MAX_CERTIFICATE_NAME_LENGTH,
  MAX_CERTIFICATE_PEM_LENGTH,
  MAX_PRIVATE_KEY_PEM_LENGTH,
} from '#config/limits';
import {
  checkCaCertificate,
  checkClientCertificate,
  daysLeft,
} from '#domain/endpoint-security/client-certificate';
import { pemBlocks } from '#domain/endpoint-security/pem';
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

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/**
 * Runs `fn` and counts the characters `String.prototype.indexOf` looked at meanwhile (from where each
 * search began to where it matched, or to the end): the PEM scanner's whole work.
 */
function charactersSearched(fn: () => unknown): number {
  const indexOf = String.prototype.indexOf;
  let searched = 0;
  const spy = vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (
    this: string,
    search: string,
    position?: number,
  ) {
    const from = Math.max(0, Math.min(position ?? 0, this.length));
    const found = indexOf.call(this, search, from);
    searched += (found < 0 ? this.length : found + search.length) - from;
    return found;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return searched;
}

describe('PEM fields are bounded before they are parsed', () => {
  it('refuse a ~1 MB field of BEGIN markers by its length, naming the limit, without scanning it', () => {
    const flood = BEGIN.repeat(40_000);
    expect(flood.length).toBeGreaterThan(1_000_000);
    const limit = `must have at most ${MAX_CERTIFICATE_PEM_LENGTH} characters (PEM); this one has ${flood.length}`;
    let params: unknown;
    expect(charactersSearched(() => (params = invalidParams(() => checkCaCertificate(flood, now))))).toBe(0);
    expect(params).toEqual([{ name: 'tls_ca_certificate', reason: limit }]);
    expect(invalidParams(() => checkClientCertificate(flood, client.key, now))).toEqual([
      { name: 'tls_client_certificate', reason: limit },
    ]);
    const longKey = `${client.key}${' '.repeat(MAX_PRIVATE_KEY_PEM_LENGTH)}`;
    expect(invalidParams(() => checkClientCertificate(client.cert, longKey, now))).toEqual([
      {
        name: 'tls_client_key',
        reason: `must have at most ${MAX_PRIVATE_KEY_PEM_LENGTH} characters (PEM); this one has ${longKey.length}`,
      },
    ]);
  });

  it('take a field of exactly the limit', () => {
    const padded = `${client.cert}${' '.repeat(MAX_CERTIFICATE_PEM_LENGTH - client.cert.length)}`;
    expect(padded).toHaveLength(MAX_CERTIFICATE_PEM_LENGTH);
    expect(checkClientCertificate(padded, client.key, now).summary.subject).toBe('CN=acme-client');
  });

  it.each([
    ['BEGIN markers without an END', BEGIN.repeat(40_000)],
    ['BEGIN markers, then one END', `${BEGIN.repeat(40_000)}${END}`],
    ['BEGIN-END pairs', `${BEGIN}AAAA${END}\n`.repeat(20_000)],
    ['BEGIN markers and a half END each', `${BEGIN}${END.slice(0, 12)}`.repeat(30_000)],
  ])('find PEM blocks in one linear pass: %s', (_name, text) => {
    // The scan looks at each character about once: at most twice the text, whatever it holds.
    const searched = charactersSearched(() => pemBlocks(text, 'CERTIFICATE'));
    expect(searched).toBeGreaterThanOrEqual(text.length - END.length);
    expect(searched).toBeLessThanOrEqual(2 * text.length);
  });

  it('find the same blocks a chain holds, each whole, and none in text without an END', () => {
    const chain = `junk\n${client.cert}between\n${ca.cert}`;
    expect(pemBlocks(chain, 'CERTIFICATE')).toEqual([client.cert.trim(), ca.cert.trim()]);
    expect(pemBlocks(`${BEGIN}${BEGIN}AAAA${END}`, 'CERTIFICATE')).toEqual([`${BEGIN}${BEGIN}AAAA${END}`]);
    expect(pemBlocks(BEGIN.repeat(3), 'CERTIFICATE')).toEqual([]);
  });

  it('cut a subject and issuer longer than the bound before they are copied into the summary', () => {
    const dn = Array.from(
      { length: 12 },
      (_, i) => `/OU=${String(i).padStart(2, '0')}${'o'.repeat(60)}`,
    ).join('');
    const longCa = createTestCa('', { dn: `${dn}/CN=Long CA` });
    try {
      const leaf = longCa.issue('', { dn: `${dn}/CN=long-client` });
      const later = Date.now();
      const { summary } = checkClientCertificate(leaf.cert, leaf.key, later);
      for (const name of [summary.subject, summary.issuer]) {
        expect(name).toHaveLength(MAX_CERTIFICATE_NAME_LENGTH);
        expect(name).toMatch(/^OU=00o+, OU=01o+, .*…$/);
      }
      const { subject } = checkCaCertificate(longCa.cert, later);
      expect(subject).toHaveLength(MAX_CERTIFICATE_NAME_LENGTH);
    } finally {
      longCa.remove();
    }
  });
});
