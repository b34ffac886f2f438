/**
 * One attempt's request, prepared, then sent. Prepared in separate steps: the organization's signing keys
 * opened, the body encrypted to the receiver's key (JWE, signed over the bytes sent), and the TLS
 * material of the connection (client certificate, private CA); the stored event keeps the plain JSON
 * body. Sent: the URL checked against the policy, the request signed with the tokens that sign at this
 * moment, and what was sent where (URL with its query's values masked, signing key ids, `X-Signature`)
 * kept with the receiver's answer for the attempt's record. An attempt Herald could not make (its request
 * could not be prepared, signed or sent) is a failed attempt like any other: status 0 and why, never a
 * throw, so it counts in its cycle and the event settles like one whose receiver never answers. A test
 * event (`test-event.ts`) is prepared and sent by the same steps, and its answer is not recorded.
 */
import { HERALD_VERSION } from '#config/version';
import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type { PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { Endpoint } from '#domain/endpoints/endpoint';
import type { DeliveryAttempt, Organization } from '#domain/model';
import type { ClientTls, SendResult, WebhookSender } from '#domain/ports';
import { clientKeyContext, SealerUnavailableError, type SecretSealer } from '#domain/signing/secret-sealer';
import { signWebhook } from '#domain/signing/signatures';
import { type OpenedSigningKey, privateKeyPemOf } from '#domain/signing/signing-keys';
import { answerBesideUrl } from '#domain/truncate';
import { maskUrlSecrets } from '#domain/urls';
import { checkWebhookUrl, type UrlPolicy } from '#domain/webhook-url';
import type { DeliveryContext } from './delivery-context';
import { TEST_EVENT_HEADER } from './test-event-rule';

/**
 * What a request carries of its event: its id (`webhook-id`) and its body, a stored event's or a test
 * event's (which says so in a header too).
 */
export interface OutgoingWebhook {
  readonly id: string;
  /** The webhook body's JSON text, as signed (or, to an endpoint with a payload key, encrypted). */
  readonly body: string;
  /** A test event (`POST /accounts/{iban}/test-events`): the request carries `Herald-Test: true`. */
  readonly test?: true;
}

/** The bytes an attempt sends and their media type. */
export interface OutgoingBody {
  readonly body: string;
  readonly contentType: string;
}

/** The endpoint's material is not there to make the request as it asks: the attempt fails, saying so. */
class MaterialMissingError extends Error {}

/** An admitted attempt's request, or why it cannot be made (the attempt is then recorded as not sent). */
export type PreparedRequest =
  | ReadyRequest
  | { readonly ready: false; readonly reason: string; readonly error: unknown };

/** A request ready to sign and send: the keys that sign it, the bytes it sends, its TLS material. */
interface ReadyRequest {
  readonly ready: true;
  readonly keys: readonly OpenedSigningKey[];
  readonly outgoing: OutgoingBody;
  readonly tls: ClientTls | undefined;
}

/**
 * Prepares an admitted attempt's request. A step that fails (a key that does not open, a body that does
 * not encrypt, material the endpoint's summary names but its item lacks) is this attempt's failure: the
 * answer says why, in words fit for the event's readers. Reading the material is not such a step: a
 * store that does not answer is the consumer's trouble, and throws (the message comes back). Nor is a key
 * service that does not answer now (`SealerUnavailableError`: throttled, failing, out of reach): it says
 * nothing about this attempt, so it throws too, nothing recorded.
 */
export async function prepareRequest(
  context: DeliveryContext,
  crypto: { readonly encrypter?: PayloadEncrypter | undefined; readonly sealer?: SecretSealer | undefined },
  event: OutgoingWebhook,
  endpoint: Endpoint,
  org: Organization,
  nowMs: number,
): Promise<PreparedRequest> {
  const material = await context.endpointMaterial(endpoint);
  let step = "the organization's signing key could not be opened";
  try {
    const keys = await context.signingKeys(org, nowMs);
    step = "the body could not be encrypted to the endpoint's payload key";
    const outgoing = await encryptBody(crypto.encrypter, event, endpoint, material);
    step = "the endpoint's TLS client key could not be opened";
    const tls = await tlsOptions(crypto.sealer, endpoint, material);
    return { ready: true, keys, outgoing, tls };
  } catch (error) {
    if (error instanceof SealerUnavailableError) throw error;
    const reason =
      error instanceof MaterialMissingError ? error.message : `${step} (${describeFailure(error)})`;
    return { ready: false, reason, error };
  }
}

/**
 * The event's body as the endpoint takes it: JSON, or `application/jose` when the endpoint carries a
 * payload key. An endpoint that asks for encryption never gets plain JSON: without its key (or an
 * encrypter) this throws, and the attempt fails without sending anything.
 */
async function encryptBody(
  encrypter: PayloadEncrypter | undefined,
  event: OutgoingWebhook,
  endpoint: Endpoint,
  secrets: EndpointSecrets | undefined,
): Promise<OutgoingBody> {
  const wanted = endpoint.security?.payloadEncryption;
  if (!wanted) return { body: event.body, contentType: 'application/json' };
  const key = secrets?.payloadEncryptionKey;
  if (!key || !encrypter)
    throw new MaterialMissingError('the endpoint asks for encrypted payloads, but its key is not available');
  return { body: await encrypter.encrypt(key, wanted.keyId, event.body), contentType: 'application/jose' };
}

/**
 * The connection's TLS material for the endpoint: its client certificate with the key opened for this
 * attempt only, and its receiver's CA. None for an endpoint without either. A key sealed for another
 * endpoint, account or organization does not open (nothing is sent).
 */
async function tlsOptions(
  sealer: SecretSealer | undefined,
  endpoint: Endpoint,
  secrets: EndpointSecrets | undefined,
): Promise<ClientTls | undefined> {
  const wanted = endpoint.security;
  if (!wanted?.tlsClient && !wanted?.tlsCa) return undefined;
  const client = secrets?.tlsClient;
  if (wanted.tlsClient && (!client || !sealer)) {
    throw new MaterialMissingError(
      'the endpoint presents a client certificate, but its key is not available',
    );
  }
  const key =
    client && sealer
      ? privateKeyPemOf(
          await sealer.open(
            client.sealedKey,
            clientKeyContext(endpoint.orgId, endpoint.iban, endpoint.extra),
          ),
        )
      : undefined;
  return { cert: client?.certificate, key, ca: secrets?.tlsCa };
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
  /**
   * No request left Herald (it could not be prepared, the URL was refused, the sender could not make
   * it): the attempt says nothing about the receiver, so the endpoint's health does not hear of it.
   */
  readonly notSent?: true;
}

/**
 * Sends an attempt's prepared request; one that could not be prepared is recorded as not sent, saying
 * why (see {@link sendAttempt}).
 */
export async function sendPrepared(
  deps: SendDeps,
  event: OutgoingWebhook,
  url: string,
  org: Organization,
  prepared: PreparedRequest,
): Promise<SentAttempt> {
  if (!prepared.ready)
    return notSent(new Date(deps.now()).toISOString(), url, prepared.reason, prepared.error);
  return sendAttempt(deps, event, url, org, prepared);
}

/**
 * The record of an attempt Herald could not make: status 0, `not sent: <reason>`, signed by no key, the
 * URL's query values masked as on every attempt.
 *
 * @param reason - what could not be done, in words fit for the event's readers (no secret, no address)
 */
function notSent(
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
    notSent: true,
  };
}

/**
 * A thrown error in a few safe words: its code and OpenSSL's reason when it has them (e.g.
 * `ERR_SSL_EE_KEY_TOO_SMALL: ee key too small`), else its name (an AWS SDK error's is its kind, e.g.
 * `AccessDeniedException`). Never its message, which may quote anything (a URL with its query, an
 * address, a key's ARN).
 */
function describeFailure(error: unknown): string {
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
 * the policy refuses becomes a failed attempt with the reason, signed by no key. `request.keys` are
 * `org`'s Ed25519 keys opened for this batch (none when it has no key yet), `request.outgoing` the bytes
 * to send (the event's JSON body unless the endpoint encrypts), signed as sent, and `request.tls` the
 * endpoint's client certificate and receiver CA, for this request only.
 */
async function sendAttempt(
  deps: SendDeps,
  event: OutgoingWebhook,
  url: string,
  org: Organization,
  request: ReadyRequest,
): Promise<SentAttempt> {
  const { keys, outgoing, tls } = request;
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
      notSent: true,
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
        ...(event.test ? { [TEST_EVENT_HEADER]: 'true' } : {}),
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
