/**
 * What both webhook senders (the delivery consumer, the test event sender) send with, built once per
 * container from the same variables: a test event goes out exactly as an attempt does.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { JosePayloadEncrypter } from '#adapters/crypto/jose-payload-encrypter';
import { DynamoEndpointSecretStore } from '#adapters/dynamodb/endpoint-secret-store';
import { DynamoEndpointStore } from '#adapters/dynamodb/endpoint-store';
import { HttpWebhookSender, timeoutsFrom } from '#adapters/http/http-webhook-sender';
import { createSecretSealer } from '#adapters/secrets/create-secret-sealer';
import type { Env } from '#config/env';
import { parseUrlPolicy } from '#domain/webhook-url';

/** The variables the parts are built from; each sender reads its own besides. */
export const WEBHOOK_SENDING_ENV = [
  'TABLE_NAME',
  'WEBHOOK_URL_POLICY',
  'DELIVERY_TIMEOUT_MS',
  'SECRETS_KEY_ARN',
  'LOCAL_SECRETS_KEY_FILE',
] as const;

/**
 * The URL policy and the delivery timeouts, the sender that keeps to both, the sealer that opens the
 * organizations' Ed25519 keys and the endpoints' TLS client keys (its KMS data keys stay cached across
 * invocations), the endpoints' material, an account's extra endpoints and the payload encrypter.
 */
export function webhookSendingDeps(
  env: Env<(typeof WEBHOOK_SENDING_ENV)[number]>,
  documents: DynamoDBDocumentClient,
) {
  const urlPolicy = parseUrlPolicy(env.WEBHOOK_URL_POLICY ?? 'public-https');
  const timeouts = timeoutsFrom(env.DELIVERY_TIMEOUT_MS);
  return {
    urlPolicy,
    timeouts,
    sender: new HttpWebhookSender(urlPolicy, timeouts),
    sealer: createSecretSealer(env),
    endpointSecrets: new DynamoEndpointSecretStore(documents, env.TABLE_NAME),
    endpointStore: new DynamoEndpointStore(documents, env.TABLE_NAME),
    encrypter: new JosePayloadEncrypter(),
  };
}
