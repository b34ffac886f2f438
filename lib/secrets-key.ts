import { RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { FunctionKey } from '#config/functions';
import { SECRET_ACCESS, SECRET_KIND_CONTEXT_KEY, type SecretKind } from '#config/secrets';

/**
 * What the account (its IAM policies) may do with the secrets key: administer it, never use it. No
 * `kms:Decrypt`, `kms:Encrypt`, `kms:GenerateDataKey*` or `kms:ReEncrypt*`, and no `kms:CreateGrant`,
 * which would let a principal grant itself those. `kms:PutKeyPolicy` stays: changing who may use the key
 * is administering it, and CloudTrail records it.
 */
export const KEY_ADMIN_ACTIONS = [
  'kms:DescribeKey',
  'kms:GetKeyPolicy',
  'kms:PutKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:EnableKeyRotation',
  'kms:DisableKeyRotation',
  'kms:RotateKeyOnDemand',
  'kms:ListKeyRotations',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:UpdateKeyDescription',
  'kms:ListResourceTags',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:ListGrants',
  'kms:RevokeGrant',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
];

/**
 * Herald's secrets key: the customer-managed KMS key that seals the secrets Herald must use again (the
 * organizations' Ed25519 private keys, the endpoints' TLS client keys), used only through envelope
 * encryption (a data key per secret). Its own key, apart from the table's optional one, so that no grant on table data reaches a secret.
 * Rotated yearly; retained on deletion, since sealed keys would not open without it.
 *
 * Its key policy replaces CDK's default (the account's root with `kms:*`, which hands the key to every
 * principal whose IAM policy allows `kms:Decrypt` on `*`, e.g. an administrator's or a broad read-only
 * role): the account administers it ({@link KEY_ADMIN_ACTIONS}), and only the roles of the functions
 * {@link SECRET_ACCESS} names may open or seal, each on its kinds of secret.
 */
export class SecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Herald: seals signing keys and TLS client keys (envelope encryption)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // The whole key policy: CDK v2 adds no default statement to a policy given here.
      policy: new iam.PolicyDocument({
        statements: [
          new iam.PolicyStatement({
            sid: 'AccountAdministersTheKeyButCannotUseIt',
            principals: [new iam.AccountRootPrincipal()],
            actions: KEY_ADMIN_ACTIONS,
            resources: ['*'],
          }),
        ],
      }),
    });
  }

  /**
   * Grants each function of {@link SECRET_ACCESS} what it may do, and only on the kinds of secret it
   * handles (`kms:EncryptionContext:herald:kind`): opening is `kms:Decrypt`, sealing
   * `kms:GenerateDataKey`, in the key policy (which alone lets a role use the key) and in the role's own
   * policy (where IAM's tools show a function's rights); tells those functions the key in `SECRETS_KEY_ARN`.
   */
  bind(functions: Readonly<Record<FunctionKey, lambda.Function>>): void {
    for (const [fnKey, access] of Object.entries(SECRET_ACCESS) as [
      FunctionKey,
      typeof SECRET_ACCESS.consumer,
    ][]) {
      const fn = functions[fnKey];
      const role = fn.role;
      if (!role) throw new Error(`${fnKey} has no role to grant the secrets key to`);
      const rights = [
        ...(access?.open?.length ? [['kms:Decrypt', access.open] as const] : []),
        ...(access?.seal?.length ? [['kms:GenerateDataKey', access.seal] as const] : []),
      ];
      for (const [action, kinds] of rights) {
        fn.addToRolePolicy(this.statement(action, kinds, [this.key.keyArn]));
        this.key.addToResourcePolicy(this.statement(action, kinds, ['*'], role));
      }
      fn.addEnvironment('SECRETS_KEY_ARN', this.key.keyArn);
    }
  }

  private statement(
    action: string,
    kinds: readonly SecretKind[],
    resources: string[],
    principal?: iam.IPrincipal,
  ): iam.PolicyStatement {
    return new iam.PolicyStatement({
      actions: [action],
      resources,
      ...(principal ? { principals: [principal] } : {}),
      conditions: { StringEquals: { [`kms:EncryptionContext:${SECRET_KIND_CONTEXT_KEY}`]: [...kinds] } },
    });
  }
}
