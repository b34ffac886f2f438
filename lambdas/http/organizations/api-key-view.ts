/**
 * The JSON view of an organization's API keys (snake_case): never the secret, except once in the answer
 * that creates a key.
 */
import type { ApiKey } from '#domain/model';
import { renderTimestamp } from '#domain/time';
import type { API_KEY } from '#http/openapi/admin-components';
import type { Static } from '#http/schema';

/** An API key without its secret (the `ApiKey` schema without `api_key`). */
export type ApiKeyView = Static<typeof API_KEY>;

/** A new key: the view plus the secret, shown only this once. */
export type CreatedApiKeyView = ApiKeyView & { readonly api_key: string };

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
