/**
 * The secrets Herald hands out once and stores only as SHA-256 hashes: API keys and the tokens of portal
 * sign-in links.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Prefix of an API key; distinctive so secret scanners and people recognise a leaked key. */
export const API_KEY_PREFIX = 'herald_';

/** A new API key: `herald_` + base64url of 32 random bytes. Shown once; only its hash is stored. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** A new portal sign-in token: base64url of 32 random bytes. Shown once; only its hash is stored. */
export function generateSignInToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256 hex of an API key (or a portal link token), the stored lookup key. A plain hash suffices: the
 * secret has 256 random bits, so there is nothing to brute-force and a slow hash would only slow every
 * authorizer call.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
