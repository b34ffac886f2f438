import type { Organization } from '#domain/model';
import type { DirectoryStore } from '#domain/ports';
import { generateWebhookToken, tokensAt } from '#domain/signing/webhook-token';
import { requireOrganization } from './require-organization';

/**
 * Replaces the organization's webhook token. For `overlapHours` (0 to `MAX_OVERLAP_HOURS`, checked by
 * the request parser) webhooks are signed with both the new and the replaced token; a token replaced
 * earlier is dropped.
 *
 * @returns the organization with its new tokens
 */
export async function rotateWebhookToken(
  directory: DirectoryStore,
  orgId: string,
  overlapHours: number,
  nowMs: number = Date.now(),
): Promise<Organization> {
  const org = await requireOrganization(directory, orgId);
  const token = generateWebhookToken();
  const previous =
    overlapHours > 0
      ? { token: org.webhookToken, expiresAt: new Date(nowMs + overlapHours * 3_600_000).toISOString() }
      : undefined;
  await directory.setWebhookToken(orgId, token, previous);
  return { ...org, webhookToken: token, previousWebhookToken: previous };
}

/** The organization with the tokens that sign at `nowMs`: the current one and, while it still signs, the previous. */
export async function showWebhookToken(
  directory: Pick<DirectoryStore, 'getOrganization'>,
  orgId: string,
  nowMs: number = Date.now(),
): Promise<Organization> {
  return tokensAt(await requireOrganization(directory, orgId), nowMs);
}
