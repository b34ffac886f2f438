/**
 * The only reader of `process.env` under `lambdas/`. Handlers call {@link loadEnv} at module scope, so a
 * missing or malformed variable fails the cold start instead of the first request.
 */

/** Variables a function may need, and whether each is required when asked for. */
const VARIABLES = {
  TABLE_NAME: 'required',
  QUEUE_URL: 'required',
  PUBLIC_BASE_URL: 'optional',
  RETRY_SCHEDULE: 'optional',
  WEBHOOK_URL_POLICY: 'optional',
  DELIVERY_TIMEOUT_MS: 'optional',
  ENDPOINT_HEALTH: 'optional',
  /** The KMS key that seals secrets (AWS). */
  SECRETS_KEY_ARN: 'optional',
  /** The local runtime's secrets key file (never deployed). */
  LOCAL_SECRETS_KEY_FILE: 'optional',
  /**
   * `true`: the publish function accepts event types outside the catalog, their payloads only checked to
   * be JSON objects (a transition, context `herald:acceptUnknownEventTypes`); absent or `false`: refused.
   */
  ACCEPT_UNKNOWN_EVENT_TYPES: 'optional',
  /** The platform team's notices topic, which the notice summary publishes to. */
  NOTICE_TOPIC_ARN: 'required',
} as const;

type Variables = typeof VARIABLES;
/** Name of a variable Herald's functions read. */
export type EnvName = keyof Variables;

/** Name of a variable a function cannot start without, once it asks for it. */
export type RequiredEnvName = {
  [K in EnvName]: Variables[K] extends 'required' ? K : never;
}[EnvName];

/** The values of the requested variables; optional ones may be undefined. */
export type Env<K extends EnvName> = {
  readonly [P in K]: Variables[P] extends 'required' ? string : string | undefined;
};

/** Thrown at cold start when a required variable is missing. */
export class MissingEnvError extends Error {
  constructor(names: readonly string[]) {
    super(`Missing required environment variable(s): ${names.join(', ')}`);
    this.name = 'MissingEnvError';
  }
}

/**
 * Reads the named variables once. Empty strings count as missing.
 *
 * @param names - the variables this function uses
 * @param source - the environment, `process.env` unless a test passes another
 */
export function loadEnv<const K extends EnvName>(
  names: readonly K[],
  source: Readonly<Record<string, string | undefined>> = process.env,
): Env<K> {
  const values: Record<string, string | undefined> = {};
  const missing: string[] = [];
  for (const name of names) {
    const value = source[name];
    values[name] = value === '' ? undefined : value;
    if (VARIABLES[name] === 'required' && values[name] === undefined) missing.push(name);
  }
  if (missing.length > 0) throw new MissingEnvError(missing);
  return values as Env<K>;
}

/**
 * An on/off variable: `true` or `false`, absent meaning off.
 *
 * @throws Error naming the variable for any other value (at cold start, as a missing one does)
 */
export function isOn(name: EnvName, value: string | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`Environment variable ${name} must be true or false (got ${value})`);
}
