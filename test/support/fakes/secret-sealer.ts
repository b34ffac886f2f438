/**
 * {@link SecretSealer} in memory: a sealed value names its context and carries the secret XORed with a
 * pad (so no test can read it off the stored item by accident); opening with another context fails, as
 * AES-GCM's associated data and KMS's encryption context make it fail. `opened` counts the opens (what
 * KMS would be asked without the data-key cache), `sealed` the seals.
 */
import type { SecretContext, SecretSealer } from '#domain/signing/secret-sealer';

const PAD = 0x5a;

export class FakeSecretSealer implements SecretSealer {
  readonly calls = { sealed: 0, opened: 0 };

  async seal(plaintext: Uint8Array, context: SecretContext): Promise<string> {
    this.calls.sealed += 1;
    const masked = Buffer.from(plaintext.map((byte) => byte ^ PAD)).toString('base64url');
    return `fake.${context.kind}.${context.owner}.${masked}`;
  }

  async open(sealed: string, context: SecretContext): Promise<Uint8Array> {
    this.calls.opened += 1;
    const prefix = `fake.${context.kind}.${context.owner}.`;
    if (!sealed.startsWith(prefix)) throw new Error('sealed for another context');
    return new Uint8Array(Buffer.from(sealed.slice(prefix.length), 'base64url').map((byte) => byte ^ PAD));
  }
}
