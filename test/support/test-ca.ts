/**
 * A throwaway certificate authority made by the `openssl` CLI in a private temporary directory: a CA,
 * a server certificate for 127.0.0.1 and client certificates it signs (EC P-256 unless asked otherwise,
 * quick to make). For mutual-TLS tests; nothing is kept.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate and its private key, PEM. */
export interface Issued {
  readonly cert: string;
  readonly key: string;
}

/** How a certificate is made beyond its name. */
export interface IssueOptions {
  /** Adds the 127.0.0.1 address and `serverAuth`. */
  readonly server?: boolean;
  readonly days?: number;
  /** The whole subject DN in openssl's `/K=V/…` form, instead of `/CN=<name>`. */
  readonly dn?: string;
  /**
   * The certificate's key: `openssl genpkey` arguments (default: EC P-256), e.g. `rsa_keygen_bits:1024`,
   * or a PEM private key made elsewhere (a DSA key, say, which genpkey makes only from parameters).
   */
  readonly key?: readonly string[] | string;
}

/** The CA, what it issues, and its removal. */
export interface TestCa extends Issued {
  /** A certificate for `subject` (a CN), signed by the CA. */
  issue(name: string, options?: IssueOptions): Issued;
  remove(): void;
}

/** The key of the CA and of its certificates unless {@link IssueOptions.key} says otherwise. */
const EC_P256 = ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'];

/** Makes a CA named `name` (or with the whole subject `options.dn`, and the key `options.key`). */
export function createTestCa(
  name = 'Herald Test CA',
  options: Pick<IssueOptions, 'dn' | 'key'> = {},
): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'herald-ca-'));
  const path = (file: string) => join(dir, file);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const newKey = (file: string, key: readonly string[] | string = EC_P256) =>
    typeof key === 'string'
      ? writeFileSync(path(file), key, { mode: 0o600 })
      : openssl('genpkey', ...key, '-out', path(file));
  newKey('ca.key', options.key);
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    options.dn ?? `/CN=${name}`,
    '-days',
    '2',
    '-out',
    'ca.pem',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  let serial = 1;
  return {
    cert: readFileSync(path('ca.pem'), 'utf8'),
    key: readFileSync(path('ca.key'), 'utf8'),
    issue(subject, options = {}) {
      serial += 1;
      const base = `leaf-${serial}`;
      newKey(`${base}.key`, options.key);
      const dn = options.dn ?? `/CN=${subject}`;
      openssl('req', '-new', '-key', `${base}.key`, '-subj', dn, '-out', `${base}.csr`);
      writeFileSync(
        path(`${base}.ext`),
        options.server
          ? 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n'
          : 'extendedKeyUsage=clientAuth\n',
      );
      openssl(
        'x509',
        '-req',
        '-in',
        `${base}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-set_serial',
        String(serial),
        '-days',
        String(options.days ?? 1),
        '-extfile',
        `${base}.ext`,
        '-out',
        `${base}.pem`,
      );
      return {
        cert: readFileSync(path(`${base}.pem`), 'utf8'),
        key: readFileSync(path(`${base}.key`), 'utf8'),
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
