import type { KeyScope } from '#config/routes';
import { ConflictError, NotFoundError } from '#domain/errors';
import { uuidv7 } from '#domain/ids';
import type { ApiKey } from '#domain/model';
import { type ApiKeyStore, type DirectoryStore, MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { generateApiKey, hashApiKey } from '#domain/signing/secrets';
import { nowIso } from '#domain/time';
import { requireOrganization } from './require-organization';

/** What a new key is asked for, already checked (`parseApiKeyRequest`). */
export interface ApiKeyRequest {
  /** 1 to 100 characters. */
  readonly name: string;
  readonly scope: KeyScope;
  /** Epoch seconds in the future; the key is refused from then on. */
  readonly expiresAt?: number | undefined;
}

/** A new key and its secret, which is shown only this once. */
export interface IssuedApiKey {
  readonly key: ApiKey;
  readonly secret: string;
}

/**
 * Issues an API key: only its SHA-256 hash is stored. At most {@link MAX_API_KEYS_PER_ORG} per
 * organization, so listing them stays one bounded read; the store enforces the limit in the write that
 * stores the key, so concurrent requests cannot pass it together.
 *
 * @throws NotFoundError for an unknown organization; ConflictError when it holds the most keys
 */
export async function createApiKey(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  apiKeys: ApiKeyStore,
  orgId: string,
  request: ApiKeyRequest,
  nowMs: number = Date.now(),
): Promise<IssuedApiKey> {
  await requireOrganization(directory, orgId);
  const secret = generateApiKey();
  const key: ApiKey = {
    id: uuidv7(nowMs),
    orgId,
    name: request.name,
    scope: request.scope,
    createdAt: nowIso(new Date(nowMs)),
    expiresAt: request.expiresAt,
  };
  if (!(await apiKeys.createApiKey(hashApiKey(secret), key))) {
    throw new ConflictError(`The organization already has ${MAX_API_KEYS_PER_ORG} keys; revoke one first.`);
  }
  return { key, secret };
}

/** The organization's keys, oldest first, without secrets. */
export async function listApiKeys(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  apiKeys: ApiKeyStore,
  orgId: string,
): Promise<ApiKey[]> {
  await requireOrganization(directory, orgId);
  return apiKeys.listApiKeys(orgId);
}

/** Revokes a key: it is deleted, and the authorizer refuses it once its cached decision expires. */
export async function revokeApiKey(apiKeys: ApiKeyStore, orgId: string, keyId: string): Promise<void> {
  if (!(await apiKeys.revokeApiKey(orgId, keyId))) {
    throw new NotFoundError(`key_id: organization ${orgId} has no API key ${keyId}.`);
  }
}
