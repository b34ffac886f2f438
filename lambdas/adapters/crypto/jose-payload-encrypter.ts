/**
 * {@link PayloadEncrypter} with `jose` (panva): JWE compact serialization, key management
 * `RSA-OAEP-256`, content encryption `A256GCM`, `cty: application/json`, `kid` = the key's thumbprint.
 * `jose` is imported on first use, so a consumer whose endpoints take plain JSON never loads it.
 */
import type { RsaPublicJwk } from '#domain/endpoint-security/endpoint-security';
import type { PayloadEncrypter } from '#domain/endpoint-security/ports';

/** The JWE protected header's algorithms. */
export const JWE_ALGORITHMS = { alg: 'RSA-OAEP-256', enc: 'A256GCM' } as const;

export class JosePayloadEncrypter implements PayloadEncrypter {
  private jose: Promise<typeof import('jose')> | undefined;

  async encrypt(key: RsaPublicJwk, keyId: string, plaintext: string): Promise<string> {
    this.jose ??= import('jose');
    const { CompactEncrypt, importJWK } = await this.jose;
    const publicKey = await importJWK({ ...key, alg: JWE_ALGORITHMS.alg }, JWE_ALGORITHMS.alg);
    return new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader({ ...JWE_ALGORITHMS, cty: 'application/json', kid: keyId })
      .encrypt(publicKey);
  }
}
