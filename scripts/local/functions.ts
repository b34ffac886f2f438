/**
 * The stack's functions as the local runtime hosts them: each imported from its source (or from the
 * synthesized bundle `cdk deploy` uploads) unless replaced, given the variables the stack gives it, and
 * invoked with a fresh Lambda context.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { FUNCTION_SIZING } from '#config/function-sizing';
import { FUNCTIONS, type FunctionKey } from '#config/functions';
import type { ApiHandler, RouteFunctionKey, TokenAuthorizerHandler } from './api-gateway';
import { bundledHandlerFiles, type CloudAssemblySource } from './cloud-assembly';
import { LOCAL_REGION } from './emulators';
import type { ProvisionedResources } from './provision';
import type { QueueHandler } from './queue-link';
import type { StreamHandler } from './stream-link';

/** Every function of the stack, as the runtime invokes it (context already bound). */
export type FunctionHandlers = {
  readonly authorizer: TokenAuthorizerHandler;
  readonly forwarder: StreamHandler;
  readonly consumer: QueueHandler;
  readonly reconciler: QueueHandler;
  /** The notice summary: the local runtime's timer invokes it every minute (`notice-schedule.ts`). */
  readonly noticeSummary: () => Promise<unknown>;
} & { readonly [K in RouteFunctionKey]: ApiHandler };

/** Which code runs as the functions. */
export interface HandlerOptions {
  /** Replacements for the real handlers; those given are not imported. */
  readonly handlers?: Partial<FunctionHandlers>;
  /**
   * Run the bundles of this synthesized cloud assembly (what `cdk deploy` uploads) instead of the
   * TypeScript sources.
   */
  readonly bundles?: CloudAssemblySource;
  /** Called with each real handler's event just before it runs (the agreement check's phase timings). */
  readonly onInvoke?: (key: FunctionKey, event: unknown) => void;
}

/** The variables the CDK stack gives the functions, pointed at the local resources. */
export function functionEnv(
  options: { readonly retrySchedule?: string | undefined; readonly env?: Readonly<Record<string, string>> },
  resources: ProvisionedResources,
  baseUrl: string,
): Record<string, string> {
  // Quiet Powertools unless the developer asked for more: metrics would print EMF to stdout otherwise.
  const quietDefaults: Record<string, string> = {
    POWERTOOLS_SERVICE_NAME: 'herald',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    POWERTOOLS_METRICS_NAMESPACE: 'Herald',
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  for (const key of Object.keys(quietDefaults)) {
    if (process.env[key] !== undefined) delete quietDefaults[key];
  }
  return {
    ...quietDefaults,
    TABLE_NAME: resources.tableName,
    QUEUE_URL: resources.queueUrl,
    DLQ_URL: resources.dlqUrl,
    PUBLIC_BASE_URL: baseUrl,
    WEBHOOK_URL_POLICY: 'local',
    ...(options.retrySchedule ? { RETRY_SCHEDULE: options.retrySchedule } : {}),
    ...options.env,
  };
}

/**
 * Imports every function without an override: `lambdas/handlers/<entry>.ts`, or its bundle in `bundles`.
 */
export async function loadHandlers({ handlers: overrides = {}, bundles, onInvoke }: HandlerOptions): Promise<{
  handlers: FunctionHandlers;
  sources: Partial<Record<FunctionKey, string>>;
}> {
  const keys = Object.keys(FUNCTIONS) as FunctionKey[];
  const bundled = bundles === undefined ? undefined : bundledHandlerFiles(bundles);
  const sources: Partial<Record<FunctionKey, string>> = {};
  const loaded = await Promise.all(
    keys.map(async (key) => {
      const override = overrides[key];
      if (override) return [key, override] as const;
      const url = bundled
        ? pathToFileURL(bundled[key]).href
        : new URL(`../../lambdas/handlers/${FUNCTIONS[key]}.ts`, import.meta.url).href;
      const module = (await import(url)) as { handler?: unknown };
      if (typeof module.handler !== 'function') throw new Error(`${url} does not export a handler function`);
      sources[key] = url;
      const handler = module.handler as (event: unknown, context: Context) => Promise<unknown>;
      return [
        key,
        (event: unknown) => {
          onInvoke?.(key, event);
          return handler(event, lambdaContext(key));
        },
      ] as const;
    }),
  );
  return { handlers: Object.fromEntries(loaded) as unknown as FunctionHandlers, sources };
}

/** A fresh Lambda context per invocation, as Powertools and middy expect one. */
function lambdaContext(key: FunctionKey): Context {
  const functionName = `herald-local-${FUNCTIONS[key]}`;
  // The deployed timeout, so code that budgets its remaining time behaves as in AWS (not enforced here).
  const { timeoutSeconds, memoryMb } = FUNCTION_SIZING[key];
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
