/**
 * AES-256-GCM as both sealers use it: a fresh 96-bit IV per secret, the secret's context as additional
 * authenticated data (so a sealed value opens only for the owner and kind it was sealed for), and a
 * printable form `<iv>.<ciphertext+tag>` in base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretContext } from '#domain/signing/secret-sealer';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The associated data of a context: its kind and owner, unambiguous whatever the owner holds. */
export function associatedData(context: SecretContext): Buffer {
  return Buffer.from(JSON.stringify([context.kind, context.owner]), 'utf8');
}

/** `<iv>.<ciphertext and tag>`, base64url, of `plaintext` under `key` (32 bytes). */
export function encrypt(key: Uint8Array, plaintext: Uint8Array, context: SecretContext): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associatedData(context));
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

/** The plaintext of {@link encrypt}'s output; throws when the key, the context or a byte differs. */
export function decrypt(key: Uint8Array, sealed: string, context: SecretContext): Uint8Array {
  const [ivText, bodyText, extra] = sealed.split('.');
  if (ivText === undefined || bodyText === undefined || extra !== undefined) {
    throw new Error('not a sealed secret');
  }
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(associatedData(context));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return new Uint8Array(
    Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]),
  );
}

/** Splits `<prefix>.<rest>`; throws unless the prefix is the expected one. */
export function withoutPrefix(sealed: string, prefix: string): string {
  if (!sealed.startsWith(`${prefix}.`)) throw new Error(`not a ${prefix} sealed secret`);
  return sealed.slice(prefix.length + 1);
}
