import { ValidationError } from '#domain/errors';
import type { Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import { generateWebhookToken } from '#domain/signing/webhook-token';
import { renderTimestamp } from '#domain/time';
import { requireOrganization } from './require-organization';

/** How long the replaced token keeps signing webhooks after a rotation unless told otherwise. */
export const DEFAULT_OVERLAP_HOURS = 24;
/** The longest overlap: a week. */
export const MAX_OVERLAP_HOURS = 168;

/** An organization's webhook token and, during an overlap, the previous one. */
export interface WebhookTokenView {
  readonly webhook_token: string;
  readonly previous: { readonly webhook_token: string; readonly expires_at: string } | null;
}

/**
 * Replaces the organization's webhook token. For `overlapHours` (default 24, 0 to 168) webhooks are
 * signed with both the new and the replaced token; a token replaced earlier is dropped.
 */
export async function rotateWebhookToken(
  directory: DirectoryStore,
  orgId: string,
  overlapHours: unknown,
  nowMs: number = Date.now(),
): Promise<WebhookTokenView> {
  const hours = overlapHours ?? DEFAULT_OVERLAP_HOURS;
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0 || hours > MAX_OVERLAP_HOURS) {
    throw new ValidationError('overlap_hours', `must be a number from 0 to ${MAX_OVERLAP_HOURS}`);
  }
  const org = await requireOrganization(directory, orgId);
  const token = generateWebhookToken();
  const previous =
    hours > 0
      ? { token: org.webhookToken, expiresAt: new Date(nowMs + hours * 3_600_000).toISOString() }
      : undefined;
  await directory.setWebhookToken(orgId, token, previous);
  return toTokenView({ ...org, webhookToken: token, previousWebhookToken: previous }, nowMs);
}

/** The current token and, while it still signs, the previous one. */
export async function showWebhookToken(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  orgId: string,
  nowMs: number = Date.now(),
): Promise<WebhookTokenView> {
  return toTokenView(await requireOrganization(directory, orgId), nowMs);
}

/** The token view of an organization at `nowMs` (an expired previous token is not shown). */
export function toTokenView(org: Organization, nowMs: number): WebhookTokenView {
  const previous = org.previousWebhookToken;
  const live = previous !== undefined && Date.parse(previous.expiresAt) > nowMs;
  return {
    webhook_token: org.webhookToken,
    previous: live
      ? { webhook_token: previous.token, expires_at: renderTimestamp(previous.expiresAt) }
      : null,
  };
}
