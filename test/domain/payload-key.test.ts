/**
 * The receiver's payload encryption key: RSA public keys of 2048 to 8192 bits with exponent 65537 as PEM
 * or JWK; anything else (short, EC, e = 1, a private key, garbage) is a 400 naming `payload_encryption_key`.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_PUBLIC_KEY_LENGTH } from '#config/limits';
import { parsePayloadKey, thumbprint } from '#domain/endpoint-security/payload-key';
import { ValidationError } from '#domain/errors';
import { catchError, invalidParams } from './catch-error';

const rsa = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits });
const jwkOf = (key: KeyObject) => key.export({ format: 'jwk' }) as Record<string, unknown>;

describe('payload encryption keys', () => {
  const { publicKey, privateKey } = rsa(2048);
  const pem = publicKey.export({ format: 'pem', type: 'spki' }).toString();

  it('take an RSA public key as PEM or JWK, kept as the same public JWK with its RFC 7638 thumbprint', () => {
    const fromPem = parsePayloadKey(pem);
    const fromJwk = parsePayloadKey(publicKey.export({ format: 'jwk' }) as Record<string, unknown>);
    expect(fromJwk).toEqual(fromPem);
    expect(fromPem.summary.bits).toBe(2048);
    expect(Object.keys(fromPem.jwk).sort()).toEqual(['e', 'kty', 'n']);
    expect(createPublicKey({ key: { ...fromPem.jwk }, format: 'jwk' }).equals(publicKey)).toBe(true);
    // RFC 7638's own example key and thumbprint.
    const example = {
      kty: 'RSA' as const,
      e: 'AQAB',
      n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
    };
    expect(thumbprint(example)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it.each([
    [
      'a 1024-bit key',
      () => rsa(1024).publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      /1024 bits/,
    ],
    [
      'an EC key',
      () =>
        generateKeyPairSync('ec', { namedCurve: 'P-256' })
          .publicKey.export({ format: 'pem', type: 'spki' })
          .toString(),
      /ec of/,
    ],
    [
      'a private key',
      () => privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      /never send a private key/,
    ],
    [
      'a private JWK',
      () => privateKey.export({ format: 'jwk' }) as Record<string, unknown>,
      /never send a private key/,
    ],
    ['a malformed PEM', () => '-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----', /as PEM/],
    ['a JWK without n', () => ({ kty: 'RSA', e: 'AQAB' }), /JWK object/],
    // e = 1 "encrypts" nothing: the padded content key would travel in the clear.
    ['public exponent 1', () => ({ ...jwkOf(publicKey), e: 'AQ' }), /public exponent 1$/],
    ['public exponent 3', () => ({ ...jwkOf(publicKey), e: 'Aw' }), /public exponent 3$/],
    [
      'public exponent 1 as PEM',
      () =>
        createPublicKey({ key: { ...jwkOf(publicKey), e: 'AQ' }, format: 'jwk' })
          .export({ format: 'pem', type: 'spki' })
          .toString(),
      /public exponent 1$/,
    ],
  ])('refuse %s, naming the field and what it allows', (_name, value, reason) => {
    const error = catchError(() => parsePayloadKey(value()));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).params).toEqual([
      { name: 'payload_encryption_key', reason: expect.stringMatching(reason) },
    ]);
    expect((error as ValidationError).params[0]?.reason).toMatch(
      /2048 to 8192 bits with public exponent 65537/,
    );
  });

  it('refuse a key longer than the bound before parsing it, naming the bound (PEM, or a JWK as JSON)', () => {
    const long = `${pem}${'\n'.repeat(MAX_PUBLIC_KEY_LENGTH)}`;
    expect(invalidParams(() => parsePayloadKey(long))).toEqual([
      {
        name: 'payload_encryption_key',
        reason: `must have at most ${MAX_PUBLIC_KEY_LENGTH} characters (PEM); this one has ${long.length}`,
      },
    ]);
    const jwk = { ...jwkOf(publicKey), x5c: ['A'.repeat(MAX_PUBLIC_KEY_LENGTH)] };
    expect(invalidParams(() => parsePayloadKey(jwk))).toEqual([
      {
        name: 'payload_encryption_key',
        reason: expect.stringMatching(
          new RegExp(`^must have at most ${MAX_PUBLIC_KEY_LENGTH} characters \\(JWK as JSON\\)`),
        ),
      },
    ]);
  });
});
