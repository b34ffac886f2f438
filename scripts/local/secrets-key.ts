/**
 * The local runtime's secrets key: 32 random bytes that stand in for KMS (no emulator exists), sealing
 * the organizations' signing keys with AES-256-GCM (`lambdas/adapters/secrets/local-secret-sealer.ts`).
 * Kept owner-only in `.herald/secrets.key` so sealed keys survive a restart; an in-memory runtime gets a
 * fresh one in a private temporary directory, removed when it stops.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files';

/** The key file and how to remove it (nothing to remove for a persistent one). */
export interface LocalSecretsKey {
  readonly file: string;
  readonly cleanup: () => void;
}

/** The key file of `dataDir` (made on first use), or a temporary one when there is no data directory. */
export function localSecretsKey(dataDir: string | undefined): LocalSecretsKey {
  if (dataDir) {
    const file = join(dataDir, 'secrets.key');
    if (!existsSync(file)) writeKey(file);
    chmodSync(file, PRIVATE_FILE_MODE);
    return { file, cleanup: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'herald-secrets-'));
  const file = join(dir, 'secrets.key');
  writeKey(file);
  return { file, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function writeKey(file: string): void {
  writeFileSync(file, randomBytes(32), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
}
