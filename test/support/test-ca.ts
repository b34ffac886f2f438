/**
 * A throwaway certificate authority made by the `openssl` CLI in a private temporary directory: a CA,
 * a server certificate for 127.0.0.1 and client certificates it signs (EC P-256, quick to make). For
 * mutual-TLS tests; nothing is kept.
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

/** The CA, what it issues, and its removal. */
export interface TestCa extends Issued {
  /** A certificate for `subject` (a CN), signed by the CA; `server` adds the 127.0.0.1 address. */
  issue(name: string, options?: { server?: boolean; days?: number }): Issued;
  remove(): void;
}

/** Makes a CA named `name`. */
export function createTestCa(name = 'Herald Test CA'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'herald-ca-'));
  const path = (file: string) => join(dir, file);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const newKey = (file: string) =>
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', path(file));
  newKey('ca.key');
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-subj',
    `/CN=${name}`,
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
      newKey(`${base}.key`);
      openssl('req', '-new', '-key', `${base}.key`, '-subj', `/CN=${subject}`, '-out', `${base}.csr`);
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
