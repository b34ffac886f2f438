/**
 * What the operator CLI end-to-end tests share: `bin/herald.mjs` run as a child process, exactly as
 * `npx herald` runs it, in a directory whose `.herald/local.json` points at the test file's own local
 * runtime, plus the checks of a successful and a failed run.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import type { EndpointHealthView } from '#http/accounts/account-view';
import { writeLocalInfo } from '../../scripts/local/local-info';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { type ApiClient, connectApi } from './e2e-http';
import { transferPayload } from './payloads';
import { testEndpoints, uniquePrefix } from './resources';

const ROOT = resolve(import.meta.dirname, '../..');
/** The project's Node 24, as `npx herald` would use it. */
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const HERALD = join(ROOT, 'bin', 'herald.mjs');

export const GB = 'GB82WEST12345698765432';
export const DE = 'DE89370400440532013000';
export const UNREGISTERED = 'CH9300762011623852957';
export { TRANSFER } from './payloads';
/** A valid payload of {@link TRANSFER}. */
export const PAYLOAD = transferPayload();

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const API_KEY = /^herald_[A-Za-z0-9_-]{43}$/;
export const WEBHOOK_TOKEN = /^whsec_[A-Za-z0-9+/]{43}=$/;
/** A V8 stack frame, which an error message for an operator must not carry. */
const STACK_FRAME = /^\s+at .+[:(]/m;

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CreatedOrg {
  readonly id: string;
  readonly name: string;
  readonly webhook_token: string;
  readonly api_key: string;
}

export interface AccountView {
  readonly iban: string;
  readonly webhook_url: string | null;
  readonly endpoint_id: string | null;
  readonly delivery_order: 'concurrent' | 'ordered';
  readonly webhook_health: EndpointHealthView;
  readonly _links: { readonly self: string; readonly events: string };
}

export interface EventDetail {
  readonly id: string;
  readonly account: string;
  readonly type: string;
  readonly triggered_at: string;
  readonly payload: unknown;
  readonly signature: string;
  readonly webhook_status: string;
}

/** Options of {@link startCliFixture}. */
export interface CliFixtureOptions {
  /** Accounts (without webhook URL) the CLI puts for the organization before the tests run. */
  readonly accounts?: readonly string[];
  /** The deployment's event retention (the settings item), as the stack would set it. */
  readonly eventRetentionDays?: number;
}

/** A running local runtime, a CLI pointed at it, and the organization the CLI created. */
export interface CliFixture {
  readonly runtime: LocalRuntime;
  readonly api: ApiClient;
  readonly base: string;
  /** A directory without `.herald/local.json`. */
  readonly emptyDir: string;
  /** The run of `org create --name '  Acme CLI  '`. */
  readonly createdRaw: CliResult;
  readonly org: CreatedOrg;
  /** Runs the CLI (in the directory pointed at the runtime unless told otherwise); never rejects. */
  herald(args: readonly string[], cwd?: string, timeoutMs?: number): Promise<CliResult>;
  /** The CLI started in the working directory, to watch or interrupt it. */
  spawnHerald(args: readonly string[]): ChildProcess;
  /** The working directory (with `.herald/local.json`) the CLI runs in. */
  readonly workDir: string;
  stop(): Promise<void>;
}

/** Starts this file's runtime and creates its organization with the CLI (call in `beforeAll`). */
export async function startCliFixture(options: CliFixtureOptions = {}): Promise<CliFixture> {
  const runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('cli'),
    authorizerCacheTtlSeconds: 0,
    eventRetentionDays: options.eventRetentionDays,
  });
  const dirs: string[] = [];
  const stop = async (): Promise<void> => {
    await runtime.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = runtime.baseUrl;
    const workDir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
    dirs.push(workDir);
    const emptyDir = mkdtempSync(join(tmpdir(), 'herald-cli-empty-'));
    dirs.push(emptyDir);
    // What `npm start` writes (scripts/local/main.ts).
    writeLocalInfo(workDir, runtime);
    /** The child's environment: no SDK endpoints, so only `.herald/local.json` can point it at the emulators. */
    const cliEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && name !== 'NODE_OPTIONS'),
    );
    const herald = (args: readonly string[], cwd: string = workDir, timeout = 30_000): Promise<CliResult> =>
      new Promise((done) => {
        execFile(NODE, [HERALD, ...args], { cwd, env: cliEnv, timeout }, (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          done({ code, stdout, stderr });
        });
      });
    const api = await connectApi(base);
    const createdRaw = await herald(['org', 'create', '--name', '  Acme CLI  ']);
    const org = ok(createdRaw) as CreatedOrg;
    for (const iban of options.accounts ?? []) {
      ok(await herald(['account', 'put', '--org', org.id, '--iban', iban]));
    }
    const spawnHerald = (args: readonly string[]): ChildProcess =>
      spawn(NODE, [HERALD, ...args], { cwd: workDir, env: cliEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    return { runtime, api, base, workDir, emptyDir, createdRaw, org, herald, spawnHerald, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A successful run: exit 0, nothing on stderr, and stdout one JSON document. */
export function ok(result: CliResult): unknown {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.endsWith('\n')).toBe(true);
  return JSON.parse(result.stdout);
}

/** A failed run: this exit code, nothing on stdout, a `herald:` message on stderr and no stack trace. */
export function failed(result: CliResult, code: 1 | 2): string {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(STACK_FRAME);
  if (code === 2) expect(result.stderr).toContain('Usage: herald <command> [flags]');
  return result.stderr;
}
