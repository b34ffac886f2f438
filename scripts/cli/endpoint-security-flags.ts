/**
 * The endpoint-security flags of `account put` and `endpoint add|update`: each takes a file (PEM, or a
 * JWK as JSON), or `none` to remove what is stored; absent keeps it.
 */
import { readFileSync } from 'node:fs';
import { type Flags, UsageError } from './flags';

/** The flags and the body field each fills. */
const FILE_FLAGS = {
  'payload-encryption-key': 'payload_encryption_key',
  'tls-client-certificate': 'tls_client_certificate',
  'tls-client-key': 'tls_client_key',
  'tls-ca-certificate': 'tls_ca_certificate',
} as const;

/** The usage of the flags, for `account put`'s line. */
export const ENDPOINT_SECURITY_USAGE =
  '[--payload-encryption-key FILE|none] [--tls-client-certificate FILE|none --tls-client-key FILE|none] [--tls-ca-certificate FILE|none]';

/** The body fields the flags given ask for. */
export function endpointSecurityFields(flags: Flags): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [flag, field] of Object.entries(FILE_FLAGS) as [keyof typeof FILE_FLAGS, string][]) {
    const value = flags[flag];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${flag} takes a file, or none.`);
    fields[field] = value === 'none' ? null : fileValue(flag, value);
  }
  return fields;
}

/** A file's content: a JWK when it is JSON, the text (PEM) otherwise. */
function fileValue(flag: string, file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`--${flag}: cannot read ${file}.`);
  }
  return text.trimStart().startsWith('{') ? JSON.parse(text) : text;
}
