/**
 * The secrets key (issue 18): a customer-managed KMS key of its own, rotated and retained; only the
 * consumer may decrypt (open) signing keys, only the functions that create or rotate them may generate
 * data keys (seal), each on its kinds of secret only (`kms:EncryptionContext:herald:kind`); no other
 * function holds any right on it or learns its ARN.
 */
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { actionsOf, synth } from './fixture';

const KEYS = Object.keys(FUNCTIONS) as FunctionKey[];
const stack = synth();
const [secretsKeyId] = Object.entries(stack.template.findResources('AWS::KMS::Key')).find(([, key]) =>
  String(key.Properties.Description).includes('signing keys'),
) ?? [''];

const onSecretsKey = (key: FunctionKey) =>
  stack.statements(key).filter((s) => JSON.stringify(s.Resource).includes(`"${secretsKeyId}"`));

describe('the secrets key', () => {
  it('is a rotated, retained customer-managed key of its own', () => {
    expect(secretsKeyId).not.toBe('');
    const key = stack.template.toJSON().Resources[secretsKeyId];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('is opened by the consumer only and sealed with by the functions that make keys, per kind', () => {
    const rights: Record<string, string[]> = {};
    for (const key of KEYS) {
      const actions = onSecretsKey(key).flatMap(actionsOf).sort();
      if (actions.length > 0) rights[key] = actions;
    }
    expect(rights).toEqual({
      consumer: ['kms:Decrypt'],
      administer: ['kms:GenerateDataKey'],
      manageSettings: ['kms:GenerateDataKey'],
    });
    for (const key of Object.keys(rights) as FunctionKey[]) {
      for (const statement of onSecretsKey(key)) {
        expect(statement.Condition).toEqual({
          StringEquals: { 'kms:EncryptionContext:herald:kind': ['signing-key', 'tls-client-key'] },
        });
      }
    }
  });

  it('is named (SECRETS_KEY_ARN) to exactly the functions with rights on it', () => {
    expect(KEYS.filter((key) => stack.env(key).SECRETS_KEY_ARN).sort()).toEqual(
      ['administer', 'consumer', 'manageSettings'].sort(),
    );
  });
});
