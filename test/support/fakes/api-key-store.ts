import type { ApiKey } from '#domain/model';
import type { ApiKeyStore } from '#domain/ports';

/**
 * {@link ApiKeyStore} in memory: keys by the hash of their secret, listed oldest first, revoked by id.
 * `lookups` counts hash lookups, for the authorizer's tests.
 */
export class InMemoryApiKeyStore implements ApiKeyStore {
  readonly byHash = new Map<string, ApiKey>();
  lookups = 0;

  async createApiKey(hash: string, key: ApiKey): Promise<void> {
    if (this.byHash.has(hash)) throw new Error('API key hash exists (condition failed)');
    this.byHash.set(hash, key);
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | undefined> {
    this.lookups += 1;
    return this.byHash.get(hash);
  }

  async listApiKeys(orgId: string): Promise<ApiKey[]> {
    return [...this.byHash.values()]
      .filter((key) => key.orgId === orgId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async revokeApiKey(orgId: string, keyId: string): Promise<boolean> {
    for (const [hash, key] of this.byHash) {
      if (key.orgId === orgId && key.id === keyId) return this.byHash.delete(hash);
    }
    return false;
  }
}
