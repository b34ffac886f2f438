import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UrlPolicy } from '#domain/webhook-url';
import { LOCAL_INFO_PATH, type LocalRuntimeInfo } from '#local/local-info';

/** Where the CLI works. */
export interface CliTarget {
  readonly tableName: string;
  /** Needed only by commands that queue deliveries. */
  readonly queueUrl?: string | undefined;
  readonly baseUrl: string;
  readonly urlPolicy: UrlPolicy;
  readonly local: boolean;
}

/** Flags that pick the target. */
export interface TargetFlags {
  readonly table?: string | undefined;
  readonly region?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly urlPolicy?: UrlPolicy | undefined;
  readonly queueUrl?: string | undefined;
}

/**
 * With `--table`, the CLI talks to AWS (credentials and region from the usual chain or `--region`).
 * Without it, it talks to the local runtime described by `.herald/local.json`, pointing the SDK at the
 * emulators through the standard endpoint variables.
 */
export function resolveTarget(flags: TargetFlags, cwd: string = process.cwd()): CliTarget {
  if (flags.table) {
    if (flags.region) process.env.AWS_REGION = flags.region;
    if (!flags.baseUrl) throw new Error('--base-url is required with --table (the stack output ApiUrl).');
    return {
      tableName: flags.table,
      baseUrl: flags.baseUrl,
      queueUrl: flags.queueUrl,
      urlPolicy: flags.urlPolicy ?? 'public-https',
      local: false,
    };
  }
  const path = join(cwd, LOCAL_INFO_PATH);
  if (!existsSync(path)) {
    throw new Error(
      `No local runtime found (${LOCAL_INFO_PATH} is missing): run "npm start", or pass --table/--region/--base-url for AWS.`,
    );
  }
  const info = JSON.parse(readFileSync(path, 'utf8')) as LocalRuntimeInfo;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = info.endpoints.dynamodb;
  process.env.AWS_ENDPOINT_URL_SQS = info.endpoints.sqs;
  process.env.AWS_REGION = info.region;
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  return {
    tableName: info.tableName,
    baseUrl: info.baseUrl,
    queueUrl: info.queueUrl,
    urlPolicy: flags.urlPolicy ?? 'local',
    local: true,
  };
}
