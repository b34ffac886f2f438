import type * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** How every log group of Herald's is kept: for how long and, when the stack has one, under which key. */
export interface LogSettings {
  readonly logRetention: logs.RetentionDays;
  /** Encrypts the log group; its policy must let CloudWatch Logs use it (see `HeraldStack`). @default - CloudWatch Logs' own encryption */
  readonly logKey?: kms.IKey | undefined;
}

/**
 * A log group of Herald's own, created explicitly rather than on first write: it gets a retention, and the
 * role writing to it needs no `logs:CreateLogGroup`.
 */
export function heraldLogGroup(scope: Construct, id: string, settings: LogSettings): logs.LogGroup {
  return new logs.LogGroup(scope, id, {
    retention: settings.logRetention,
    ...(settings.logKey === undefined ? {} : { encryptionKey: settings.logKey }),
  });
}
