/**
 * Sign-in to the webhook portal: an operator mints a one-time link for one organization and one scope;
 * the portal page exchanges the link's token for a short-lived session API key.
 */
import { randomBytes } from 'node:crypto';
import { KEY_SCOPES, type KeyScope } from '#config/routes';
import { UnauthorizedError, ValidationError } from '#domain/errors';
import type { ApiKeyStore, DirectoryStore, PortalLinkStore } from '#domain/ports';
import { hashApiKey } from '#domain/signing/secrets';
import { joinUrl } from '#domain/urls';
import { createApiKey } from './api-keys';
import { requireOrganization } from './require-organization';

/** How long a link signs in when the operator gives no `ttl_minutes`. */
export const DEFAULT_LINK_MINUTES = 60;
/** The longest a link may live: a day, so a forgotten link in a mailbox stops working soon. */
export const MAX_LINK_MINUTES = 24 * 60;
/** How long a portal session lasts after sign-in. */
export const SESSION_MINUTES = 60;
/** The name of every session key, so `herald key list` tells them apart and sign-in prunes expired ones. */
export const PORTAL_SESSION_KEY_NAME = 'portal session';

/** The answer of `POST /admin/organizations/{org}/portal-links`. */
export interface PortalLinkView {
  /** `<base>/portal#token=<token>`: the token rides in the fragment, which browsers never send. */
  readonly url: string;
  /** ISO 8601 UTC. */
  readonly expires_at: string;
}

/** The answer of `POST /portal/session`. */
export interface PortalSessionView {
  readonly api_key: string;
  readonly scope: KeyScope;
  /** ISO 8601 UTC. */
  readonly expires_at: string;
  readonly org: { readonly id: string; readonly name: string };
}

/** The request body of the portal-link route, checked. */
export function parsePortalLinkRequest(body: unknown): { scope: KeyScope; ttlMinutes: number } {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const scope = input.scope;
  if (typeof scope !== 'string' || !KEY_SCOPES.includes(scope as KeyScope)) {
    throw new ValidationError('scope', 'is required: "read" or "manage"');
  }
  const ttl = input.ttl_minutes ?? DEFAULT_LINK_MINUTES;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_LINK_MINUTES) {
    throw new ValidationError('ttl_minutes', `must be whole minutes from 1 to ${MAX_LINK_MINUTES}`);
  }
  return { scope: scope as KeyScope, ttlMinutes: ttl };
}

/**
 * Mints a one-time sign-in link. Only the SHA-256 hash of its 256-bit token is stored, so neither the
 * table nor a backup can sign anyone in.
 */
export async function mintPortalLink(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  links: Pick<PortalLinkStore, 'createPortalLink'>,
  orgId: string,
  request: { scope: KeyScope; ttlMinutes: number },
  baseUrl: string,
  now: () => number = Date.now,
): Promise<PortalLinkView> {
  await requireOrganization(directory, orgId);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = Math.floor(now() / 1000) + request.ttlMinutes * 60;
  await links.createPortalLink({ tokenHash: hashApiKey(token), orgId, scope: request.scope, expiresAt });
  return {
    url: `${joinUrl(baseUrl, '/portal')}#token=${token}`,
    expires_at: new Date(expiresAt * 1000).toISOString(),
  };
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
  body: unknown,
  now: () => number = Date.now,
): Promise<PortalSessionView> {
  const token = (body as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || token === '' || token.length > 200) {
    throw new ValidationError('token', 'is required: the token of a portal sign-in link');
  }
  const link = await ports.links.takePortalLink(hashApiKey(token));
  if (!link) {
    throw new UnauthorizedError(
      'This sign-in link is not valid: it was already used or never existed. Ask for a new link.',
    );
  }
  const nowMs = now();
  const nowSeconds = Math.floor(nowMs / 1000);
  if (link.expiresAt <= nowSeconds) {
    const at = new Date(link.expiresAt * 1000).toISOString();
    throw new UnauthorizedError(`This sign-in link expired at ${at}. Ask for a new link.`);
  }
  const org = await ports.directory.getOrganization(link.orgId);
  if (!org) throw new UnauthorizedError('The organization of this sign-in link no longer exists.');
  await pruneExpiredSessionKeys(ports.apiKeys, org.id, nowSeconds);
  const expiresAt = nowSeconds + SESSION_MINUTES * 60;
  const request = { name: PORTAL_SESSION_KEY_NAME, scope: link.scope, expiresAt };
  const key = await createApiKey(ports.directory, ports.apiKeys, org.id, request, nowMs);
  return {
    api_key: key.api_key,
    scope: link.scope,
    expires_at: new Date(expiresAt * 1000).toISOString(),
    org: { id: org.id, name: org.name },
  };
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
