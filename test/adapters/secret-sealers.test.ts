/**
 * The sealers of `lambdas/adapters/secrets/`: a sealed secret opens only with its own context (kind and
 * owner) and unaltered; the local one keeps its key in a file; the KMS envelope asks KMS for a data key
 * per secret, with the context as encryption context, and decrypts each data key once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type KmsCalls, KmsSecretSealer } from '#adapters/secrets/kms-secret-sealer';
import { LocalSecretSealer } from '#adapters/secrets/local-secret-sealer';
import { SealerUnavailableError, type SecretSealer } from '#domain/signing/secret-sealer';

const dir = mkdtempSync(join(tmpdir(), 'herald-sealer-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ORG_A = { kind: 'signing-key', owner: 'org-a' } as const;
const ORG_B = { kind: 'signing-key', owner: 'org-b' } as const;
const SECRET = new Uint8Array(randomBytes(48));

/** A KMS stand-in: data keys wrapped by XOR under a master, bound to their context. */
function fakeKms(): KmsCalls & { decrypts: number; contexts: Record<string, string>[]; keyIds: string[] } {
  const master = randomBytes(32);
  const calls = {
    decrypts: 0,
    contexts: [] as Record<string, string>[],
    keyIds: [] as string[],
    async generateDataKey(_keyId: string, context: Record<string, string>) {
      calls.contexts.push(context);
      const plaintext = new Uint8Array(randomBytes(32));
      const wrapped = Buffer.concat([
        Buffer.from(JSON.stringify(context)),
        Buffer.from('|'),
        Buffer.from(plaintext.map((b, i) => b ^ (master[i] ?? 0))),
      ]);
      return { plaintext: new Uint8Array(plaintext), ciphertext: new Uint8Array(wrapped) };
    },
    async decrypt(keyId: string, ciphertext: Uint8Array, context: Record<string, string>) {
      calls.decrypts += 1;
      calls.keyIds.push(keyId);
      const text = Buffer.from(ciphertext);
      const bar = text.indexOf('|');
      if (text.subarray(0, bar).toString() !== JSON.stringify(context)) throw new Error('InvalidCiphertext');
      return new Uint8Array(text.subarray(bar + 1).map((b, i) => b ^ (master[i] ?? 0)));
    },
  };
  return calls;
}

function localSealer(): SecretSealer {
  const file = join(dir, `key-${Math.random()}`);
  writeFileSync(file, randomBytes(32), { mode: 0o600 });
  return new LocalSecretSealer(file);
}

describe.each([
  ['local', localSealer],
  ['kms', () => new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', fakeKms())],
])('the %s sealer', (_name, make: () => SecretSealer) => {
  it('opens what it sealed, for the same context only, and refuses an altered value', async () => {
    const sealer = make();
    const sealed = await sealer.seal(SECRET, ORG_A);
    expect(sealed).not.toContain(Buffer.from(SECRET).toString('base64url'));
    expect(await sealer.open(sealed, ORG_A)).toEqual(SECRET);
    await expect(sealer.open(sealed, ORG_B)).rejects.toThrow();
    await expect(sealer.open(sealed, { kind: 'signing-key', owner: 'org-a ' })).rejects.toThrow();
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    await expect(sealer.open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`, ORG_A)).rejects.toThrow();
    expect(await sealer.seal(SECRET, ORG_A)).not.toBe(sealed);
  });
});

describe('the KMS envelope', () => {
  it('binds each data key to the kind and owner, and decrypts a data key once per environment', async () => {
    const kms = fakeKms();
    const sealer = new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', kms);
    const sealed = await sealer.seal(SECRET, ORG_A);
    expect(kms.contexts).toEqual([{ 'herald:kind': 'signing-key', 'herald:owner': 'org-a' }]);
    for (let i = 0; i < 5; i += 1) expect(await sealer.open(sealed, ORG_A)).toEqual(SECRET);
    expect(kms.decrypts).toBe(1);
    // Decrypt names the key: KMS refuses a data key made under any other.
    expect(kms.keyIds).toEqual(['arn:aws:kms:eu-central-1:111122223333:key/x']);
    // Another context is KMS's question again, and KMS refuses it.
    await expect(sealer.open(sealed, ORG_B)).rejects.toThrow('InvalidCiphertext');
  });

  it('drops the least recently used data key when full, keeping the others', async () => {
    const kms = fakeKms();
    const sealer = new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', kms, 2);
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((owner) => sealer.seal(SECRET, { ...ORG_A, owner })),
    );
    const open = (sealed: string | undefined, owner: string) =>
      sealer.open(sealed ?? '', { ...ORG_A, owner });
    await open(a, 'a');
    await open(b, 'b');
    await open(a, 'a'); // a is now the most recently used
    await open(c, 'c'); // full: b goes, a stays
    expect(kms.decrypts).toBe(3);
    await open(a, 'a');
    expect(kms.decrypts).toBe(3);
    await open(b, 'b');
    expect(kms.decrypts).toBe(4);
  });

  it.each([
    ['throttled', { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }],
    ['failing inside', { name: 'KMSInternalException', $metadata: { httpStatusCode: 500 } }],
    ['marked retryable by the SDK', { name: 'SomethingNew', $retryable: {} }],
    ['out of reach', { name: 'Error', code: 'ETIMEDOUT' }],
  ])('says KMS %s is unavailable for now, not that the value does not open', async (_what, fault) => {
    const kms = fakeKms();
    const sealer = new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', kms);
    const sealed = await sealer.seal(SECRET, ORG_A);
    const failing = new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', {
      ...kms,
      decrypt: () => Promise.reject(Object.assign(new Error('KMS said no'), fault)),
    });
    await expect(failing.open(sealed, ORG_A)).rejects.toBeInstanceOf(SealerUnavailableError);
  });

  it('passes a refusal on as it is: the value does not open', async () => {
    const kms = fakeKms();
    const sealed = await new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', kms).seal(
      SECRET,
      ORG_A,
    );
    const denied = Object.assign(new Error('no'), {
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
    });
    const failing = new KmsSecretSealer('arn:aws:kms:eu-central-1:111122223333:key/x', {
      ...kms,
      decrypt: () => Promise.reject(denied),
    });
    await expect(failing.open(sealed, ORG_A)).rejects.toBe(denied);
  });
});
