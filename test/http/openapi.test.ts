import { describe, expect, it } from 'vitest';
import {
  MAX_CERTIFICATE_PEM_LENGTH,
  MAX_PRIVATE_KEY_PEM_LENGTH,
  MAX_PUBLIC_KEY_LENGTH,
} from '#config/limits';
import { API_ROUTES } from '#config/routes';
import { HERALD_VERSION } from '#config/version';
import type { EventWithEndpoints } from '#domain/endpoints/event-parts';
import { ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '#domain/errors';
import type { EventRecord } from '#domain/model';
import { accountListLink, toAccountView } from '#http/accounts/account-view';
import { toEventSummary, toEventView } from '#http/events/event-view';
import { parseListQuery } from '#http/events/list-query';
import { linkHeader } from '#http/events/pagination';
import { toMigrationView } from '#http/events/redelivery-view';
import { buildOpenApiDocument } from '#http/openapi/document';
import type { OpenApiDocument } from '#http/openapi/objects';
import {
  GATEWAY_PROBLEMS,
  type GatewayProblem,
  METHOD_NOT_ALLOWED_PROBLEM,
  NOT_FOUND_PROBLEM,
  PROBLEM_TYPE_BASE,
} from '#http/problem/problem-types';
import { toProblem } from '#http/problem/render';
import { type Schema, targetOf } from '#http/schema';
import { base, body, iban, id, pendingRecord, record } from '../support/event-samples';
import { createOpenApiValidator, type ResponseSample } from '../support/openapi-validator';

const doc = buildOpenApiDocument(`${base}/`);
const validator = createOpenApiValidator(doc);
const JSON_TYPE: Record<string, string> = { 'Content-Type': 'application/json' };

/** What a client sees: the JSON text parsed back, so `undefined` members and prototypes are gone. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const summary = wire(toEventSummary(record, base)) as Record<string, unknown>;
/** An event delivered to its account's default endpoint, as `GET /events/{id}` shows it. */
const withDefault = (event: EventRecord): EventWithEndpoints => ({
  event,
  endpoints: [
    {
      endpointId: 'ep_00000000000d',
      status: event.webhookStatus,
      retries: event.webhookRetries,
      nextAttemptAt: event.nextAttemptAt,
    },
  ],
  attempts: event.deliveries.map((attempt) => ({ ...attempt, endpointId: 'ep_00000000000d' })),
});
const detail = wire(toEventView(withDefault(record), base)) as Record<string, unknown>;
const link = linkHeader(base, '/events', parseListQuery({ page: ['2'] }), true);
const PROBLEM_TYPE = { 'Content-Type': 'application/problem+json' };

/** A JSON answer as a response sample. */
const ok = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers = JSON_TYPE,
): ResponseSample => ({ method, path, status, headers, body });
const list = (items: unknown, headers: Record<string, string> = { ...JSON_TYPE, Link: link }) =>
  ok('GET', '/events?page=2', 200, items, headers);
const event = (body: unknown) => ok('GET', `/events/${id}`, 200, body);
/** A problem as the API renders it, as a response sample. */
const problemSample = (method: string, path: string, error: unknown): ResponseSample => {
  const problem = toProblem(error, 'req-1');
  return ok(method, path, problem.statusCode, JSON.parse(problem.body), problem.headers);
};
/** API Gateway's own problem answers (gateway responses), as the stack renders them. */
function gatewaySample(
  path: string,
  { status, slug, title, detail, headers }: GatewayProblem,
): ResponseSample {
  const body = { type: PROBLEM_TYPE_BASE + slug, title, status, detail, instance: 'r' };
  return ok('GET', path, status, body, { ...PROBLEM_TYPE, ...headers });
}

/** Every `$ref` string in the document, with where it was found. */
function refsOf(node: unknown, at = '#'): [string, string][] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string'
      ? [[at, value] as [string, string]]
      : refsOf(value, `${at}/${key}`),
  );
}

function pointer(document: OpenApiDocument, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (node, key) =>
        typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined,
      document,
    );
}

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);

describe('buildOpenApiDocument', () => {
  it('is an OpenAPI 3.1 document for the given server, without a trailing slash', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(HERALD_VERSION);
    expect(doc.servers).toEqual([{ url: base }]);
  });

  it('is plain JSON and the same for the same base URL', () => {
    expect(wire(doc)).toEqual(doc);
    expect(buildOpenApiDocument(base)).toEqual(doc);
  });

  it('has an operation for every route and a route for every operation, with unique operation ids', () => {
    const routes = API_ROUTES.map((route) => `${route.method} ${route.path}`).sort();
    expect(operations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(routes);
    const ids = operations.map((o) => o.operation?.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("documents each route's authorization: Bearer with 401, SigV4 with 403, manage scope with 403", () => {
    const security = { none: [], 'api-key': [{ apiKey: [] }], iam: [{ awsSigV4: [] }] };
    for (const route of API_ROUTES) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const operation = doc.paths[route.path]?.[method];
      const where = `${route.method} ${route.path}`;
      expect(operation?.security, where).toEqual(security[route.auth]);
      // A public route answers 401 only when its handler checks a credential of its own (a portal link).
      const ownCredential = route.path === '/portal/session';
      expect('401' in (operation?.responses ?? {}), where).toBe(route.auth === 'api-key' || ownCredential);
      // Sign-out's handler refuses (403) a key that is not a portal session's.
      const signOut = route.method === 'DELETE' && route.path === '/portal/session';
      const forbidden = route.auth === 'iam' || route.scope === 'manage' || signOut;
      expect('403' in (operation?.responses ?? {}), where).toBe(forbidden);
    }
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.awsSigV4).toMatchObject({ type: 'apiKey', name: 'Authorization' });
  });

  it('documents 429 and 500 everywhere and declares every path parameter', () => {
    for (const { path, operation } of operations) {
      expect(Object.keys(operation?.responses ?? {}), path).toEqual(expect.arrayContaining(['429', '500']));
      const declared = (operation?.parameters ?? []).map((p) => ('$ref' in p ? pointer(doc, p.$ref) : p));
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        expect(declared, path).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
    }
  });

  it('resolves every $ref', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const [at, ref] of refs) expect(pointer(doc, ref), `${ref} at ${at}`).toBeDefined();
  });

  it('points each typed $ref at the component its TypeScript type was taken from', () => {
    const typed: [string, unknown][] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const target = targetOf(node as Schema);
      const ref = (node as { $ref?: unknown }).$ref;
      if (target !== undefined && typeof ref === 'string') typed.push([ref, target]);
      for (const item of Object.values(node)) walk(item);
    };
    walk(doc);
    expect(typed.length).toBeGreaterThan(20);
    for (const [ref, target] of typed) expect(pointer(doc, ref), ref).toBe(target);
  });

  it('describes the webhook request and its signature headers', () => {
    const post = doc.webhooks.event?.post;
    const names = (post?.parameters ?? []).map((p) => ('name' in p ? p.name : p.$ref));
    expect(names).toEqual([
      'User-Agent',
      'X-Signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'Herald-Test',
    ]);
    expect(post?.requestBody?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/WebhookPayload',
    });
    expect(post?.description).toMatch(/HMAC-SHA256/);
    // A test event's body is a webhook's: `sequence` may be null, `test` is optional and only ever true.
    const payload = doc.components.schemas.WebhookPayload as {
      required: string[];
      properties: Record<string, { type?: unknown; const?: unknown }>;
    };
    expect(payload.properties.sequence?.type).toEqual(['integer', 'null']);
    expect(payload.properties.test?.const).toBe(true);
    expect(payload.required).not.toContain('test');
  });

  it('states the bounds of the endpoint-security fields as the API enforces them (maxLength)', () => {
    for (const path of ['/accounts/{iban}', '/admin/accounts/{iban}']) {
      const schema = doc.paths[path]?.put?.requestBody?.content['application/json']?.schema as {
        properties: Record<string, { maxLength?: number; oneOf?: { maxLength?: number }[] }>;
      };
      expect(schema.properties.tls_client_certificate?.maxLength, path).toBe(MAX_CERTIFICATE_PEM_LENGTH);
      expect(schema.properties.tls_ca_certificate?.maxLength, path).toBe(MAX_CERTIFICATE_PEM_LENGTH);
      expect(schema.properties.tls_client_key?.maxLength, path).toBe(MAX_PRIVATE_KEY_PEM_LENGTH);
      expect(schema.properties.payload_encryption_key?.oneOf?.[0]?.maxLength, path).toBe(
        MAX_PUBLIC_KEY_LENGTH,
      );
    }
  });

  it('documents the webhook body the service really sends', () => {
    const webhook = validatorFor('WebhookPayload');
    expect(webhook(JSON.parse(body))).toEqual([]);
    expect(webhook({ ...JSON.parse(body), signature: record.signature })).not.toEqual([]);
  });
});

/** Validates a value against one component schema, through a document with one route answering it. */
function validatorFor(schema: string): (value: unknown) => string[] {
  const content = { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } };
  const get = { operationId: 'probe', summary: 'probe', responses: { '200': { description: 'x', content } } };
  const probe = createOpenApiValidator({ ...doc, paths: { '/probe': { get } } });
  return (value) => probe.validateResponse(ok('GET', '/probe', 200, value));
}

describe('createOpenApiValidator accepts what the API sends', () => {
  const account = (webhookUrl?: string) =>
    toAccountView({ iban, orgId: 'o', webhookUrl, createdAt: '', updatedAt: '' }, base, { fullUrl: false });
  const accepted: [string, ResponseSample][] = [
    ['a page of events', list([summary])],
    ['an empty page, as an absolute URL', { ...list([]), path: `${base}/events` }],
    ['one event', event(detail)],
    ['a pending event with its next attempt', event(wire(toEventView(withDefault(pendingRecord), base)))],
    ['a pending event as listed', list([wire(toEventSummary(pendingRecord, base))])],
    ['health', ok('GET', '/health', 200, { status: 'ok', version: HERALD_VERSION })],
    ['the document itself', ok('GET', '/openapi.json', 200, wire(doc))],
    ['a redelivery', ok('POST', `/events/${id}/redeliver`, 202, { queued: [id] })],
    [
      'a reset, method in lower case',
      ok('post', '/management/webhooks/reset', 202, { queued: [], more: false }),
    ],
    [
      'a page of accounts',
      ok(
        'GET',
        '/accounts?page=2&per_page=2',
        200,
        wire([account('https://hooks.example.com/x?token=abc&flag'), account()]),
        {
          ...JSON_TYPE,
          Link: accountListLink(base, '/accounts', { page: 2, perPage: 2 }, { accounts: [], hasMore: true }),
        },
      ),
    ],
    ['an account', ok('GET', `/accounts/${iban}`, 200, wire(account()))],
    [
      'the last step of the upgrade to account logs, without a cursor',
      ok(
        'POST',
        '/admin/organizations/o/events/migrate',
        200,
        wire(toMigrationView({ migrated: 2, pending: 0, more: false })),
      ),
    ],
    ['a 400', problemSample('GET', '/events', new ValidationError('per_page', 'must be from 1 to 100'))],
    ['a 401 from a handler', problemSample('GET', '/events', new UnauthorizedError())],
    ['a 404', problemSample('GET', `/events/${id}`, new NotFoundError(`No event ${id}.`))],
    ['a 409', problemSample('POST', `/events/${id}/redeliver`, new ConflictError('already delivered'))],
    [
      'the gateway 405',
      {
        ...gatewaySample('/events', METHOD_NOT_ALLOWED_PROBLEM),
        method: 'DELETE',
        headers: { ...PROBLEM_TYPE, Allow: 'GET' },
      },
    ],
    ['a 500', problemSample('GET', `/accounts/${iban}`, new Error('secret cause'))],
    ['the gateway 401', gatewaySample('/accounts', GATEWAY_PROBLEMS.UNAUTHORIZED)],
    ['the root proxy 404', gatewaySample('/nowhere/at/all', NOT_FOUND_PROBLEM)],
    [
      'the unsigned IAM 403',
      { ...gatewaySample('/events', GATEWAY_PROBLEMS.MISSING_AUTHENTICATION_TOKEN), method: 'POST' },
    ],
    ['the gateway 429', gatewaySample('/health', GATEWAY_PROBLEMS.THROTTLED)],
  ];
  it.each(accepted)('%s', (_, sample) => {
    expect(validator.validateResponse(sample)).toEqual([]);
  });
});

describe('createOpenApiValidator rejects what breaks the contract', () => {
  const { _links: _, ...unlinked } = detail;
  const attempt = {
    delivery_at: '2026-11-21 12:34:57',
    response_body: '',
    response_status: 200,
    url: null,
    signing_keys: [],
    endpoint_id: null,
  };
  const notFound = problemSample('GET', `/events/${id}`, new NotFoundError('x'));
  const rejected: [string, ResponseSample, RegExp][] = [
    ['a payload on a list element', list([{ ...summary, payload: {} }]), /additional.*\(payload\)/],
    ['attempts on a list element', list([{ ...summary, webhook_deliveries: [] }]), /\(webhook_deliveries\)/],
    ['an event without _links', event(unlinked), /required property '_links'/],
    [
      'an ISO timestamp',
      list([{ ...summary, triggered_at: '2026-11-21T12:34:56Z' }]),
      /triggered_at must match/,
    ],
    [
      'a fractional response time',
      event({ ...detail, webhook_deliveries: [{ ...attempt, response_time: 1.5 }] }),
      /response_time must be integer/,
    ],
    [
      'a token in place of a signing key id',
      event({ ...detail, webhook_deliveries: [{ ...attempt, response_time: 1, signing_keys: ['whsec_x'] }] }),
      /signing_keys\/0 must match/,
    ],
    [
      'a signature of the old, untimed form',
      list([{ ...summary, signature: `sha256=${'0'.repeat(64)}` }]),
      /signature must match/,
    ],
    [
      'an unknown webhook_status',
      list([{ ...summary, webhook_status: 'delivered' }]),
      /webhook_status must be equal to one of/,
    ],
    ['a list without Link', list([summary], JSON_TYPE), /missing required header Link/],
    [
      'a malformed Link',
      list([summary], { ...JSON_TYPE, Link: '<x>; rel="next"' }),
      /header Link must match/,
    ],
    ['an undocumented status', { ...list([summary]), status: 201 }, /status 201 is not documented/],
    [
      'a 409 on reading an event',
      problemSample('GET', `/events/${id}`, new ConflictError('no')),
      /status 409 is not/,
    ],
    [
      'a wrong content type',
      list([summary], { 'Content-Type': 'text/html', Link: link }),
      /text\/html is not documented/,
    ],
    ['a problem as plain JSON', { ...notFound, headers: JSON_TYPE }, /application\/json is not documented/],
    [
      'a 401 without WWW-Authenticate',
      { ...problemSample('GET', '/events', new UnauthorizedError()), headers: PROBLEM_TYPE },
      /missing required header WWW-Authenticate/,
    ],
    [
      'a 405 without Allow',
      {
        ...gatewaySample('/health', METHOD_NOT_ALLOWED_PROBLEM),
        method: 'POST',
        headers: PROBLEM_TYPE,
      },
      /missing required header Allow/,
    ],
    ['a body status unlike the answer', { ...notFound, status: 500 }, /status must be equal to constant/],
    [
      'a 400 without invalid_params',
      { ...notFound, status: 400 },
      /must have required property 'invalid_params'/,
    ],
    ['a 200 on an unknown path', ok('GET', '/nowhere', 200, {}), /no documented path matches/],
    ['a 200 for an unserved method', ok('DELETE', '/events', 200, {}), /DELETE is not documented/],
    [
      'a malformed id in a redelivery',
      ok('POST', `/events/${id}/redeliver`, 202, { queued: ['A'] }),
      /queued\/0 must match/,
    ],
  ];
  it.each(rejected)('%s', (_, sample, message) => {
    expect(validator.validateResponse(sample).join('\n')).toMatch(message);
  });
});
