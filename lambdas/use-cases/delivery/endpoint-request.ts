/**
 * What an endpoint's security changes in its requests, as separate steps the consumer takes before
 * sending: the body encrypted to the receiver's key (JWE, signed over the bytes sent). The stored event
 * keeps the plain JSON body; the organization reads it as before.
 */
import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type { PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { Account, EventRecord } from '#domain/model';

/** The bytes an attempt sends and their media type. */
export interface OutgoingBody {
  readonly body: string;
  readonly contentType: string;
}

/**
 * The event's body as the endpoint takes it: JSON, or `application/jose` when the account carries a
 * payload key. An account that asks for encryption never gets plain JSON: without its key (or an
 * encrypter) this throws, and the message comes back later.
 */
export async function encryptBody(
  encrypter: PayloadEncrypter | undefined,
  event: EventRecord,
  account: Account,
  secrets: EndpointSecrets | undefined,
): Promise<OutgoingBody> {
  const wanted = account.endpointSecurity?.payloadEncryption;
  if (!wanted) return { body: event.body, contentType: 'application/json' };
  const key = secrets?.payloadEncryptionKey;
  if (!key || !encrypter)
    throw new Error('the endpoint asks for encrypted payloads, but its key is not available');
  return { body: await encrypter.encrypt(key, wanted.keyId, event.body), contentType: 'application/jose' };
}
