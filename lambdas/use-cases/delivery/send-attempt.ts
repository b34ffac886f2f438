/**
 * One attempt on the wire: the URL checked against the policy, the request signed with the tokens that
 * sign at this moment, sent, and what was sent where (URL, signing key ids, `X-Signature`) kept with
 * the receiver's answer for the attempt's record.
 */
import { HERALD_VERSION } from '#config/version';
import type { DeliveryAttempt, EventRecord, Organization } from '#domain/model';
import type { ClientTls, WebhookSender } from '#domain/ports';
import { signWebhook } from '#domain/signing/signatures';
import type { OpenedSigningKey } from '#domain/signing/signing-keys';
import { answerBesideUrl } from '#domain/truncate';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import type { OutgoingBody } from './endpoint-request';

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
 *
 * @param keys - `org`'s Ed25519 keys, opened for this batch (none when it has no key yet)
 * @param outgoing - the bytes to send (the event's JSON body unless the endpoint encrypts), signed as sent
 * @param tls - the endpoint's client certificate and receiver CA, for this request only
 */
export async function sendAttempt(
  deps: SendDeps,
  event: EventRecord,
  url: string,
  org: Organization,
  keys: readonly OpenedSigningKey[] = [],
  outgoing: OutgoingBody = { body: event.body, contentType: 'application/json' },
  tls?: ClientTls,
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
  const message = { id: event.id, timestampSeconds: timestamp, body: outgoing.body };
  const signed = signWebhook(org, keys, org.signatureSchemes, message, started);
  const result = await deps.sender.send({
    url,
    body: outgoing.body,
    tls,
    headers: {
      'Content-Type': outgoing.contentType,
      'User-Agent': `Herald/${HERALD_VERSION}`,
      ...(signed.xSignature === undefined ? {} : { 'X-Signature': signed.xSignature }),
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
      signingKeys: signed.keyIds,
      signature: signed.xSignature,
    },
    retryAfter: result.retryAfter,
  };
}
