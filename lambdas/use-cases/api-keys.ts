import { KEY_SCOPES, type KeyScope } from '#config/routes';
import { ConflictError, NotFoundError, ValidationError } from '#domain/errors';
import { uuidv7 } from '#domain/ids';
import type { ApiKey } from '#domain/model';
import { type ApiKeyStore, type DirectoryStore, MAX_API_KEYS_PER_ORG } from '#domain/ports';
import { generateApiKey, hashApiKey } from '#domain/signing/secrets';
import { nowIso, renderTimestamp } from '#domain/time';
import { requireOrganization } from './require-organization';

/** An API key without its secret. */
export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly scope: KeyScope;
  /** `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly created_at: string;
  /** `YYYY-MM-DD HH:MM:SS` UTC, for short-lived keys only. */
  readonly expires_at?: string;
}

/** A new key: the view plus the secret, shown only this once. */
export interface CreatedApiKey extends ApiKeyView {
  readonly api_key: string;
}

/** What a new key is asked for. */
export interface ApiKeyRequest {
  readonly name?: unknown;
  readonly scope?: unknown;
  /** Epoch seconds; the key is refused from then on. */
  readonly expiresAt?: unknown;
}

/**
 * Issues an API key: only its SHA-256 hash is stored. At most {@link MAX_API_KEYS_PER_ORG} per
 * organization, so listing them stays one bounded read.
 */
export async function createApiKey(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  apiKeys: ApiKeyStore,
  orgId: string,
  request: ApiKeyRequest,
  nowMs: number = Date.now(),
): Promise<CreatedApiKey> {
  const name = typeof request.name === 'string' ? request.name.trim() : '';
  if (name.length === 0 || name.length > 100) {
    throw new ValidationError('name', 'must be a string of 1 to 100 characters');
  }
  if (!KEY_SCOPES.includes(request.scope as KeyScope)) {
    throw new ValidationError('scope', 'must be "read" or "manage"');
  }
  const expiresAt = request.expiresAt;
  if (
    expiresAt !== undefined &&
    (typeof expiresAt !== 'number' || !Number.isInteger(expiresAt) || expiresAt * 1000 <= nowMs)
  ) {
    throw new ValidationError('expires_at', 'must be whole epoch seconds in the future');
  }
  await requireOrganization(directory, orgId);
  if ((await apiKeys.listApiKeys(orgId)).length >= MAX_API_KEYS_PER_ORG) {
    throw new ConflictError(`The organization already has ${MAX_API_KEYS_PER_ORG} keys; revoke one first.`);
  }
  const secret = generateApiKey();
  const key: ApiKey = {
    id: uuidv7(nowMs),
    orgId,
    name,
    scope: request.scope as KeyScope,
    createdAt: nowIso(new Date(nowMs)),
    expiresAt: expiresAt as number | undefined,
  };
  await apiKeys.createApiKey(hashApiKey(secret), key);
  return { ...toApiKeyView(key), api_key: secret };
}

/** The organization's keys, oldest first, without secrets. */
export async function listApiKeys(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  apiKeys: ApiKeyStore,
  orgId: string,
): Promise<ApiKeyView[]> {
  await requireOrganization(directory, orgId);
  return (await apiKeys.listApiKeys(orgId)).map(toApiKeyView);
}

/** Revokes a key: it is deleted, and the authorizer refuses it once its cached decision expires. */
export async function revokeApiKey(apiKeys: ApiKeyStore, orgId: string, keyId: string): Promise<void> {
  if (!(await apiKeys.revokeApiKey(orgId, keyId))) {
    throw new NotFoundError(`key_id: organization ${orgId} has no API key ${keyId}.`);
  }
}

function toApiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    scope: key.scope,
    created_at: renderTimestamp(key.createdAt),
    ...(key.expiresAt === undefined
      ? {}
      : { expires_at: renderTimestamp(new Date(key.expiresAt * 1000).toISOString()) }),
  };
}
