/**
 * Validation of a new event before it is signed and stored. Everything a caller passes is checked at run
 * time, because the library is also called from plain JavaScript.
 */
import { ValidationError } from './errors';
import { childPointer } from './event-types/schema-walk';
import { parseIban } from './iban';
import { isEventId, uuidv7 } from './ids';

/** Largest serialised payload, in UTF-8 bytes, unless the caller sets another limit. */
export const DEFAULT_MAX_PAYLOAD_BYTES = 65_536;

/**
 * The highest limit a caller may set (`maxPayloadBytes`), 128 KiB: what one stored event item holds beside
 * every attempt it may ever make. The item (DynamoDB caps it at 400 KB) keeps the body deflated, which
 * saves nothing on an encrypted or random payload, and up to `MAX_CYCLES × MAX_ATTEMPTS` attempts of about
 * 4.3 KB each (`domain/truncate.ts`). A payload allowed past this would let an event be sent whose
 * attempts can no longer be recorded. It also keeps every answer, which reads an event back whole, far
 * within Lambda's 6 MB response.
 */
export const MAX_PAYLOAD_BYTES_CEILING = 131_072;

/** Deepest nesting of objects and arrays in a payload; keeps validation and later parsing bounded. */
export const MAX_PAYLOAD_DEPTH = 64;

/** Longest event type. */
export const MAX_EVENT_TYPE_LENGTH = 64;

/** Event type syntax: dot-separated lower-case snake_case segments, e.g. `credit_transfer_status_change`. */
export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** What a refused payload that is no JSON object is told. */
export const PAYLOAD_REASON = 'expected a JSON object';

/** What a refused event type is told. */
export const EVENT_TYPE_REASON = `expected lower-case snake_case segments separated by dots, at most ${MAX_EVENT_TYPE_LENGTH} characters (e.g. credit_transfer_status_change)`;

/** What a caller passes to publish an event. */
export interface PublishInput {
  /** IBAN, any case and spacing. */
  readonly account: string;
  readonly type: string;
  /** A plain JSON object. */
  readonly payload: unknown;
  /** UUID v4 or v7 (canonical lower case) for idempotent publishing; a new UUID v7 otherwise. */
  readonly id?: string | undefined;
  /** When the event happened: a Date or an ISO 8601 string with a zone; now otherwise. */
  readonly triggeredAt?: Date | string | undefined;
  /** The version of the type's payload schema the payload follows (1, 2, …); the latest when absent. */
  readonly version?: number | undefined;
}

/** A validated, normalised event input. */
export interface ValidPublishInput {
  readonly id: string;
  /** Normalised IBAN. */
  readonly account: string;
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  /** `JSON.stringify(payload)`: the exact text embedded in the webhook body. */
  readonly payloadJson: string;
  /** ISO 8601 UTC with milliseconds. */
  readonly triggeredAt: string;
  /** The version the publish named; undefined: the type's latest. */
  readonly version: number | undefined;
}

/** Options of {@link validatePublishInput}. */
export interface PublishInputOptions {
  readonly maxPayloadBytes?: number;
  /** The clock for the default `triggeredAt` and the time part of a generated id; tests pass a fixed one. */
  readonly now?: () => Date;
}

/** ISO 8601 with date, time and an explicit zone; fractions of a second up to milliseconds. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Checks and normalises a new event.
 *
 * @throws ValidationError naming the field (`account`, `type`, `payload` or a field inside it by its
 *   JSON pointer, `payload/amount`, `id`, `triggeredAt`, `version`)
 */
export function validatePublishInput(
  input: PublishInput,
  options: PublishInputOptions = {},
): ValidPublishInput {
  const maxPayloadBytes = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  if (
    !Number.isInteger(maxPayloadBytes) ||
    maxPayloadBytes < 2 ||
    maxPayloadBytes > MAX_PAYLOAD_BYTES_CEILING
  ) {
    throw new RangeError(
      `maxPayloadBytes must be an integer from 2 (the size of {}) to ${MAX_PAYLOAD_BYTES_CEILING}, got ${maxPayloadBytes}`,
    );
  }
  if (typeof input !== 'object' || input === null) throw new ValidationError('input', 'expected an object');
  const account = parseIban('account', requireString('account', input.account));
  const type = parseEventType('type', requireString('type', input.type));
  const { payload, payloadJson } = parsePayload(input.payload, maxPayloadBytes);
  const now = options.now ?? (() => new Date());
  const id = input.id === undefined ? uuidv7(now().getTime()) : parseId(input.id);
  const triggeredAt = parseTriggeredAt(input.triggeredAt ?? now());
  const version = input.version === undefined ? undefined : parseVersion(input.version);
  return { id, account, type, payload, payloadJson, triggeredAt, version };
}

/** Whether the text is a valid event type (syntax and length). */
export function isEventType(text: string): boolean {
  return text.length <= MAX_EVENT_TYPE_LENGTH && EVENT_TYPE_PATTERN.test(text);
}

/**
 * The event type, unchanged.
 *
 * @throws ValidationError naming `name` when the syntax or length is wrong
 */
export function parseEventType(name: string, text: string): string {
  if (!isEventType(text)) throw new ValidationError(name, EVENT_TYPE_REASON);
  return text;
}

function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new ValidationError(name, 'expected a string');
  return value;
}

function parseId(value: unknown): string {
  if (typeof value !== 'string' || !isEventId(value)) {
    throw new ValidationError('id', 'expected a UUID v4 or v7 in lower-case canonical form');
  }
  return value;
}

function parseVersion(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ValidationError(
      'version',
      "expected a positive integer, the type's version (absent: the latest)",
    );
  }
  return value;
}

/** Dates outside years 0000–9999 would render as ±YYYYYY and break the sort order of stored keys. */
function parseTriggeredAt(value: unknown): string {
  let date: Date | undefined;
  if (value instanceof Date) date = value;
  else if (typeof value === 'string' && ISO_TIMESTAMP.test(value)) date = new Date(value);
  const time = date?.getTime() ?? Number.NaN;
  if (date === undefined || Number.isNaN(time) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) {
    throw new ValidationError(
      'triggeredAt',
      'expected a Date or an ISO 8601 timestamp with zone (e.g. 2026-11-21T12:00:00Z), years 0000 to 9999',
    );
  }
  return date.toISOString();
}

function parsePayload(
  value: unknown,
  maxBytes: number,
): { payload: Readonly<Record<string, unknown>>; payloadJson: string } {
  if (!isPlainObject(value)) throw new ValidationError('payload', PAYLOAD_REASON);
  checkJsonValue(value, 'payload', 0, new Set());
  const payloadJson = JSON.stringify(value);
  const bytes = Buffer.byteLength(payloadJson, 'utf8');
  if (bytes > maxBytes) {
    throw new ValidationError('payload', `serialised payload has ${bytes} bytes, the limit is ${maxBytes}`);
  }
  return { payload: value, payloadJson };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Refuses what JSON.stringify would silently change or throw on: functions, symbols, bigints,
 * non-finite numbers, `undefined` in arrays, class instances (Date, Map…) and cycles. An `undefined`
 * object property is allowed and omitted, as JSON.stringify does: it is how optional fields look in
 * TypeScript, and the missing key means the same to a receiver.
 */
function checkJsonValue(value: unknown, path: string, depth: number, ancestors: Set<object>): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(value)) throw new ValidationError(path, 'NaN and Infinity are not JSON');
      return;
    case 'object':
      break;
    default:
      throw new ValidationError(path, `a ${typeof value} is not JSON`);
  }
  if (value === null) return;
  if (depth >= MAX_PAYLOAD_DEPTH) {
    throw new ValidationError(path, `nested deeper than ${MAX_PAYLOAD_DEPTH} levels`);
  }
  if (ancestors.has(value)) throw new ValidationError(path, 'circular reference');
  ancestors.add(value);
  if (Array.isArray(value)) {
    // An index loop, not forEach: holes of a sparse array are `undefined` here and refused.
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const at = childPointer(path, String(index));
      if (item === undefined) throw new ValidationError(at, 'undefined is not JSON');
      checkJsonValue(item, at, depth + 1, ancestors);
    }
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) checkJsonValue(item, childPointer(path, key), depth + 1, ancestors);
    }
  } else {
    throw new ValidationError(
      path,
      'only plain objects, arrays, strings, finite numbers, booleans and null are allowed (convert Dates and class instances first)',
    );
  }
  ancestors.delete(value);
}
