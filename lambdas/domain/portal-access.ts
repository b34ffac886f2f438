/**
 * The rules of portal sign-in: how long a one-time link and the session it opens last, and the name that
 * marks session keys among an organization's API keys.
 */
import type { ApiKey } from './model';

/** How long a link signs in when the operator gives no time. */
export const DEFAULT_LINK_MINUTES = 60;
/** The longest a link may live: a day, so a forgotten link in a mailbox stops working soon. */
export const MAX_LINK_MINUTES = 24 * 60;
/** How long a portal session lasts after sign-in. */
export const SESSION_MINUTES = 60;
/** The name of every session key, so `herald api-key list` tells them apart and sign-in prunes expired ones. */
export const PORTAL_SESSION_KEY_NAME = 'portal session';

/** Whether a key is a portal session's: named so by sign-in, and always with an expiry. */
export function isSessionKey(key: ApiKey): boolean {
  return key.name === PORTAL_SESSION_KEY_NAME && key.expiresAt !== undefined;
}
