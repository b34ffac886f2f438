import { BEARER_PATTERN } from '#config/routes';
import type { DirectoryStore } from '#domain/ports';
import { hashApiKey } from '#domain/signing';

/** `Bearer <key>`; the scheme is case-insensitive (RFC 9110). */
const BEARER = new RegExp(BEARER_PATTERN);

/**
 * The organization an `Authorization` header's API key belongs to, or undefined for a missing,
 * malformed or unknown key. Only the key's SHA-256 hash is looked up.
 */
export async function organizationOfBearer(
  directory: Pick<DirectoryStore, 'findOrgIdByApiKeyHash'>,
  authorization: string | undefined,
): Promise<string | undefined> {
  if (!authorization || !BEARER.test(authorization)) return undefined;
  const key = authorization.trim().split(/\s+/)[1];
  if (!key) return undefined;
  return directory.findOrgIdByApiKeyHash(hashApiKey(key));
}
