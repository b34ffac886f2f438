import { BEARER_PATTERN } from '#config/routes';
import type { ApiKey } from '#domain/model';
import type { ApiKeyStore } from '#domain/ports';
import { hashApiKey } from '#domain/signing/secrets';

/** `Bearer herald_…`, in the one spelling the gateway lets through. */
const BEARER = new RegExp(BEARER_PATTERN);

/**
 * The API key an `Authorization` header carries, or undefined for a missing, malformed, unknown or
 * expired key. Only the key's SHA-256 hash is looked up.
 *
 * @param nowSeconds - epoch seconds, compared with the key's `expires_at`
 */
export async function apiKeyOfBearer(
  apiKeys: Pick<ApiKeyStore, 'findApiKeyByHash'>,
  authorization: string | undefined,
  nowSeconds: number,
): Promise<ApiKey | undefined> {
  if (!authorization || !BEARER.test(authorization)) return undefined;
  const key = authorization.slice('Bearer '.length);
  const found = await apiKeys.findApiKeyByHash(hashApiKey(key));
  if (!found) return undefined;
  if (found.expiresAt !== undefined && found.expiresAt <= nowSeconds) return undefined;
  return found;
}
