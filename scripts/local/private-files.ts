/**
 * Owner-only state of the local runtime. `.herald/` holds the local operator's secret key
 * (`local.json`), the demo organization's API key (`demo.json`) and the emulators' data (webhook tokens,
 * API key hashes, queued events), so on a shared machine nobody but its owner may read it: directories
 * are 0700 and files 0600. Tightened at every start as well, because a directory made by an earlier
 * version (or by hand) keeps whatever permissions it was created with.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** rwx for the owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** rw for the owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and its missing parents owner-only, and tightens `dir` itself if it already existed. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * {@link ensurePrivateDir}, then takes every group and other permission off everything below `dir`
 * (symbolic links are left alone: chmod would follow them out of the directory).
 */
export function ensurePrivateTree(dir: string): void {
  ensurePrivateDir(dir);
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats && !stats.isSymbolicLink() && (stats.mode & 0o077) !== 0) chmodSync(path, stats.mode & 0o700);
  }
}

/** Writes `file` owner-only, also over an existing file with wider permissions. */
export function writePrivateFile(file: string, data: string): void {
  writeFileSync(file, data, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}
