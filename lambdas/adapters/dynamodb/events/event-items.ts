/**
 * The layout of an event item: its keys and index keys, the deflated webhook body, and the attempts.
 * Attribute names are short where they repeat per attempt, because item size is billed on every write.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { type ItemKey, keys } from '#adapters/dynamodb/items';
import { ITEM_PREFIXES } from '#config/storage';
import { MAX_CYCLES } from '#delivery/retry-rule';
import type { DeliveryAttempt, EventRecord, EventRef, WebhookStatus } from '#domain/model';
import type { LogVoid, NewEvent } from '#domain/ports';
import { TOKEN_ID_PREFIX } from '#domain/signing/webhook-token';

/** Stored shape of one attempt (short names: the list is rewritten on every attempt). */
interface AttemptItem {
  at: string;
  status: number;
  body: string;
  ms: number;
  /** The URL it was sent to; absent on attempts recorded before it was kept. */
  url?: string;
  /**
   * Ids of the tokens and keys that signed it: a token's without its `whk_` prefix (the most frequent, kept
   * short), any other whole. Before signing keys had ids of their own (`whak_`), theirs were stored as a
   * token's and read back as `whk_` + the same 16 hex digits. Absent on attempts recorded before ids were kept.
   */
  keys?: string[];
}

/**
 * Stored shape of an event item: at (`LOG#<org>#<IBAN>`, sequence) in its account's log, or, stored
 * before sequences, at (`EVENT#<id>`, `EVENT`). Every write of an item is billed per started KB of the
 * whole item, so a typical event is kept under 1 KB: the id, organization, sequence and trigger time
 * live only in the keys (`pk`, `sk`, `gsi1pk`, `gsi1sk`), and the webhook body is stored
 * deflate-compressed (inflating gives back the exact bytes that were signed).
 */
export interface EventItem extends ItemKey {
  gsi1pk: string;
  gsi1sk: string;
  account: string;
  type: string;
  /** The version of its type the payload passed (`EventRecord.typeVersion`); absent without one. */
  tv?: number;
  body: Uint8Array;
  /**
   * The `X-Signature` of the latest attempt that sent a request, overwritten by each (absent before the
   * first), packed by {@link packSignature}: 36 bytes instead of 84 as text (68 instead of 156 during an
   * overlap), so a typical event stays within one write unit after its first attempt.
   */
  sig?: Uint8Array;
  /**
   * Events published before attempts signed themselves: the signature fixed at publish, which is what all
   * their attempts carried (an attempt's `sig` replaces it).
   */
  signature?: string;
  webhook_status: WebhookStatus;
  webhook_retries: number;
  cycle_base: number;
  /**
   * Cycles counted after the first (by `startCycle`: a new cycle after one that made an attempt); absent
   * until one is, so publishing writes nothing for it. See {@link cyclesOfItem} for items stored before
   * cycles were counted.
   */
  new_cycles?: number;
  deliveries: AttemptItem[];
  lease_until?: number;
  next_attempt_at?: number;
  expires_at?: number;
  /** Copy of `gsi1pk` while the event is failed: the key of the sparse `failed-by-org` index. */
  failed_org?: string;
  /** Copy of `gsi1pk` while the event is skipped: the key of the sparse `skipped-by-org` index. */
  skipped_org?: string;
  /** Epoch ms of the ticket that numbered the event (`EventRecord.ticketedAt`); absent without one. */
  rt?: number;
  /** The endpoints the event was routed to (`EventRecord.routes`); absent until routed, if ever. */
  routes?: string[];
  /** `EventRecord.routeCycle`: added by every new cycle; absent on an event never given one. */
  route_cycle?: number;
}

/**
 * The attribute of a void item (`LOG#<org>#<IBAN>`, a sequence's key, this and, for a sequence a publish
 * gave back, its ticket's `rt`): a closed missing sequence (`domain/log-holes.ts`), epoch ms of the
 * closing. Not pending and without index keys, so the stream filter and the indexes never see it.
 */
export const VOIDED_AT = 'voided_at';

/** Whether a log item is a void rather than an event. */
export function isVoid(item: Record<string, unknown>): boolean {
  return item[VOIDED_AT] !== undefined;
}

/** A void item as a read answers it: its sequence, and its ticket's time when a publish gave it back. */
export function voidOfItem(item: Record<string, unknown>): LogVoid {
  return { sequence: Number(item.sk), ticketedAt: item.rt === undefined ? undefined : Number(item.rt) };
}

/** The item written for a new event, in its account's log. */
export function eventItem(event: NewEvent): EventItem {
  return {
    ...keys.eventAt(event),
    gsi1pk: keys.eventIndexKey(event),
    gsi1sk: keys.eventOrder(event.triggeredAt, event.id),
    account: event.account,
    type: event.type,
    ...(event.typeVersion === undefined ? {} : { tv: event.typeVersion }),
    body: deflateRawSync(event.body, { level: 9 }),
    webhook_status: event.webhookStatus,
    webhook_retries: 0,
    cycle_base: 0,
    deliveries: [],
    ...(event.expiresAt === undefined ? {} : { expires_at: event.expiresAt }),
    ...(event.webhookStatus === 'skipped' ? { skipped_org: keys.eventIndexKey(event) } : {}),
    ...(event.ticketedAt === undefined ? {} : { rt: event.ticketedAt }),
  };
}

/** The event id inside an old-layout event item's `pk` (`EVENT#<id>`). */
export function eventIdOfKey(pk: string): string {
  return pk.slice(ITEM_PREFIXES.event.length);
}

/**
 * Where the event of an item (or of its index entry, which carries the table's keys, `gsi1sk` and
 * `account`) is: a log item's id is the tail of its `gsi1sk`, its sequence its sort key.
 */
export function refOfItem(item: Record<string, unknown>, orgId: string): EventRef {
  const pk = String(item.pk);
  const account = String(item.account);
  if (!pk.startsWith(ITEM_PREFIXES.log)) return { id: eventIdOfKey(pk), orgId, account };
  const order = String(item.gsi1sk);
  return { id: order.slice(order.indexOf('#') + 1), orgId, account, sequence: Number(item.sk) };
}

/** The organization of an event item, from its `by-org` key (`ORG#<org>#EVENTS`, `#<shard>` after it). */
export function orgOfItem(item: Record<string, unknown>): string {
  const key = String(item.gsi1pk).slice('ORG#'.length);
  return key.slice(0, key.lastIndexOf('#EVENTS'));
}

/** Stored attempt of a recorded {@link DeliveryAttempt}. */
export function attemptItem(attempt: DeliveryAttempt): AttemptItem {
  return {
    at: attempt.deliveredAt,
    status: attempt.responseStatus,
    body: attempt.responseBody,
    ms: attempt.responseTimeMs,
    ...(attempt.url === undefined ? {} : { url: attempt.url }),
    ...(attempt.signingKeys === undefined ? {} : { keys: attempt.signingKeys.map(storedKeyId) }),
  };
}

/** Bytes of one HMAC-SHA256 in a packed signature. */
const MAC_BYTES = 32;

/**
 * An `X-Signature` header (`t=<seconds>,sha256=<hex>[,sha256=<hex>]`) as stored: the timestamp as a
 * 4-byte unsigned integer (good until 2106), then each 32-byte MAC.
 *
 * @throws RangeError for a header of another form (the consumer makes them, so a programming error)
 */
export function packSignature(header: string): Uint8Array {
  const [stamp = '', ...entries] = header.split(',');
  const t = Number(stamp.slice('t='.length));
  const macs = entries.map((entry) => Buffer.from(entry.slice('sha256='.length), 'hex'));
  const wellFormed =
    stamp.startsWith('t=') &&
    Number.isInteger(t) &&
    t >= 0 &&
    t < 2 ** 32 &&
    entries.length > 0 &&
    entries.every((entry, i) => entry.startsWith('sha256=') && macs[i]?.length === MAC_BYTES);
  if (!wellFormed) throw new RangeError('packSignature: not an X-Signature header');
  const packed = Buffer.alloc(4);
  packed.writeUInt32BE(t);
  return Buffer.concat([packed, ...macs]);
}

/** The header a packed signature was made from. */
export function unpackSignature(packed: Uint8Array): string {
  const bytes = Buffer.from(packed);
  const entries = [`t=${bytes.readUInt32BE(0)}`];
  for (let at = 4; at + MAC_BYTES <= bytes.length; at += MAC_BYTES) {
    entries.push(`sha256=${bytes.subarray(at, at + MAC_BYTES).toString('hex')}`);
  }
  return entries.join(',');
}

/** The latest attempt's `X-Signature`; none before the first (an older item's publish-time one aside). */
function signatureOf(event: Partial<EventItem>): string | undefined {
  if (event.sig !== undefined) return unpackSignature(event.sig);
  return typeof event.signature === 'string' && Number(event.webhook_retries ?? 0) > 0
    ? event.signature
    : undefined;
}

/** Record of a stored event item (tolerates the list projection, which omits the attempts). */
export function toEventRecord(item: Record<string, unknown>): EventRecord {
  const event = item as Partial<EventItem>;
  const [triggeredAt = ''] = String(event.gsi1sk).split('#');
  return {
    ...refOfItem(item, orgOfItem(item)),
    type: String(event.type),
    typeVersion: event.tv === undefined ? undefined : Number(event.tv),
    triggeredAt,
    body: event.body === undefined ? '' : inflateRawSync(event.body).toString('utf8'),
    signature: signatureOf(event),
    webhookStatus: event.webhook_status ?? 'pending',
    webhookRetries: Number(event.webhook_retries ?? 0),
    cycleBase: Number(event.cycle_base ?? 0),
    cycles: cyclesOfItem(event),
    deliveries: toAttempts(event.deliveries),
    leaseUntil: event.lease_until === undefined ? undefined : Number(event.lease_until),
    nextAttemptAt: event.next_attempt_at === undefined ? undefined : Number(event.next_attempt_at),
    ticketedAt: event.rt === undefined ? undefined : Number(event.rt),
    ...(Array.isArray(event.routes) ? { routes: event.routes.map(String) } : {}),
    ...(event.route_cycle === undefined ? {} : { routeCycle: Number(event.route_cycle) }),
    ...(event.expires_at === undefined ? {} : { expiresAt: Number(event.expires_at) }),
  };
}

/**
 * The cycles an event item has counted (`EventRecord.cycles`), its current one included. Without
 * `new_cycles` it has counted none after the first, or it was stored before cycles were counted: an older
 * item counted only attempts, so its cycles after the first are read from `cycle_base`, the attempts
 * before its current cycle (each earlier cycle that counts made at least one), up to the cap. That never
 * reads fewer than it had. `startCycle`'s condition reads the same way
 * (`if_not_exists(new_cycles, cycle_base)`).
 */
export function cyclesOfItem(item: Partial<Pick<EventItem, 'new_cycles' | 'cycle_base'>>): number {
  const added = item.new_cycles ?? Math.min(MAX_CYCLES - 1, Number(item.cycle_base ?? 0));
  return 1 + Number(added);
}

/** The recorded attempts of a stored `deliveries` list (absent: none yet), oldest first. */
export function toAttempts(deliveries: unknown): DeliveryAttempt[] {
  return ((deliveries ?? []) as AttemptItem[]).map((a) => ({
    deliveredAt: a.at,
    responseStatus: Number(a.status),
    responseBody: a.body,
    responseTimeMs: Number(a.ms),
    url: a.url,
    signingKeys: a.keys?.map(keyIdOf),
  }));
}

/** A signing id as an attempt item stores it: a token's without its prefix, any other whole. */
function storedKeyId(id: string): string {
  return id.startsWith(TOKEN_ID_PREFIX) ? id.slice(TOKEN_ID_PREFIX.length) : id;
}

/** The id a stored attempt names: a bare one is a token's (and a signing key's stored before `whak_`). */
function keyIdOf(stored: string): string {
  return stored.includes('_') ? stored : TOKEN_ID_PREFIX + stored;
}
