import { RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { FunctionKey } from '#config/functions';
import { SECRET_ACCESS, SECRET_KIND_CONTEXT_KEY, type SecretKind } from '#config/secrets';

/**
 * Herald's secrets key: the customer-managed KMS key that seals the secrets Herald must use again (the
 * organizations' Ed25519 private keys, the endpoints' TLS client keys), used only through envelope
 * encryption (a data key per secret). Its own key, apart from the table's optional one, so that no grant on table data reaches a secret.
 * Rotated yearly; retained on deletion, since sealed keys would not open without it.
 */
export class SecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Herald: seals signing keys and TLS client keys (envelope encryption)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /**
   * Grants each function of {@link SECRET_ACCESS} what it may do, and only on the kinds of secret it
   * handles (`kms:EncryptionContext:herald:kind`): opening is `kms:Decrypt`, sealing
   * `kms:GenerateDataKey`; tells those functions the key in `SECRETS_KEY_ARN`.
   */
  bind(functions: Readonly<Record<FunctionKey, lambda.Function>>): void {
    for (const [fnKey, access] of Object.entries(SECRET_ACCESS) as [
      FunctionKey,
      typeof SECRET_ACCESS.consumer,
    ][]) {
      const fn = functions[fnKey];
      if (access?.open?.length) fn.addToRolePolicy(this.statement('kms:Decrypt', access.open));
      if (access?.seal?.length) fn.addToRolePolicy(this.statement('kms:GenerateDataKey', access.seal));
      fn.addEnvironment('SECRETS_KEY_ARN', this.key.keyArn);
    }
  }

  private statement(action: string, kinds: readonly SecretKind[]): iam.PolicyStatement {
    return new iam.PolicyStatement({
      actions: [action],
      resources: [this.key.keyArn],
      conditions: { StringEquals: { [`kms:EncryptionContext:${SECRET_KIND_CONTEXT_KEY}`]: [...kinds] } },
    });
  }
}
