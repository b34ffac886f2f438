/**
 * The per-attempt CPU cost of issue 18's cryptography, measured with `process.cpuUsage` over many
 * iterations of the code the consumer runs (warmed up first): the `v1a` Ed25519 signature next to the
 * `v1` HMAC, a JWE encryption of the webhook body (RSA-OAEP-256 + A256GCM with `jose`) per key size, and
 * opening a sealed TLS client key (AES-256-GCM with a cached data key, then the key's PEM).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { JosePayloadEncrypter } from '#adapters/crypto/jose-payload-encrypter';
import { decrypt, encrypt } from '#adapters/secrets/aes-gcm';
import { parsePayloadKey } from '#domain/endpoint-security/payload-key';
import { clientKeyContext, type SecretContext } from '#domain/signing/secret-sealer';
import { signWebhook } from '#domain/signing/signatures';
import { generateSigningKeyPair, privateKeyOf } from '#domain/signing/signing-keys';
import { generateWebhookToken } from '#domain/signing/webhook-token';

/** One measured operation: CPU microseconds per call (user + system). */
export interface CryptoRow {
  readonly name: string;
  readonly microsPerCall: number;
}

/** A webhook body of about 1 KB, the size of a typical event. */
const BODY = JSON.stringify({
  id: '0193f1de-7f6a-7c3e-9a55-3b2f1c9e8d41',
  type: 'credit_transfer_status_change',
  account: 'DE89370400440532013000',
  triggered_at: '2026-11-23 12:00:00',
  payload: { transfer_id: 'tr_1', status: 'settled', amount: '100.00', note: 'x'.repeat(700) },
  _links: { self: 'https://api.example.com/v1/events/0193f1de-7f6a-7c3e-9a55-3b2f1c9e8d41' },
});

async function perCall(name: string, iterations: number, run: () => unknown): Promise<CryptoRow> {
  for (let i = 0; i < Math.min(50, iterations); i++) await run();
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await run();
  const used = process.cpuUsage(before);
  return { name, microsPerCall: (used.user + used.system) / iterations };
}

/** Measures each operation. */
export async function measureCrypto(): Promise<CryptoRow[]> {
  const tokens = { webhookToken: generateWebhookToken() };
  const pair = generateSigningKeyPair();
  const keys = [{ id: 'whk_0000000000000000', privateKey: privateKeyOf(pair.privateKey) }];
  const message = { id: 'e1', timestampSeconds: 1_763_900_000, body: BODY };
  const rows: CryptoRow[] = [
    await perCall('v1 only (HMAC-SHA256, X-Signature + webhook-signature)', 20_000, () =>
      signWebhook(tokens, [], ['v1'], message, 0),
    ),
    await perCall('v1 + v1a (adds one Ed25519 signature)', 5_000, () =>
      signWebhook(tokens, keys, undefined, message, 0),
    ),
  ];
  const encrypter = new JosePayloadEncrypter();
  for (const bits of [2048, 3072, 4096]) {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
    const { jwk, summary } = parsePayloadKey(publicKey.export({ format: 'pem', type: 'spki' }).toString());
    rows.push(
      await perCall(`JWE of the body to an RSA-${bits} key (RSA-OAEP-256 + A256GCM)`, 1_000, () =>
        encrypter.encrypt(jwk, summary.keyId, BODY),
      ),
    );
  }
  const dataKey = randomBytes(32);
  const client = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const context: SecretContext = clientKeyContext('org', 'DE89370400440532013000');
  const sealed = encrypt(dataKey, new Uint8Array(client.export({ format: 'der', type: 'pkcs8' })), context);
  rows.push(
    await perCall('open a sealed TLS client key (cached data key) and export its PEM', 5_000, () =>
      privateKeyOf(decrypt(dataKey, sealed, context)).export({ format: 'pem', type: 'pkcs8' }),
    ),
  );
  return rows;
}
