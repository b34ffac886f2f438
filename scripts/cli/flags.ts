/**
 * The CLI's flags: every command's, as `parseArgs` options, how a command reads a required, a
 * whole-number or a time one, and the usage mistake (exit code 2) when it is missing or malformed.
 */
import { parseTimestampParam } from '#http/timestamp-param';

/** A usage mistake: exit code 2 and the usage text. */
export class UsageError extends Error {}

/** The flags of every command (`parseArgs` options). */
export const OPTIONS = {
  name: { type: 'string' },
  org: { type: 'string' },
  iban: { type: 'string' },
  'webhook-url': { type: 'string' },
  'endpoint-id': { type: 'string' },
  url: { type: 'string' },
  'event-types': { type: 'string' },
  filter: { type: 'string' },
  description: { type: 'string' },
  enabled: { type: 'string' },
  'delivery-order': { type: 'string' },
  'after-sequence': { type: 'string' },
  account: { type: 'string' },
  type: { type: 'string' },
  version: { type: 'string' },
  example: { type: 'string' },
  payload: { type: 'string' },
  file: { type: 'string' },
  id: { type: 'string' },
  'key-id': { type: 'string' },
  scope: { type: 'string' },
  'expires-at': { type: 'string' },
  'overlap-hours': { type: 'string' },
  'triggered-at': { type: 'string' },
  'type-version': { type: 'string' },
  erase: { type: 'boolean' },
  'api-url': { type: 'string' },
  region: { type: 'string' },
  'older-than': { type: 'string' },
  'recover-since': { type: 'string' },
  'ttl-minutes': { type: 'string' },
  schemes: { type: 'string' },
  page: { type: 'string' },
  'per-page': { type: 'string' },
  deprecated: { type: 'string' },
  'payload-encryption-key': { type: 'string' },
  'tls-client-certificate': { type: 'string' },
  'tls-client-key': { type: 'string' },
  'tls-ca-certificate': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The flags given, by name. */
export type Flags = { readonly [K in keyof typeof OPTIONS]?: string | boolean | undefined };

/** A string flag that must be given. */
export function required(flags: Flags, flag: keyof Flags): string {
  const value = flags[flag];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${flag} is required.`);
  return value;
}

/**
 * A time flag in the API's form, `YYYY-MM-DD HH:MM:SS` (UTC; ISO `YYYY-MM-DDTHH:MM:SSZ` too), as ISO 8601
 * with milliseconds; undefined when absent.
 */
export function timestamp(flags: Flags, flag: keyof Flags): string | undefined {
  const text = flags[flag];
  if (text === undefined) return undefined;
  try {
    return parseTimestampParam(`--${flag}`, String(text));
  } catch {
    throw new UsageError(`--${flag} must be "YYYY-MM-DD HH:MM:SS" (UTC).`);
  }
}

/** A whole-number flag, or undefined when absent. */
export function integer(flags: Flags, flag: keyof Flags, what: string): number | undefined {
  const text = flags[flag];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (typeof text !== 'string' || text === '' || !Number.isInteger(value) || value < 0) {
    throw new UsageError(`--${flag} must be ${what}.`);
  }
  return value;
}
