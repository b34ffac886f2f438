/**
 * Sign-in to the webhook portal: an operator mints a one-time link for one organization and one scope;
 * the portal page exchanges the link's token for a short-lived session API key.
 */
import type { KeyScope } from '#config/routes';
import { UnauthorizedError } from '#domain/errors';
import type { Organization } from '#domain/model';
import { PORTAL_SESSION_KEY_NAME, SESSION_MINUTES } from '#domain/portal-access';
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
 * (TTL deletion lags up to two days, and is off unless retention is on). Bounded: at most one listing and
 * one delete per expired session key, each deleted once.
 */
async function pruneExpiredSessionKeys(
  apiKeys: ApiKeyStore,
  orgId: string,
  nowSeconds: number,
): Promise<void> {
  const expired = (await apiKeys.listApiKeys(orgId)).filter(
    (key) =>
      key.name === PORTAL_SESSION_KEY_NAME && key.expiresAt !== undefined && key.expiresAt <= nowSeconds,
  );
  for (const key of expired) await apiKeys.revokeApiKey(orgId, key.id);
}
