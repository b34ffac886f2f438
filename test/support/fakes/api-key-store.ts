import type { ApiKey } from '#domain/model';
import { type ApiKeyStore, MAX_API_KEYS_LISTED, MAX_API_KEYS_PER_ORG } from '#domain/ports';

/**
 * {@link ApiKeyStore} in memory: keys by the hash of their secret, listed oldest first, revoked by id.
 * Like the DynamoDB adapter, each organization's key count is checked and changed in the same step that
 * stores or deletes a key (no `await` in between, so concurrent callers cannot both pass the limit), and
 * an organization without a count (`counts` unset: keys seeded before it) is counted once first.
 * `lookups` counts hash lookups, for the authorizer's tests.
 */
export class InMemoryApiKeyStore implements ApiKeyStore {
  readonly byHash = new Map<string, ApiKey>();
  /** Each organization's key count, as the organization item holds it. */
  readonly counts = new Map<string, number>();
  lookups = 0;

  async createApiKey(hash: string, key: ApiKey): Promise<boolean> {
    // A step of I/O before the write, where the adapter's transaction goes to DynamoDB.
    await Promise.resolve();
    const count = this.count(key.orgId);
    if (count >= MAX_API_KEYS_PER_ORG) return false;
    if (this.byHash.has(hash)) throw new Error('API key hash exists (condition failed)');
    this.byHash.set(hash, key);
    this.counts.set(key.orgId, count + 1);
    return true;
  }

  async findApiKeyByHash(hash: string): Promise<ApiKey | undefined> {
    this.lookups += 1;
    return this.byHash.get(hash);
  }

  async listApiKeys(orgId: string): Promise<ApiKey[]> {
    return [...this.byHash.values()]
      .filter((key) => key.orgId === orgId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .slice(0, MAX_API_KEYS_LISTED);
  }

  async revokeApiKey(orgId: string, keyId: string): Promise<boolean> {
    for (const [hash, key] of this.byHash) {
      if (key.orgId === orgId && key.id === keyId) return this.deleteApiKey(hash, orgId, keyId);
    }
    return false;
  }

  async deleteApiKey(hash: string, orgId: string, keyId: string): Promise<boolean> {
    await Promise.resolve();
    const key = this.byHash.get(hash);
    if (key?.orgId !== orgId || key.id !== keyId) return false;
    const count = this.count(orgId);
    this.byHash.delete(hash);
    this.counts.set(orgId, count - 1);
    return true;
  }

  /** The organization's count, counted from its keys when it has none yet. */
  private count(orgId: string): number {
    const stored = this.counts.get(orgId);
    if (stored !== undefined) return stored;
    const counted = [...this.byHash.values()].filter((key) => key.orgId === orgId).length;
    this.counts.set(orgId, counted);
    return counted;
  }
}
