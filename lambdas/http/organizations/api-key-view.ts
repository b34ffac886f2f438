/**
 * The JSON view of an organization's API keys (snake_case): never the secret, except once in the answer
 * that creates a key.
 */
import type { KeyScope } from '#config/routes';
import type { ApiKey } from '#domain/model';
import { renderTimestamp } from '#domain/time';

/** An API key without its secret (the `ApiKey` schema without `api_key`). */
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
export interface CreatedApiKeyView extends ApiKeyView {
  readonly api_key: string;
}

/** A key as listed. */
export function toApiKeyView(key: ApiKey): ApiKeyView {
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

/** A key as issued, with its secret. */
export function toCreatedApiKeyView(issued: {
  readonly key: ApiKey;
  readonly secret: string;
}): CreatedApiKeyView {
  return { ...toApiKeyView(issued.key), api_key: issued.secret };
}
