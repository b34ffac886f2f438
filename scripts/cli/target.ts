import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UrlPolicy } from '#domain/webhook-url';
import { LOCAL_REGION } from '#local/emulators';

/** What `npm start` writes to `.herald/local.json` for the CLI and the tests. */
export interface LocalRuntimeInfo {
  readonly baseUrl: string;
  readonly region: string;
  readonly tableName: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string };
  readonly pid: number;
}

/** Path of the local runtime's info file, relative to the project directory. */
export const LOCAL_INFO_PATH = join('.herald', 'local.json');

/**
 * Writes `<dir>/.herald/local.json` for a running local runtime (what `npm start` does, and what the
 * CLI tests imitate).
 */
export function writeLocalInfo(dir: string, runtime: Omit<LocalRuntimeInfo, 'region' | 'pid'>): void {
  const info: LocalRuntimeInfo = {
    baseUrl: runtime.baseUrl,
    region: LOCAL_REGION,
    tableName: runtime.tableName,
    queueUrl: runtime.queueUrl,
    dlqUrl: runtime.dlqUrl,
    endpoints: runtime.endpoints,
    pid: process.pid,
  };
  mkdirSync(join(dir, '.herald'), { recursive: true });
  writeFileSync(join(dir, LOCAL_INFO_PATH), `${JSON.stringify(info, null, 2)}\n`);
}

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
