/**
 * Opaque cursors for the operator's chunked routes (erasure, index upgrade, requeue): a DynamoDB
 * `LastEvaluatedKey`, base64url-encoded JSON.
 */
import { ValidationError } from '#domain/errors';

/** The cursor of the next chunk, or undefined when the read is complete. */
export function encodeCursor(key: Record<string, unknown> | undefined): string | undefined {
  return key === undefined ? undefined : Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The start key a cursor names; undefined for none.
 *
 * @throws ValidationError when the text is not a cursor this API handed out
 */
export function decodeCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const fields = typeof key === 'object' && key !== null ? Object.values(key) : [];
    if (fields.length > 0 && fields.every((value) => typeof value === 'string')) {
      return key as Record<string, unknown>;
    }
  } catch {
    // Not JSON: refused below.
  }
  throw new ValidationError('cursor', 'must be the cursor the previous answer returned');
}
