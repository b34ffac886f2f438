/**
 * Event ids: UUID v7 generated here, UUID v4 or v7 accepted from callers. Endpoint ids: random, so that
 * metrics and logs can name an account's webhook endpoint without its IBAN.
 */
import { randomBytes } from 'node:crypto';

/** Canonical lower-case UUID of version 4 or 7 with the RFC 9562 variant. */
export const EVENT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Largest millisecond timestamp a UUID v7 can carry (48 bits). */
const MAX_UUIDV7_MS = 2 ** 48 - 1;

/**
 * A new UUID v7 (RFC 9562): 48-bit Unix milliseconds, then 74 random bits from `node:crypto`.
 *
 * Ids of one millisecond are unique by their randomness but not ordered among themselves; nothing in
 * Herald relies on that order (listings sort by `triggered_at`, then id, only as a tie-break).
 *
 * @param nowMs - the timestamp to embed; tests pass a fixed one
 */
export function uuidv7(nowMs: number = Date.now()): string {
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_UUIDV7_MS) {
    throw new RangeError(`uuidv7: timestamp must be an integer from 0 to ${MAX_UUIDV7_MS}, got ${nowMs}`);
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x70, 6);
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Whether the text is an acceptable event id: a UUID v4 or v7 in canonical lower-case form. Upper case
 * and braces are refused rather than normalised, so one event never has two spellings of its id.
 */
export function isEventId(text: string): boolean {
  return EVENT_ID_PATTERN.test(text);
}

/** An endpoint id: `ep_` and 12 lower-case hex digits. */
export const ENDPOINT_ID_PATTERN = /^ep_[0-9a-f]{12}$/;

/**
 * A new endpoint id: 48 random bits, unrelated to the IBAN (a hash of an IBAN could be reversed by trying
 * the bank's account numbers), so it may go where personal data may not: metric dimensions, dashboards.
 */
export function newEndpointId(): string {
  return `ep_${randomBytes(6).toString('hex')}`;
}
