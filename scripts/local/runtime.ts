/**
 * Herald without AWS: emulators, provisioned resources, the unmodified Lambda handlers, the API gateway
 * and the two kinds of event source mapping, composed in one process.
 *
 * The handlers read their configuration from `process.env` at module scope, so the runtime sets the SDK
 * endpoints and the function variables before it imports them. Node caches modules: one process can
 * therefore host one runtime with real handlers at a time (tests use `handlers` overrides, or one runtime
 * per test file).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { RECONCILER_EVENT_SOURCE } from '#config/delivery';
import type { FunctionKey } from '#config/functions';
import type { OrganizationUsage } from '#config/limits';
import { type ApiHandlers, createApiGateway } from './api-gateway';
import { applyEnv, applyLocalAwsEnv, findFreePort, type LocalEndpoints, startEmulators } from './emulators';
import { functionEnv, type HandlerOptions, loadHandlers } from './functions';
import { type LocalNoticeTopic, provisionNoticeTopic, startNoticeSchedule } from './notice-topic';
import { ensurePrivateTree } from './private-files';
import { type ProvisionedResources, provisionResources } from './provision';
import { startQueueLink } from './queue-link';
import { localSecretsKey } from './secrets-key';
import type { LocalCredentials } from './sigv4';
import { startStreamLink } from './stream-link';

/**
 * Concurrent consumer invocations of the local queue link (Lambda's `maximumConcurrency`, scaled down):
 * more than a degraded endpoint's default two slots, so a slow receiver holding both still leaves
 * pollers for everyone else, as the 20 concurrent consumers do in AWS.
 */
export const LOCAL_CONSUMER_CONCURRENCY = 4;

/** Options of {@link startLocalRuntime}. */
export interface LocalRuntimeOptions extends HandlerOptions {
  /** API port; default a free one. */
  readonly port?: number;
  /** Prefix of the table and queue names; default `herald-local`. */
  readonly prefix?: string;
  /** Use emulators that already run; otherwise the runtime starts (and later stops) its own. */
  readonly endpoints?: LocalEndpoints;
  /**
   * Persist emulator data (`<dataDir>/dynamodb`, `<dataDir>/sqs`) and the stream checkpoint here;
   * in-memory when absent. Only applies to emulators the runtime starts itself.
   */
  readonly dataDir?: string | undefined;
  /** The stack's `eventRetentionDays` (the settings item every publisher reads); events kept otherwise. */
  readonly eventRetentionDays?: number | undefined;
  /** `RETRY_SCHEDULE` of the functions (19 comma-separated seconds); the default schedule otherwise. */
  readonly retrySchedule?: string | undefined;
  /** Extra function environment variables, applied last. */
  readonly env?: Readonly<Record<string, string>>;
  /** Each organization's throttle and quota (the stack's usage plan); unmetered when absent. */
  readonly organizationUsage?: OrganizationUsage;
  /** Authorizer cache TTL; default `AUTHORIZER_CACHE_TTL_SECONDS`. */
  readonly authorizerCacheTtlSeconds?: number | undefined;
  /** Redrive limit of the delivery queue; default `DELIVERY_QUEUE.maxReceiveCount`. */
  readonly maxReceiveCount?: number;
  /** Concurrent pollers of the delivery queue; default {@link LOCAL_CONSUMER_CONCURRENCY}. */
  readonly consumerConcurrency?: number;
  /** The AWS access key the IAM routes accept; default a new random pair per start. */
  readonly operatorCredentials?: LocalCredentials;
  /** How often the notice summary runs (the stack's schedule: every minute); default 60 s. */
  readonly noticeSummaryEveryMs?: number;
  /** Receives errors of the event source and schedule emulations; default: logged to stderr. */
  readonly onError?: (
    source: 'forwarder' | 'consumer' | 'reconciler' | 'noticeSummary',
    error: unknown,
  ) => void;
}

/** A running local Herald. */
export interface LocalRuntime {
  /** Base URL of the API, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  readonly tableName: string;
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly endpoints: LocalEndpoints;
  readonly resources: ProvisionedResources;
  /** The platform team's notices topic (fauxqs SNS) and the inbox queue subscribed to it. */
  readonly noticeTopic: LocalNoticeTopic;
  /** The local operator's AWS credentials: sign requests to the IAM routes with them (SigV4, `execute-api`). */
  readonly credentials: LocalCredentials;
  /** The key file that seals secrets here (KMS's stand-in): seed organizations with its sealer. */
  readonly secretsKeyFile: string;
  /** The module URL each function was imported from (absent for overridden ones). */
  readonly handlerSources: Readonly<Partial<Record<FunctionKey, string>>>;
  /** Stops everything the runtime started, in reverse order, and restores `process.env`. Idempotent. */
  stop(): Promise<void>;
}

/** Starts the local runtime; on failure, whatever was already started is stopped again. */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const stopAll = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch((error: unknown) => console.error('[runtime] stop failed', error));
    }
  };
  try {
    let endpoints = options.endpoints;
    if (!endpoints) {
      const dataDir = options.dataDir;
      if (dataDir) ensurePrivateTree(dataDir);
      // The emulators lead their own process groups: a Ctrl+C in the terminal reaches only this process,
      // which stops the links before the emulators instead of having them vanish under an invocation.
      const emulators = await startEmulators({
        dynamodb: dataDir ? { dataDir: join(dataDir, 'dynamodb') } : {},
        sqs: dataDir ? { dataDir: join(dataDir, 'sqs') } : {},
      });
      cleanups.push(() => emulators.stop());
      endpoints = emulators.endpoints;
    }
    cleanups.push(applyLocalAwsEnv(endpoints));
    const prefix = options.prefix ?? 'herald-local';
    const resources = await provisionResources({
      prefix,
      sqsEndpoint: endpoints.sqs,
      maxReceiveCount: options.maxReceiveCount,
      eventRetentionDays: options.eventRetentionDays,
    });
    const noticeTopic = await provisionNoticeTopic(prefix, endpoints.sqs);
    const port = options.port ?? (await findFreePort());
    const baseUrl = `http://127.0.0.1:${port}`;
    if (options.dataDir) ensurePrivateTree(options.dataDir);
    const secrets = localSecretsKey(options.dataDir);
    cleanups.push(secrets.cleanup);
    cleanups.push(
      applyEnv({
        ...functionEnv(options, resources, baseUrl),
        LOCAL_SECRETS_KEY_FILE: secrets.file,
        NOTICE_TOPIC_ARN: noticeTopic.topicArn,
      }),
    );
    const { handlers, sources: handlerSources } = await loadHandlers(options);

    const credentials = options.operatorCredentials ?? newOperatorCredentials();
    const gateway = createApiGateway({
      handlers: handlers as ApiHandlers,
      authorizerCacheTtlSeconds: options.authorizerCacheTtlSeconds,
      organizationUsage: options.organizationUsage,
      operatorCredentials: credentials,
    });
    await gateway.listen(port);
    cleanups.push(() => gateway.close());

    const report = options.onError ?? ((source, error) => console.error(`[${source}]`, error));
    const forwarder = startStreamLink({
      streamArn: resources.streamArn,
      handler: handlers.forwarder,
      checkpointFile: options.dataDir ? join(options.dataDir, `${prefix}-stream-checkpoint.json`) : undefined,
      onError: (error) => report('forwarder', error),
    });
    cleanups.push(() => forwarder.stop());
    const consumer = await startQueueLink({
      queueUrl: resources.queueUrl,
      queueArn: resources.queueArn,
      handler: handlers.consumer,
      concurrency: options.consumerConcurrency ?? LOCAL_CONSUMER_CONCURRENCY,
      onError: (error) => report('consumer', error),
    });
    cleanups.push(() => consumer.stop());
    const reconciler = await startQueueLink({
      queueUrl: resources.dlqUrl,
      queueArn: resources.dlqArn,
      handler: handlers.reconciler,
      batchSize: RECONCILER_EVENT_SOURCE.batchSize,
      concurrency: 1,
      onError: (error) => report('reconciler', error),
    });
    cleanups.push(() => reconciler.stop());
    const summary = startNoticeSchedule({
      handler: handlers.noticeSummary,
      everyMs: options.noticeSummaryEveryMs ?? 60_000,
      onError: (error) => report('noticeSummary', error),
    });
    cleanups.push(() => summary.stop());

    let stopping: Promise<void> | undefined;
    return {
      baseUrl,
      tableName: resources.tableName,
      queueUrl: resources.queueUrl,
      dlqUrl: resources.dlqUrl,
      endpoints,
      resources,
      noticeTopic,
      credentials,
      secretsKeyFile: secrets.file,
      handlerSources,
      stop: () => {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A random access key pair in the shape of AWS's (`AKIA…` id, 40-character secret). */
function newOperatorCredentials(): LocalCredentials {
  const id = randomBytes(16).toString('hex').toUpperCase().slice(0, 16);
  return { accessKeyId: `AKIA${id}`, secretAccessKey: randomBytes(30).toString('base64') };
}
