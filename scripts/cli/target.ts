import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_REGION } from '#local/emulators';

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
  mkdirSync(join(dir, '.herald'), { recursive: true });
  writeFileSync(join(dir, LOCAL_INFO_PATH), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

/** The API the CLI calls and how it signs. */
export interface CliTarget {
  /** Base URL without a trailing slash. */
  readonly apiUrl: string;
  readonly region: string;
  /** Credentials for SigV4: the local operator's, or the default AWS chain's. */
  readonly credentials: () => Promise<AwsKey>;
}

/** Flags that pick the target. */
export interface TargetFlags {
  readonly apiUrl?: string | undefined;
  readonly region?: string | undefined;
}

/**
 * With `--api-url`, the CLI calls that API with the default AWS credential chain (environment, profile,
 * SSO, instance role…); the region is `--region`, `AWS_REGION`, or the one in an execute-api host name.
 * Without it, it calls the local runtime described by `.herald/local.json` with the local operator key.
 */
export async function resolveTarget(flags: TargetFlags, cwd: string = process.cwd()): Promise<CliTarget> {
  if (flags.apiUrl) {
    const apiUrl = flags.apiUrl.replace(/\/+$/, '');
    const region =
      flags.region ??
      process.env.AWS_REGION ??
      process.env.AWS_DEFAULT_REGION ??
      /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com$/.exec(new URL(apiUrl).hostname)?.[1];
    if (!region) throw new Error('Pass --region (or set AWS_REGION): the API URL does not name one.');
    const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
    return { apiUrl, region, credentials: defaultProvider() };
  }
  const path = join(cwd, LOCAL_INFO_PATH);
  if (!existsSync(path)) {
    throw new Error(
      `No local runtime found (${LOCAL_INFO_PATH} is missing): run "npm start", or pass --api-url (the stack output ApiUrl).`,
    );
  }
  const info = JSON.parse(readFileSync(path, 'utf8')) as LocalRuntimeInfo;
  return { apiUrl: info.baseUrl, region: info.region, credentials: async () => info.credentials };
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** SHA-256 (and HMAC-SHA256) in the shape the SigV4 signer expects. */
export class NodeSha256 {
  private readonly hash;

  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }

  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}
