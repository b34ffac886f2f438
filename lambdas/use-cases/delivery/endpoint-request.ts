/**
 * An attempt's request prepared before it is sent, as separate steps: the organization's signing keys
 * opened, the body encrypted to the receiver's key (JWE, signed over the bytes sent), and the TLS
 * material of the connection (client certificate, private CA). The stored event keeps the plain JSON
 * body; the organization reads it as before.
 */
import type { EndpointSecrets } from '#domain/endpoint-security/endpoint-security';
import type { PayloadEncrypter } from '#domain/endpoint-security/ports';
import type { Account, EventRecord, Organization } from '#domain/model';
import type { ClientTls } from '#domain/ports';
import { clientKeyContext, type SecretSealer } from '#domain/signing/secret-sealer';
import { type OpenedSigningKey, privateKeyPemOf } from '#domain/signing/signing-keys';
import type { DeliveryContext } from './delivery-context';
import { describeFailure, type OutgoingBody } from './send-attempt';

/** The endpoint's material is not there to make the request as it asks: the attempt fails, saying so. */
export class MaterialMissingError extends Error {}

/** An admitted attempt's request, or why it cannot be made (the attempt is then recorded as not sent). */
export type PreparedRequest =
  | {
      readonly ready: true;
      readonly keys: readonly OpenedSigningKey[];
      readonly outgoing: OutgoingBody;
      readonly tls: ClientTls | undefined;
    }
  | { readonly ready: false; readonly reason: string; readonly error: unknown };

/**
 * Prepares an admitted attempt's request. A step that fails (a key that does not open, a body that does
 * not encrypt, material the endpoint's summary names but its item lacks) is this attempt's failure: the
 * answer says why, in words fit for the event's readers. Reading the material is not such a step: a
 * store that does not answer is the consumer's trouble, and throws (the message comes back).
 */
export async function prepareRequest(
  context: DeliveryContext,
  crypto: { readonly encrypter?: PayloadEncrypter | undefined; readonly sealer?: SecretSealer | undefined },
  event: EventRecord,
  account: Account,
  org: Organization,
  nowMs: number,
): Promise<PreparedRequest> {
  const material = await context.endpointMaterial(account);
  let step = "the organization's signing key could not be opened";
  try {
    const keys = await context.signingKeys(org, nowMs);
    step = "the body could not be encrypted to the endpoint's payload key";
    const outgoing = await encryptBody(crypto.encrypter, event, account, material);
    step = "the endpoint's TLS client key could not be opened";
    const tls = await tlsOptions(crypto.sealer, account, material);
    return { ready: true, keys, outgoing, tls };
  } catch (error) {
    const reason =
      error instanceof MaterialMissingError ? error.message : `${step} (${describeFailure(error)})`;
    return { ready: false, reason, error };
  }
}

/**
 * The event's body as the endpoint takes it: JSON, or `application/jose` when the account carries a
 * payload key. An account that asks for encryption never gets plain JSON: without its key (or an
 * encrypter) this throws, and the attempt fails without sending anything.
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
    throw new MaterialMissingError('the endpoint asks for encrypted payloads, but its key is not available');
  return { body: await encrypter.encrypt(key, wanted.keyId, event.body), contentType: 'application/jose' };
}

/**
 * The connection's TLS material for the endpoint: its client certificate with the key opened for this
 * attempt only, and its receiver's CA. None for an endpoint without either. A key sealed for another
 * account or organization does not open (nothing is sent).
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
    throw new MaterialMissingError(
      'the endpoint presents a client certificate, but its key is not available',
    );
  }
  const key =
    client && sealer
      ? privateKeyPemOf(await sealer.open(client.sealedKey, clientKeyContext(account.orgId, account.iban)))
      : undefined;
  return { cert: client?.certificate, key, ca: secrets?.tlsCa };
}
