/**
 * The JSON view of an organization's webhook tokens: the current one and, during an overlap after a
 * rotation, the previous one with its expiry.
 */
import { type SigningTokens, webhookTokenId } from '#domain/signing/webhook-token';
import { renderTimestamp } from '#domain/time';
import type { WEBHOOK_TOKEN } from '#http/openapi/webhooks';
import type { Static } from '#http/schema';

/** An organization's webhook token and, during an overlap, the previous one (the `WebhookToken` schema). */
export type WebhookTokenView = Static<typeof WEBHOOK_TOKEN>;

/** Renders the tokens as given: the use-case has already left out a previous token that stopped signing. */
export function toWebhookTokenView(tokens: SigningTokens): WebhookTokenView {
  const previous = tokens.previousWebhookToken;
  return {
    webhook_token: tokens.webhookToken,
    token_id: webhookTokenId(tokens.webhookToken),
    previous: previous
      ? {
          webhook_token: previous.token,
          token_id: webhookTokenId(previous.token),
          expires_at: renderTimestamp(previous.expiresAt),
        }
      : null,
  };
}
