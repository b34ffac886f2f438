/**
 * `.herald/local.json`: how a running local runtime tells the CLI and the tests where it is. The local
 * runtime writes it; the CLI (`scripts/cli/target.ts`) reads it.
 */
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from './private-files';

/** Region of every local resource; the emulators accept any, the handlers read it from the env. */
export const LOCAL_REGION = 'us-east-1';

/** What `npm start` writes to `.herald/local.json` for the CLI and the tests. */
export interface LocalRuntimeInfo {
  readonly baseUrl: string;
  readonly region: string;
  readonly tableName: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string };
  /** The local operator's AWS key, which the emulated API Gateway accepts on IAM routes. */
  readonly credentials: AwsKey;
  readonly pid: number;
}

/** An AWS access key pair (and session token for temporary credentials). */
export interface AwsKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
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
    credentials: runtime.credentials,
    pid: process.pid,
  };
  // Owner-only, also over an older, wider file: it holds the local operator's secret key.
  ensurePrivateDir(join(dir, '.herald'));
  writePrivateFile(join(dir, LOCAL_INFO_PATH), `${JSON.stringify(info, null, 2)}\n`);
}
