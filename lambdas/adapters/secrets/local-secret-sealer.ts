/**
 * The local runtime's {@link SecretSealer}: AES-256-GCM under one 32-byte key in a file of `.herald/`
 * (owner-only, made by the local runtime). Never deployed: there is no KMS emulator, and this keeps the
 * same seal/open contract, context binding included, so the code above it runs unchanged.
 */
import { readFileSync } from 'node:fs';
import type { SecretContext, SecretSealer } from '#domain/signing/secret-sealer';
import { decrypt, encrypt, withoutPrefix } from './aes-gcm';

/** Marks a value sealed by this adapter, so a KMS-sealed one is refused rather than misread. */
const PREFIX = 'hl1';
const KEY_BYTES = 32;

/** Seals with a key read once from `keyFile` (32 raw bytes). */
export class LocalSecretSealer implements SecretSealer {
  private readonly key: Uint8Array;

  constructor(keyFile: string) {
    this.key = new Uint8Array(readFileSync(keyFile));
    if (this.key.length !== KEY_BYTES) throw new Error(`${keyFile} must hold ${KEY_BYTES} bytes`);
  }

  async seal(plaintext: Uint8Array, context: SecretContext): Promise<string> {
    return `${PREFIX}.${encrypt(this.key, plaintext, context)}`;
  }

  async open(sealed: string, context: SecretContext): Promise<Uint8Array> {
    return decrypt(this.key, withoutPrefix(sealed, PREFIX), context);
  }
}
