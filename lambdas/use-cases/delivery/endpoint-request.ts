/**
 * What an endpoint's security changes in its requests, as separate steps the consumer takes before
 * sending: the body encrypted to the receiver's key (JWE, signed over the bytes sent), and the TLS
 * material of the connection (client certificate, private CA). The stored event keeps the plain JSON
 * body; the organization reads it as before.
 */
import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type { PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { Account, EventRecord } from '#domain/model';
import type { ClientTls } from '#domain/ports';
import { clientKeyContext, type SecretSealer } from '#domain/signing/secret-sealer';
import { privateKeyPemOf } from '#domain/signing/signing-keys';

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

/**
 * The connection's TLS material for the endpoint: its client certificate with the key opened for this
 * attempt only, and its receiver's CA. None for an endpoint without either. A key sealed for another
 * account or organization does not open (the attempt is not made).
 */
export async function tlsOptions(
  sealer: SecretSealer | undefined,
  account: Account,
  secrets: EndpointSecrets | undefined,
): Promise<ClientTls | undefined> {
  const wanted = account.endpointSecurity;
  if (!wanted?.tlsClient && !wanted?.tlsCa) return undefined;
  const client = secrets?.tlsClient;
  if (wanted.tlsClient && (!client || !sealer)) {
    throw new Error('the endpoint presents a client certificate, but its key is not available');
  }
  const key =
    client && sealer
      ? privateKeyPemOf(await sealer.open(client.sealedKey, clientKeyContext(account.orgId, account.iban)))
      : undefined;
  return { cert: client?.certificate, key, ca: secrets?.tlsCa };
}
