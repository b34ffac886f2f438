/**
 * The sealer a function's environment calls for: KMS when the stack named its secrets key, the local
 * key file under the local runtime, none otherwise (then no secret can be sealed or opened, and
 * webhooks carry the HMAC signatures only).
 */
import type { SecretSealer } from '#domain/signing/secret-sealer';
import { KmsSecretSealer } from './kms-secret-sealer';
import { LocalSecretSealer } from './local-secret-sealer';

/** @param settings - `SECRETS_KEY_ARN` and `LOCAL_SECRETS_KEY_FILE` as `loadEnv` read them */
export function createSecretSealer(settings: {
  readonly SECRETS_KEY_ARN?: string | undefined;
  readonly LOCAL_SECRETS_KEY_FILE?: string | undefined;
}): SecretSealer | undefined {
  if (settings.SECRETS_KEY_ARN) return new KmsSecretSealer(settings.SECRETS_KEY_ARN);
  if (settings.LOCAL_SECRETS_KEY_FILE) return new LocalSecretSealer(settings.LOCAL_SECRETS_KEY_FILE);
  return undefined;
}
