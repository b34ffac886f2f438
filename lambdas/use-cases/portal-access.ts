/**
 * Sign-in to the webhook portal: an operator mints a one-time link for one organization and one scope;
 * the portal page exchanges the link's token for a short-lived session API key.
 */
import { randomBytes } from 'node:crypto';
import { NotFoundError, UnauthorizedError, ValidationError } from '#domain/errors';
import type { AccessScope } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import { generateApiKey, hashApiKey } from '#domain/signing';
import { joinUrl } from '#domain/urls';

/** How long a link signs in when the operator gives no `ttl_minutes`. */
export const DEFAULT_LINK_MINUTES = 60;
/** The longest a link may live: a day, so a forgotten link in a mailbox stops working soon. */
export const MAX_LINK_MINUTES = 24 * 60;
/** How long a portal session lasts after sign-in. */
export const SESSION_MINUTES = 60;

const SCOPES: readonly AccessScope[] = ['read', 'manage'];

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
  readonly scope: AccessScope;
  /** ISO 8601 UTC. */
  readonly expires_at: string;
  readonly org: { readonly id: string; readonly name: string };
}

/** The request body of the portal-link route, checked. */
export function parsePortalLinkRequest(body: unknown): { scope: AccessScope; ttlMinutes: number } {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const scope = input.scope;
  if (typeof scope !== 'string' || !SCOPES.includes(scope as AccessScope)) {
    throw new ValidationError('scope', 'is required: "read" or "manage"');
  }
  const ttl = input.ttl_minutes ?? DEFAULT_LINK_MINUTES;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > MAX_LINK_MINUTES) {
    throw new ValidationError('ttl_minutes', `must be whole minutes from 1 to ${MAX_LINK_MINUTES}`);
  }
  return { scope: scope as AccessScope, ttlMinutes: ttl };
}

/**
 * Mints a one-time sign-in link. Only the SHA-256 hash of its 256-bit token is stored, so neither the
 * table nor a backup can sign anyone in.
 */
export async function mintPortalLink(
  directory: Pick<DirectoryStore, 'getOrganization' | 'createPortalLink'>,
  orgId: string,
  request: { scope: AccessScope; ttlMinutes: number },
  baseUrl: string,
  now: () => number = Date.now,
): Promise<PortalLinkView> {
  if (!(await directory.getOrganization(orgId))) throw new NotFoundError(`org: no organization ${orgId}.`);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = Math.floor(now() / 1000) + request.ttlMinutes * 60;
  await directory.createPortalLink({ tokenHash: hashApiKey(token), orgId, scope: request.scope, expiresAt });
  return {
    url: `${joinUrl(baseUrl, '/portal')}#token=${token}`,
    expires_at: new Date(expiresAt * 1000).toISOString(),
  };
}

/**
 * Exchanges a link's token for a session key of the link's organization and scope. The link is deleted
 * by the same write that reads it, so it works once; an expired link is deleted too and says so.
 */
export async function openPortalSession(
  directory: Pick<DirectoryStore, 'takePortalLink' | 'getOrganization' | 'createApiKey'>,
  body: unknown,
  now: () => number = Date.now,
): Promise<PortalSessionView> {
  const token = (body as { token?: unknown } | null)?.token;
  if (typeof token !== 'string' || token === '' || token.length > 200) {
    throw new ValidationError('token', 'is required: the token of a portal sign-in link');
  }
  const link = await directory.takePortalLink(hashApiKey(token));
  if (!link) {
    throw new UnauthorizedError(
      'This sign-in link is not valid: it was already used or never existed. Ask for a new link.',
    );
  }
  const nowSeconds = Math.floor(now() / 1000);
  if (link.expiresAt <= nowSeconds) {
    const at = new Date(link.expiresAt * 1000).toISOString();
    throw new UnauthorizedError(`This sign-in link expired at ${at}. Ask for a new link.`);
  }
  const org = await directory.getOrganization(link.orgId);
  if (!org) throw new UnauthorizedError('The organization of this sign-in link no longer exists.');
  const key = generateApiKey();
  const expiresAt = nowSeconds + SESSION_MINUTES * 60;
  await directory.createApiKey(hashApiKey(key), org.id, new Date(now()).toISOString(), {
    scope: link.scope,
    expiresAt,
  });
  return {
    api_key: key,
    scope: link.scope,
    expires_at: new Date(expiresAt * 1000).toISOString(),
    org: { id: org.id, name: org.name },
  };
}
