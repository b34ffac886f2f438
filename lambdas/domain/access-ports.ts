/**
 * The stores of who may call the API: organization API keys (with their limit) and one-time portal
 * sign-in links. Part of `ports.ts`, which re-exports them.
 */
import type { ApiKey, PortalLink } from './model';

/**
 * Organization API keys, found by the SHA-256 hash of the secret and listed by id. The store keeps each
 * organization under {@link MAX_API_KEYS_PER_ORG} keys atomically: a key is stored only together with
 * the organization's count of keys, so concurrent creations can never exceed it.
 */
export interface ApiKeyStore {
  /**
   * Stores a new key under its hash, unless the organization already holds {@link MAX_API_KEYS_PER_ORG}
   * keys: false then, and nothing is stored.
   */
  createApiKey(hash: string, key: ApiKey): Promise<boolean>;
  /** The key a hash belongs to (expired ones included: the caller decides). */
  findApiKeyByHash(hash: string): Promise<ApiKey | undefined>;
  /** The organization's keys, oldest first (at most {@link MAX_API_KEYS_LISTED}). */
  listApiKeys(orgId: string): Promise<ApiKey[]>;
  /** Deletes the key and frees its place; false when the organization has no key with this id. */
  revokeApiKey(orgId: string, keyId: string): Promise<boolean>;
  /**
   * Deletes the key stored under `hash` (a caller holding the secret) and frees its place; false when
   * no key of `orgId` with id `keyId` is stored there.
   */
  deleteApiKey(hash: string, orgId: string, keyId: string): Promise<boolean>;
}

/** Keys an organization may hold at once, so listing them stays one bounded read. */
export const MAX_API_KEYS_PER_ORG = 50;

/**
 * Keys one listing returns: more than {@link MAX_API_KEYS_PER_ORG}, so an organization that went over
 * the limit before it was enforced atomically still sees (and can revoke) every key; one batch read.
 */
export const MAX_API_KEYS_LISTED = 100;

/** One-time portal sign-in links, stored by the SHA-256 hash of their token. */
export interface PortalLinkStore {
  createPortalLink(link: PortalLink): Promise<void>;
  /** Deletes the link and returns what it was, in one write, so a link signs in at most once. */
  takePortalLink(tokenHash: string): Promise<PortalLink | undefined>;
}
