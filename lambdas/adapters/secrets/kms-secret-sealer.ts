/**
 * The {@link SecretSealer} in AWS: a KMS envelope. Each secret gets its own data key (GenerateDataKey
 * under Herald's secrets key, with the secret's kind and owner as encryption context, which the functions'
 * IAM conditions match on); the secret is AES-256-GCM under the data key and stored with the data key's
 * ciphertext. Opening decrypts the data key once per execution environment and keeps it in memory by its
 * ciphertext, so a delivery does not call KMS per attempt (nor per batch); past {@link CACHE_LIMIT} data
 * keys the least recently used one goes (never the whole cache at once).
 */
import type { KMSClient } from '@aws-sdk/client-kms';
import { SECRET_KIND_CONTEXT_KEY, SECRET_OWNER_CONTEXT_KEY } from '#config/secrets';
import { SealerUnavailableError, type SecretContext, type SecretSealer } from '#domain/signing/secret-sealer';
import { decrypt, encrypt, withoutPrefix } from './aes-gcm';

const PREFIX = 'hk1';
/** Data keys kept in memory: one per organization key or endpoint key the environment has used. */
export const CACHE_LIMIT = 1_000;

/** The KMS calls the sealer makes, so tests can count them without AWS. */
export interface KmsCalls {
  generateDataKey(
    keyId: string,
    context: Record<string, string>,
  ): Promise<{ plaintext: Uint8Array; ciphertext: Uint8Array }>;
  /** `keyId` names the key the data key must be under: KMS refuses a ciphertext of any other. */
  decrypt(keyId: string, ciphertext: Uint8Array, context: Record<string, string>): Promise<Uint8Array>;
}

/** Seals under the KMS key `keyId` (an ARN). */
export class KmsSecretSealer implements SecretSealer {
  private readonly dataKeys = new Map<string, Uint8Array>();

  constructor(
    private readonly keyId: string,
    private readonly kms: KmsCalls = sdkCalls(),
    private readonly cacheLimit = CACHE_LIMIT,
  ) {}

  async seal(plaintext: Uint8Array, context: SecretContext): Promise<string> {
    const dataKey = await this.kms.generateDataKey(this.keyId, encryptionContext(context));
    try {
      const wrapped = Buffer.from(dataKey.ciphertext).toString('base64url');
      return `${PREFIX}.${wrapped}.${encrypt(dataKey.plaintext, plaintext, context)}`;
    } finally {
      dataKey.plaintext.fill(0);
    }
  }

  async open(sealed: string, context: SecretContext): Promise<Uint8Array> {
    const rest = withoutPrefix(sealed, PREFIX);
    const dot = rest.indexOf('.');
    const wrapped = rest.slice(0, dot);
    // The cache is keyed by the wrapped key and the context: KMS checked that pair once.
    const cacheKey = `${wrapped}|${context.kind}|${context.owner}`;
    let dataKey = this.dataKeys.get(cacheKey);
    if (dataKey) {
      // Least recently used first: a hit moves the key to the end of the map's order.
      this.dataKeys.delete(cacheKey);
    } else {
      const ciphertext = Buffer.from(wrapped, 'base64url');
      dataKey = await this.kms.decrypt(this.keyId, ciphertext, encryptionContext(context)).catch((error) => {
        throw isUnavailable(error) ? new SealerUnavailableError({ cause: error }) : error;
      });
      const oldest = this.dataKeys.keys().next();
      if (this.dataKeys.size >= this.cacheLimit && !oldest.done) {
        this.dataKeys.get(oldest.value)?.fill(0);
        this.dataKeys.delete(oldest.value);
      }
    }
    this.dataKeys.set(cacheKey, dataKey);
    return decrypt(dataKey, rest.slice(dot + 1), context);
  }
}

/** KMS errors of the moment: the service throttled, failed inside, or the key's store timed out. */
const UNAVAILABLE_NAMES = new Set([
  'ThrottlingException',
  'KMSInternalException',
  'DependencyTimeoutException',
  'KMSInvalidStateException',
  'TimeoutError',
  'RequestTimeout',
]);

/** Network failures on the way to KMS (or its VPC endpoint). */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a failed KMS call failed for the moment (retrying later may succeed), not for the value or the
 * permissions: what the SDK marks retryable, a 5xx or 429 answer, the names above, a network error. A
 * refusal (`AccessDeniedException`, `InvalidCiphertextException`, `IncorrectKeyException`, a missing
 * key) is none of these.
 */
function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $retryable, $metadata } = error as {
    name?: unknown;
    code?: unknown;
    $retryable?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  const status = $metadata?.httpStatusCode;
  return (
    $retryable !== undefined ||
    (typeof status === 'number' && (status >= 500 || status === 429)) ||
    (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) ||
    (typeof code === 'string' && NETWORK_CODES.has(code))
  );
}

/** The encryption context KMS binds a data key to, and the IAM conditions read. */
function encryptionContext(context: SecretContext): Record<string, string> {
  return { [SECRET_KIND_CONTEXT_KEY]: context.kind, [SECRET_OWNER_CONTEXT_KEY]: context.owner };
}

/**
 * The SDK behind {@link KmsCalls}, loaded on first use: functions that never seal or open (and a consumer
 * whose organizations have no key) do not pay for loading the KMS client at cold start.
 */
function sdkCalls(): KmsCalls {
  let client: Promise<{ kms: KMSClient; sdk: typeof import('@aws-sdk/client-kms') }> | undefined;
  const load = () => {
    client ??= import('@aws-sdk/client-kms').then((sdk) => ({ kms: new sdk.KMSClient({}), sdk }));
    return client;
  };
  return {
    async generateDataKey(keyId, context) {
      const { kms, sdk } = await load();
      const out = await kms.send(
        new sdk.GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }),
      );
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
      return { plaintext: out.Plaintext, ciphertext: out.CiphertextBlob };
    },
    async decrypt(keyId, ciphertext, context) {
      const { kms, sdk } = await load();
      const out = await kms.send(
        new sdk.DecryptCommand({ KeyId: keyId, CiphertextBlob: ciphertext, EncryptionContext: context }),
      );
      if (!out.Plaintext) throw new Error('KMS returned no plaintext');
      return out.Plaintext;
    },
  };
}
