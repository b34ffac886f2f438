/**
 * One attempt on the wire: the URL checked against the policy, the request signed with the tokens that
 * sign at this moment, sent, and what was sent where (URL, signing key ids, `X-Signature`) kept with
 * the receiver's answer for the attempt's record.
 */
import { HERALD_VERSION } from '#config/version';
import type { DeliveryAttempt, EventRecord, Organization } from '#domain/model';
import type { WebhookSender } from '#domain/ports';
import { signAttempt } from '#domain/signing/signatures';
import { answerBesideUrl } from '#domain/truncate';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';

/** What sending an attempt needs. */
export interface SendDeps {
  readonly sender: WebhookSender;
  readonly urlPolicy: UrlPolicy;
  readonly now: () => number;
}

/** An attempt to record, and the receiver's `Retry-After` when it sent one. */
export interface SentAttempt {
  readonly attempt: DeliveryAttempt;
  readonly retryAfter?: string | undefined;
}

/**
 * Signs and sends one POST of the event to `url` for `org`, the organization that published it; a URL
 * the policy refuses becomes a failed attempt with the reason, signed by no key.
 */
export async function sendAttempt(
  deps: SendDeps,
  event: EventRecord,
  url: string,
  org: Organization,
): Promise<SentAttempt> {
  const started = deps.now();
  const deliveredAt = new Date(started).toISOString();
  try {
    checkWebhookUrl(url, deps.urlPolicy);
  } catch (error) {
    const responseBody = `refused: ${(error as Error).message}`;
    return {
      attempt: { deliveredAt, responseStatus: 0, responseBody, responseTimeMs: 0, url, signingKeys: [] },
    };
  }
  const timestamp = Math.floor(started / 1000);
  // Both signature headers from the tokens that sign now (during an overlap the previous one too), so
  // they always agree on the token set and a token stops signing with the first attempt after its end.
  const signed = signAttempt(org, event.id, timestamp, event.body, started);
  const result = await deps.sender.send({
    url,
    body: event.body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': `Herald/${HERALD_VERSION}`,
      'X-Signature': signed.xSignature,
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signed.webhookSignature,
    },
  });
  return {
    attempt: {
      deliveredAt,
      responseStatus: result.status,
      responseBody: answerBesideUrl(result.body, url),
      responseTimeMs: result.elapsedMs,
      url,
      signingKeys: signed.tokenIds,
      signature: signed.xSignature,
    },
    retryAfter: result.retryAfter,
  };
}
