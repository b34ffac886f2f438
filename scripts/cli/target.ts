import { createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AwsKey, LOCAL_INFO_PATH, type LocalRuntimeInfo } from '#local/local-info';

/** The API the CLI calls and how it signs. */
export type { AwsKey };

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
