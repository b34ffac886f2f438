/**
 * The operational notices as types of the catalog: what Herald itself tells an organization about its
 * endpoints (`domain/notices/`). Their payload is `noticePayload(notice)`: every field in every kind, null
 * where the kind has nothing to say, so each type's schema pins which fields carry a value. They are
 * Herald's own: the catalog lists them, marked operational, and refuses them to a publish or a test event.
 */
import { CERTIFICATE_WARNING_DAYS } from '#domain/endpoint-security/client-certificate';
import { ValidationError } from '#domain/errors';
import { ENDPOINT_ID_PATTERN } from '#domain/ids';
import {
  DISABLING_SOON_PERCENTS,
  FAILING_NOTICE_AFTER,
  NOTICE_ANSWER_BYTES,
  NOTICE_KINDS,
  type Notice,
  type NoticeKind,
  noticeId,
} from '#domain/notices/notice';
import { noticePayload } from '#domain/notices/notice-payload';
import { FIELDS, field, payloadSchema } from './conventions';
import { builtInType, type EventTypeDefinition, type JsonSchemaObject } from './model';

/** A field of a kind's payload: its value always there, never (null), or there when known. */
type Presence = 'value' | 'null' | 'maybe';

/** The fields whose presence differs by kind; `account`, `endpoint_id`, `since`, `at` and `consecutive_failures` always carry one. */
type Optional =
  | 'percent'
  | 'disable_at'
  | 'reason'
  | 'last_answer'
  | 'event_id'
  | 'event_type'
  | 'sequence'
  | 'expires_at';

/** What one kind's type declares beside the shared fields. */
interface KindDeclaration {
  readonly title: string;
  readonly description: string;
  /** What `since` is for this kind. */
  readonly since: string;
  readonly presence: Readonly<Partial<Record<Optional, Presence>>>;
  readonly examples: readonly { readonly name: string; readonly summary: string; readonly notice: Notice }[];
}

/** The shape of each field when it carries a value. */
const SHAPES: Readonly<Record<Optional, JsonSchemaObject>> = {
  percent: {
    type: 'integer',
    enum: [...DISABLING_SOON_PERCENTS],
    description: 'The share of the auto-disable period passed, in per cent.',
  },
  disable_at: field(FIELDS.timestamp, 'When the endpoint is disabled if it keeps failing.'),
  reason: {
    type: 'string',
    description:
      "The endpoint's health reason in words: why it fails, or why it was disabled (a 410, the failing period, a person).",
  },
  last_answer: {
    type: 'object',
    description: "The receiver's last answer.",
    properties: {
      status: { type: 'integer', minimum: 0, maximum: 599, description: 'HTTP status; 0: no answer.' },
      body_excerpt: {
        type: 'string',
        description: `At most ${NOTICE_ANSWER_BYTES} bytes (UTF-8) of the answer's body, or the network error.`,
      },
    },
    required: ['status', 'body_excerpt'],
    additionalProperties: false,
  },
  event_id: {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    description: 'The event whose attempts ran out.',
  },
  event_type: { type: 'string', minLength: 1, maxLength: 128, description: "The event's type." },
  sequence: { type: 'integer', minimum: 1, description: "The event's place in its account's log." },
  expires_at: field(FIELDS.timestamp, "When the endpoint's client certificate expires."),
};

const NULL_TYPE: JsonSchemaObject = { type: 'null' };

/** A field as a kind declares it. */
function present(name: Optional, presence: Presence): JsonSchemaObject {
  const shape = SHAPES[name];
  if (presence === 'value') return shape;
  if (presence === 'null') return { ...NULL_TYPE, description: 'Null for this type.' };
  return { ...shape, type: [shape.type, 'null'], description: `${shape.description} Null when unknown.` };
}

function declare(kind: NoticeKind, declaration: KindDeclaration): EventTypeDefinition {
  const optional = Object.keys(SHAPES) as Optional[];
  const properties: Record<string, JsonSchemaObject> = {
    account: field(FIELDS.iban, "The organization's account whose endpoint it is, in full."),
    endpoint_id: {
      type: 'string',
      pattern: ENDPOINT_ID_PATTERN.source,
      description: 'The endpoint (`ep_…`); never its URL, which may carry a secret.',
    },
    since: field(FIELDS.timestamp, declaration.since),
    at: field(FIELDS.timestamp, 'When Herald decided the notice.'),
    consecutive_failures: {
      type: 'integer',
      minimum: 0,
      description:
        "Failed attempts in a row when the notice was decided: at the endpoint, or (`event_attempts_exhausted`) of the event's cycle.",
    },
    ...Object.fromEntries(
      optional.map((name) => [name, present(name, declaration.presence[name] ?? 'null')]),
    ),
  };
  return builtInType({
    type: kind,
    description: declaration.description,
    schema: payloadSchema(declaration.title, properties, Object.keys(properties)),
    examples: declaration.examples.map(({ name, summary, notice }) => ({
      name,
      summary,
      payload: { ...noticePayload(notice) },
    })),
  });
}

/** An example notice of `kind`, with what it says beside the shared fields. */
function example(kind: NoticeKind, epoch: string, fields: Partial<Notice>): Notice {
  const key = { kind, orgId: 'org_example', endpointId: 'ep_3f9a6c2e1b7d', epoch, ...fields };
  return {
    id: noticeId(key),
    account: 'DE89370400440532013000',
    at: epoch,
    consecutiveFailures: 0,
    ...key,
  };
}

const FAILED_ANSWER = { status: 503, bodyExcerpt: '<html><body>Service Unavailable</body></html>' };
const RUN_EPOCH = '2026-11-21T09:14:03.000Z';
const DISABLE_AT = '2026-11-26T09:14:03.000Z';

const HEALTH_FIELDS = { reason: 'maybe', last_answer: 'maybe' } as const;

const DECLARATIONS: Readonly<Record<NoticeKind, KindDeclaration>> = {
  endpoint_failing: {
    title: 'An endpoint started failing',
    description: `An endpoint failed ${FAILING_NOTICE_AFTER} attempts in a row: Herald retries, then slows its deliveries, and disables it at \`disable_at\` if it keeps failing. Fix the receiver (its last answer says why) before then. Told once per run of failures; shorter runs are not told.`,
    since: "The run's first failure.",
    presence: { ...HEALTH_FIELDS, disable_at: 'value' },
    examples: [
      {
        name: 'unavailable',
        summary: 'The receiver answered 503 four times in a row.',
        notice: example('endpoint_failing', RUN_EPOCH, {
          at: '2026-11-21T09:31:40.000Z',
          consecutiveFailures: FAILING_NOTICE_AFTER,
          disableAt: DISABLE_AT,
          reason: 'failing: answered 503',
          lastAnswer: FAILED_ANSWER,
        }),
      },
    ],
  },
  endpoint_disabling_soon: {
    title: 'A failing endpoint approaches its disable point',
    description: `An endpoint announced failing is still failing past ${DISABLING_SOON_PERCENTS.join(' % and past ')} % of the period after which Herald disables it (\`percent\`): it is disabled at \`disable_at\` unless an attempt succeeds first.`,
    since: "The run's first failure.",
    presence: { ...HEALTH_FIELDS, percent: 'value', disable_at: 'value' },
    examples: DISABLING_SOON_PERCENTS.map((percent) => ({
      name: `past_${percent}_percent`,
      summary: `Still failing past ${percent} % of the period.`,
      notice: example('endpoint_disabling_soon', RUN_EPOCH, {
        percent,
        at: '2026-11-23T21:20:11.000Z',
        consecutiveFailures: 41,
        disableAt: DISABLE_AT,
        reason: 'failing: answered 503',
        lastAnswer: FAILED_ANSWER,
      }),
    })),
  },
  endpoint_disabled: {
    title: 'An endpoint was disabled',
    description:
      'Herald stopped delivering to an endpoint: it answered 410 Gone, failed for the whole auto-disable period, or a person disabled it (`reason`). Its events wait: enable it (`PUT /accounts/{iban}/endpoints/{id}` with `enabled: true`, or the portal) once the receiver works, and they are delivered in order.',
    since: 'When the endpoint was disabled.',
    presence: HEALTH_FIELDS,
    examples: [
      {
        name: 'gone',
        summary: 'The receiver answered 410 Gone.',
        notice: example('endpoint_disabled', '2026-11-21T10:02:55.000Z', {
          consecutiveFailures: 1,
          reason: 'receiver answered 410 Gone',
          lastAnswer: { status: 410, bodyExcerpt: 'endpoint removed' },
        }),
      },
    ],
  },
  endpoint_recovered: {
    title: 'A failing endpoint recovered',
    description:
      'The first successful attempt after a run of failures that was announced (`endpoint_failing`): deliveries go at full pace again, and the events that waited follow in order.',
    since: "The run's first failure.",
    presence: HEALTH_FIELDS,
    examples: [
      {
        name: 'answered_again',
        summary: 'The receiver answered 200 after a run of 503s.',
        notice: example('endpoint_recovered', RUN_EPOCH, {
          at: '2026-11-21T11:45:09.000Z',
          lastAnswer: { status: 200, bodyExcerpt: '' },
        }),
      },
    ],
  },
  endpoint_enabled: {
    title: 'A disabled endpoint was enabled',
    description:
      'A disabled endpoint was enabled again (by the organization or an operator): Herald delivers to it again, its waiting events first, in order. `reason` says why it had been disabled.',
    since: 'When the endpoint was enabled.',
    presence: { reason: 'maybe' },
    examples: [
      {
        name: 'after_gone',
        summary: 'Enabled again after a 410 had disabled it.',
        notice: example('endpoint_enabled', '2026-11-22T08:00:12.000Z', {
          reason: 'receiver answered 410 Gone',
        }),
      },
    ],
  },
  event_attempts_exhausted: {
    title: 'An event used up its attempts',
    description:
      'An event failed every attempt of its delivery cycle at an endpoint: Herald stops trying it there (`webhook_status` `failed`). Redeliver it (`POST /events/{id}/redeliver`) once the receiver works, or reconcile it otherwise. Told once per event, endpoint and cycle; not for the events a `410 Gone` ends, which `endpoint_disabled` tells.',
    since: "The cycle's first attempt.",
    presence: { last_answer: 'maybe', event_id: 'value', event_type: 'value', sequence: 'maybe' },
    examples: [
      {
        name: 'never_accepted',
        summary: 'A received credit the receiver refused at every attempt.',
        notice: example('event_attempts_exhausted', '2026-11-20T07:00:01.000Z', {
          at: '2026-11-25T07:02:44.000Z',
          consecutiveFailures: 20,
          lastAnswer: { status: 500, bodyExcerpt: '{"error":"internal"}' },
          eventId: '0193a7c4-1d2e-7f00-8a00-4c1d9e2b7f30',
          eventType: 'credit_received',
          sequence: 4182,
        }),
      },
    ],
  },
  client_certificate_expiring: {
    title: "An endpoint's client certificate expires soon",
    description: `The client certificate Herald presents to an endpoint (mutual TLS) expires within ${CERTIFICATE_WARNING_DAYS} days (\`expires_at\`): after it, a receiver that checks it refuses every delivery. Upload a new one before then. Told once per certificate.`,
    since: `When fewer than ${CERTIFICATE_WARNING_DAYS} days were left: \`expires_at\` less ${CERTIFICATE_WARNING_DAYS} days.`,
    presence: { expires_at: 'value' },
    examples: [
      {
        name: 'two_weeks_left',
        summary: `A certificate found with fewer than ${CERTIFICATE_WARNING_DAYS} days left.`,
        notice: example('client_certificate_expiring', '2026-12-01T00:00:00.000Z', {
          at: '2026-12-01T06:30:00.000Z',
          expiresAt: '2026-12-15T00:00:00.000Z',
        }),
      },
    ],
  },
};

/** The notices' types, in {@link NOTICE_KINDS} order: listed by the catalog, published by Herald alone. */
export const NOTICE_EVENT_TYPES: readonly EventTypeDefinition[] = NOTICE_KINDS.map((kind) =>
  declare(kind, DECLARATIONS[kind]),
);

/** The notice type of that name, if any. */
export function noticeEventType(type: string): EventTypeDefinition | undefined {
  return NOTICE_EVENT_TYPES.find((definition) => definition.type === type);
}

/** A publish or test event naming a notice's type (400 naming `type`). */
export function reservedNoticeType(type: string): ValidationError {
  return new ValidationError(
    'type',
    `${type} is reserved for Herald's operational notices: Herald sends it, a gateway cannot publish it`,
  );
}
