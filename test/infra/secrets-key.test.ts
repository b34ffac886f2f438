/**
 * The secrets key (issue 18): a customer-managed KMS key of its own, rotated and retained; only the
 * functions that send webhooks (the consumer, and the test event sender of issue 31) may decrypt (open)
 * signing keys and client keys, only the functions that create or rotate them may generate
 * data keys (seal), each on its kinds of secret only (`kms:EncryptionContext:herald:kind`); no other
 * function holds any right on it or learns its ARN. Its key policy (issue 28) lets the account administer
 * it but gives no one else a way to use it: no `kms:*` for the account, which any principal with
 * `kms:Decrypt` on `*` in its IAM policy would inherit.
 */
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import { actionsOf, type Json, synth } from './fixture';

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

  it('is opened by the webhook senders only and sealed with by the functions that make keys, per kind', () => {
    const rights: Record<string, string[]> = {};
    for (const key of KEYS) {
      const actions = onSecretsKey(key).flatMap(actionsOf).sort();
      if (actions.length > 0) rights[key] = actions;
    }
    expect(rights).toEqual({
      consumer: ['kms:Decrypt'],
      sendTestEvent: ['kms:Decrypt'],
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
      ['administer', 'consumer', 'manageSettings', 'sendTestEvent'].sort(),
    );
  });
});

describe('the secrets key’s policy', () => {
  const policy = stack.template.toJSON().Resources[secretsKeyId].Properties.KeyPolicy;
  const principalOf = (statement: Json): string => JSON.stringify(statement.Principal);
  const roleOf = (key: FunctionKey) => JSON.stringify(stack.fn(key).Properties.Role);
  const CRYPTO = /^kms:(\*|Decrypt|Encrypt|GenerateDataKey.*|ReEncrypt.*|CreateGrant|Create\*|.*\*)$/;

  it('lets the account administer the key, and use it in no way', () => {
    const account = policy.Statement.filter((statement: Json) => principalOf(statement).includes(':root'));
    expect(account).toHaveLength(1);
    const actions: string[] = actionsOf(account[0]);
    expect(actions).toEqual(
      expect.arrayContaining(['kms:PutKeyPolicy', 'kms:ScheduleKeyDeletion', 'kms:DescribeKey']),
    );
    expect(actions.filter((action) => CRYPTO.test(action))).toEqual([]);
  });

  it('lets only the functions’ roles open and seal, each what it may, on its kinds of secret', () => {
    const uses = policy.Statement.filter((statement: Json) => !principalOf(statement).includes(':root'));
    const rights: Record<string, string[]> = {};
    for (const statement of uses) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Condition).toEqual({
        StringEquals: { 'kms:EncryptionContext:herald:kind': ['signing-key', 'tls-client-key'] },
      });
      for (const key of KEYS) {
        if (principalOf(statement).includes(JSON.parse(roleOf(key))['Fn::GetAtt'][0])) {
          rights[key] = [...(rights[key] ?? []), ...actionsOf(statement)].sort();
        }
      }
    }
    expect(rights).toEqual({
      consumer: ['kms:Decrypt'],
      sendTestEvent: ['kms:Decrypt'],
      administer: ['kms:GenerateDataKey'],
      manageSettings: ['kms:GenerateDataKey'],
    });
    // Every use statement names roles, nothing broader.
    for (const statement of uses) {
      const named = [statement.Principal.AWS].flat();
      expect(named.every((p: Json) => p['Fn::GetAtt']?.[1] === 'Arn')).toBe(true);
    }
  });
});
