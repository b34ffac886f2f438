/**
 * Sign-in to the webhook portal: an operator mints a one-time link for one organization and one scope;
 * the portal page exchanges the link's token for a short-lived session API key.
 */
import type { KeyScope } from '#config/routes';
import { ForbiddenError, UnauthorizedError } from '#domain/errors';
import type { Organization } from '#domain/model';
import { isSessionKey, PORTAL_SESSION_KEY_NAME, SESSION_MINUTES } from '#domain/portal-access';
import type { ApiKeyStore, DirectoryStore, PortalLinkStore } from '#domain/ports';
import { generateSignInToken, hashApiKey } from '#domain/signing/secrets';
import { renderTimestamp } from '#domain/time';
import { createApiKey } from './api-keys';
import { requireOrganization } from './require-organization';

/** What a link is minted for, already checked (`parsePortalLinkRequest`). */
export interface PortalLinkRequest {
  readonly scope: KeyScope;
  /** 1 to `MAX_LINK_MINUTES`. */
  readonly ttlMinutes: number;
}

/** A minted link's token (shown only this once; the table keeps its hash) and when it stops working. */
export interface PortalLinkGrant {
  readonly token: string;
  /** Epoch seconds. */
  readonly expiresAt: number;
}

/** A signed-in portal session: its API key's secret (shown only this once), scope and expiry. */
export interface PortalSession {
  readonly secret: string;
  readonly scope: KeyScope;
  /** Epoch seconds. */
  readonly expiresAt: number;
  readonly organization: Pick<Organization, 'id' | 'name'>;
}

/**
 * Mints a one-time sign-in link. Only the SHA-256 hash of its 256-bit token is stored, so neither the
 * table nor a backup can sign anyone in.
 */
export async function mintPortalLink(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  links: Pick<PortalLinkStore, 'createPortalLink'>,
  orgId: string,
  request: PortalLinkRequest,
  now: () => number = Date.now,
): Promise<PortalLinkGrant> {
  await requireOrganization(directory, orgId);
  const token = generateSignInToken();
  const expiresAt = Math.floor(now() / 1000) + request.ttlMinutes * 60;
  await links.createPortalLink({ tokenHash: hashApiKey(token), orgId, scope: request.scope, expiresAt });
  return { token, expiresAt };
}

/**
 * Exchanges a link's token for a session API key of the link's organization and scope, issued like any
 * other key ({@link createApiKey}) with an expiry. The link is deleted by the same write that reads it, so
 * it works once; an expired link is deleted too and says so.
 */
export async function openPortalSession(
  ports: {
    directory: Pick<DirectoryStore, 'getOrganization'>;
    apiKeys: ApiKeyStore;
    links: Pick<PortalLinkStore, 'takePortalLink'>;
  },
  token: string,
  now: () => number = Date.now,
): Promise<PortalSession> {
  const link = await ports.links.takePortalLink(hashApiKey(token));
  if (!link) {
    throw new UnauthorizedError(
      'This sign-in link is not valid: it was already used or never existed. Ask for a new link.',
    );
  }
  const nowMs = now();
  const nowSeconds = Math.floor(nowMs / 1000);
  if (link.expiresAt <= nowSeconds) {
    const at = renderTimestamp(new Date(link.expiresAt * 1000).toISOString());
    throw new UnauthorizedError(`This sign-in link expired at ${at} UTC. Ask for a new link.`);
  }
  const org = await ports.directory.getOrganization(link.orgId);
  if (!org) throw new UnauthorizedError('The organization of this sign-in link no longer exists.');
  await pruneExpiredSessionKeys(ports.apiKeys, org.id, nowSeconds);
  const expiresAt = nowSeconds + SESSION_MINUTES * 60;
  const request = { name: PORTAL_SESSION_KEY_NAME, scope: link.scope, expiresAt };
  const { secret } = await createApiKey(ports.directory, ports.apiKeys, org.id, request, nowMs);
  return { secret, scope: link.scope, expiresAt, organization: { id: org.id, name: org.name } };
}

/**
 * Deletes the organization's expired session keys, so sign-ins never fill the per-organization key limit
 * (keys are counted until deleted; the table's TTL does not delete them, as that would leave the count
 * behind). Bounded: at most one listing and
 * one delete per expired session key, each deleted once.
 */
async function pruneExpiredSessionKeys(
  apiKeys: ApiKeyStore,
  orgId: string,
  nowSeconds: number,
): Promise<void> {
  const expired = (await apiKeys.listApiKeys(orgId)).filter(
    (key) => isSessionKey(key) && (key.expiresAt ?? 0) <= nowSeconds,
  );
  for (const key of expired) await apiKeys.revokeApiKey(orgId, key.id);
}

/** The caller of `DELETE /portal/session`: the key the authorizer resolved, and its secret. */
export interface SessionCaller {
  readonly orgId: string;
  readonly keyId: string;
  /** The Bearer key the request carried. */
  readonly secret: string;
}

/**
 * Signs a portal session out: its key revokes itself, so a copy of it (a shared screen, a browser left
 * open) stops working as soon as the gateway's cached decision expires instead of after the session's
 * hour. Only session keys may do this: an ordinary key usually serves an integration, and revoking it is
 * an operator's decision (`herald api-key revoke`), not something any holder of it, a `read` key
 * included, should be able to do. Signing out twice is not an error (the gateway may still let the
 * revoked key through for its cache's lifetime).
 *
 * @throws ForbiddenError for a key that is not a portal session's
 */
export async function closePortalSession(
  apiKeys: Pick<ApiKeyStore, 'findApiKeyByHash' | 'deleteApiKey'>,
  caller: SessionCaller,
): Promise<void> {
  const hash = hashApiKey(caller.secret);
  const key = await apiKeys.findApiKeyByHash(hash);
  if (!key) return;
  if (key.orgId !== caller.orgId || key.id !== caller.keyId) throw new UnauthorizedError();
  if (!isSessionKey(key)) {
    throw new ForbiddenError(
      'Only a portal session key can sign itself out; an operator revokes other keys (herald api-key revoke).',
    );
  }
  await apiKeys.deleteApiKey(hash, key.orgId, key.id);
}
