/**
 * The CLI's issue 18 commands against the local runtime: `account put` reads an endpoint's payload key,
 * client certificate and key and CA from files (`none` removes), `keys rotate` replaces the Ed25519 key
 * with an overlap, `signatures set` picks the schemes; bad input answers the API's problem, exit code 1.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliFixture, type CreatedOrg, failed, ok, startCliFixture } from '../support/cli-fixture';
import { createTestCa } from '../support/test-ca';
import { useFixture } from '../support/use-fixture';

let herald: CliFixture['herald'];
let org: CreatedOrg;
useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ herald, org } = fixture);
  },
);

const IBAN = 'NL91ABNA0417164300';
const dir = mkdtempSync(join(tmpdir(), 'herald-cli-files-'));
const ca = createTestCa();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  ca.remove();
});
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};

describe('endpoint security from files', () => {
  it('account put sends the files, shows identifiers only, and removes with none', async () => {
    const client = ca.issue('cli-client');
    const receiver = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const put = (...flags: string[]) =>
      herald([
        'account',
        'put',
        '--org',
        org.id,
        '--iban',
        IBAN,
        '--webhook-url',
        'https://127.0.0.1:9/h',
        ...flags,
      ]);
    const shown = ok(
      await put(
        '--payload-encryption-key',
        file('receiver.pub.json', JSON.stringify(receiver.publicKey.export({ format: 'jwk' }))),
        '--tls-client-certificate',
        file('client.pem', client.cert),
        '--tls-client-key',
        file('client.key', client.key),
        '--tls-ca-certificate',
        file('ca.pem', ca.cert),
      ),
    ) as Record<string, unknown>;
    expect(shown).toMatchObject({
      payload_encryption: { bits: 2048 },
      tls_client_certificate: { subject: 'CN=cli-client', issuer: 'CN=Herald Test CA' },
      tls_ca_certificate: { subject: 'CN=Herald Test CA' },
    });
    expect(JSON.stringify(shown)).not.toContain('PRIVATE KEY');
    // Without the flags the material stays; `none` removes it.
    expect(ok(await put())).toMatchObject({ payload_encryption: { bits: 2048 } });
    const removed = ok(
      await put(
        '--payload-encryption-key',
        'none',
        '--tls-client-certificate',
        'none',
        '--tls-client-key',
        'none',
      ),
    );
    expect(removed).toMatchObject({ payload_encryption: null, tls_client_certificate: null });
    // A key of another certificate: the API's 400, naming the field.
    const other = ca.issue('someone-else');
    const refused = failed(
      await put(
        '--tls-client-certificate',
        file('c2.pem', client.cert),
        '--tls-client-key',
        file('k2.key', other.key),
      ),
      1,
    );
    expect(JSON.stringify(refused)).toContain('tls_client_key');
  });

  it('keys rotate keeps the old key during the overlap; signatures set picks the schemes', async () => {
    const rotated = ok(await herald(['keys', 'rotate', '--org', org.id, '--overlap-hours', '2'])) as {
      public_key: string;
      expires_at?: string;
    }[];
    expect(rotated).toHaveLength(2);
    expect(rotated[0]?.public_key).toMatch(/^whpk_/);
    expect(rotated[1]?.expires_at).toBeDefined();
    expect(ok(await herald(['signatures', 'set', '--org', org.id, '--schemes', 'v1a']))).toEqual({
      signature_schemes: ['v1a'],
    });
    expect(
      JSON.stringify(failed(await herald(['signatures', 'set', '--org', org.id, '--schemes', 'v2']), 1)),
    ).toContain('signature_schemes');
  });
});
