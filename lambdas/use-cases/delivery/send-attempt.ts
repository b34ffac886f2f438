/**
 * One attempt on the wire: the URL checked against the policy, the request signed with the tokens that
 * sign at this moment, sent, and what was sent where (URL with its query's values masked, signing key
 * ids, `X-Signature`) kept with the receiver's answer for the attempt's record. An attempt Herald could not make (its request could not
 * be prepared, signed or sent) is a failed attempt like any other: status 0 and why, never a throw, so it
 * counts in its cycle and the event settles like one whose receiver never answers.
 */
import { HERALD_VERSION } from '#config/version';
import type { DeliveryAttempt, EventRecord, Organization } from '#domain/model';
import type { ClientTls, SendResult, WebhookSender } from '#domain/ports';
import { signWebhook } from '#domain/signing/signatures';
import type { OpenedSigningKey } from '#domain/signing/signing-keys';
import { answerBesideUrl } from '#domain/truncate';
import { maskUrlSecrets } from '#domain/urls';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';

/** The bytes an attempt sends and their media type. */
export interface OutgoingBody {
  readonly body: string;
  readonly contentType: string;
}

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
  /** What kept Herald from making the request (the attempt says why, in short), for the logs. */
  readonly error?: unknown;
}

/**
 * The record of an attempt Herald could not make: status 0, `not sent: <reason>`, signed by no key, the
 * URL's query values masked as on every attempt.
 *
 * @param reason - what could not be done, in words fit for the event's readers (no secret, no address)
 */
export function notSent(
  deliveredAt: string,
  url: string,
  reason: string,
  error: unknown,
  elapsedMs = 0,
): SentAttempt {
  const shown = maskUrlSecrets(url);
  const responseBody = answerBesideUrl(`not sent: ${reason}`, shown);
  return {
    attempt: {
      deliveredAt,
      responseStatus: 0,
      responseBody,
      responseTimeMs: elapsedMs,
      url: shown,
      signingKeys: [],
    },
    error,
  };
}

/**
 * A thrown error in a few safe words: its code and OpenSSL's reason when it has them (e.g.
 * `ERR_SSL_EE_KEY_TOO_SMALL: ee key too small`), else its name (an AWS SDK error's is its kind, e.g.
 * `AccessDeniedException`). Never its message, which may quote anything (a URL with its query, an
 * address, a key's ARN).
 */
export function describeFailure(error: unknown): string {
  const { code, reason } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    reason?: unknown;
  };
  const word = (text: unknown) => typeof text === 'string' && /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(text);
  const safeReason = typeof reason === 'string' && /^[a-z0-9 ]{1,80}$/i.test(reason) ? reason : undefined;
  if (word(code)) return safeReason === undefined ? String(code) : `${code}: ${safeReason}`;
  return error instanceof Error && word(error.name) ? error.name : 'unknown error';
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
  // What the record keeps of the URL: a token in its query must not live on in every attempt.
  const shown = maskUrlSecrets(url);
  try {
    checkWebhookUrl(url, deps.urlPolicy);
  } catch (error) {
    const responseBody = `refused: ${(error as Error).message}`;
    return {
      attempt: {
        deliveredAt,
        responseStatus: 0,
        responseBody,
        responseTimeMs: 0,
        url: shown,
        signingKeys: [],
      },
    };
  }
  const timestamp = Math.floor(started / 1000);
  // Both signature headers from the tokens that sign now (during an overlap the previous one too), so
  // they always agree on the token set and a token stops signing with the first attempt after its end.
  const message = { id: event.id, timestampSeconds: timestamp, body: outgoing.body };
  let signed: ReturnType<typeof signWebhook>;
  let result: SendResult;
  try {
    signed = signWebhook(org, keys, org.signatureSchemes, message, started);
    result = await deps.sender.send({
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
  } catch (error) {
    // Thrown, not answered: a sender must answer status 0 for what it cannot send, but whatever throws
    // here is this attempt's failure, recorded, and never an escape that leaves the attempt unrecorded.
    const reason = `Herald could not make the request (${describeFailure(error)})`;
    return notSent(deliveredAt, url, reason, error, deps.now() - started);
  }
  return {
    attempt: {
      deliveredAt,
      responseStatus: result.status,
      responseBody: answerBesideUrl(result.body, shown),
      responseTimeMs: result.elapsedMs,
      url: shown,
      signingKeys: signed.keyIds,
      signature: signed.xSignature,
    },
    retryAfter: result.retryAfter,
  };
}
