/**
 * HTTP helpers for the end-to-end tests: every response goes through the OpenAPI validator, built from
 * the document the running API itself serves at `/openapi.json`, so the e2e suite is also the
 * conformance test of that document.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { expect } from 'vitest';
import { type AwsKey, NodeSha256 } from '#cli/target';
import type { OpenApiDocument } from '#http/openapi/objects';
import { PROBLEM_TYPE_BASE } from '#http/problem/problem-types';
import type { ProblemBody } from '#http/problem/render';
import { LOCAL_REGION } from '#local/emulators';
import { createOpenApiValidator, type OpenApiValidator } from './openapi-validator';

/** A response as the tests see it. */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The raw body text. */
  readonly text: string;
  /** The parsed JSON body; undefined when the body is empty. */
  readonly body: unknown;
}

/** How to call the API. */
export interface CallOptions {
  /** Default GET. */
  readonly method?: string;
  /** Sent as `Authorization: Bearer <key>`. */
  readonly key?: string;
  /** The raw `Authorization` header; wins over `key`. */
  readonly authorization?: string;
  /** A JSON body (sent as `application/json`). */
  readonly body?: unknown;
  /** The raw body text; wins over `body`. */
  readonly rawBody?: string;
  /** Sign the request with SigV4 (service `execute-api`, the local region) with these credentials. */
  readonly sign?: AwsKey;
}

/** A client of one running API whose every answer is checked against the served document. */
export interface ApiClient {
  readonly baseUrl: string;
  /** The body of `GET /openapi.json`, which the validator uses. */
  readonly document: OpenApiDocument;
  /** The answer of `GET /openapi.json` itself (already validated). */
  readonly documentResponse: ApiResponse;
  /**
   * Calls `pathOrUrl` (a path below the base URL, or an absolute URL such as a `Link` target) and
   * fails the test when the answer departs from the OpenAPI document, or when an error answer
   * carries internals (see {@link expectNoInternals}).
   */
  call(pathOrUrl: string, options?: CallOptions): Promise<ApiResponse>;
}

/** Fetches the API's own OpenAPI document and returns a client that validates against it. */
export async function connectApi(baseUrl: string): Promise<ApiClient> {
  const documentResponse = await request(baseUrl, '/openapi.json', {});
  expect(documentResponse.status, 'GET /openapi.json').toBe(200);
  const document = documentResponse.body as OpenApiDocument;
  const validator = createOpenApiValidator(document);
  check(validator, 'GET', `${baseUrl}/openapi.json`, documentResponse);
  return {
    baseUrl,
    document,
    documentResponse,
    call: async (pathOrUrl, options = {}) => {
      const response = await request(baseUrl, pathOrUrl, options);
      check(validator, options.method ?? 'GET', absolute(baseUrl, pathOrUrl), response);
      if (response.status >= 400) expectNoInternals(response.text);
      return response;
    },
  };
}

/**
 * Asserts a problem answer: the status, RFC 9457 media type, a body whose `status` and `type` agree,
 * `instance` equal to the request id the gateway sent, and nothing internal in the text.
 */
export function expectProblem(response: ApiResponse, status: number): ProblemBody {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = response.body as ProblemBody;
  expect(body.status).toBe(status);
  expect(body.type.startsWith(PROBLEM_TYPE_BASE)).toBe(true);
  expect(body.instance).toBe(response.headers.get('x-amzn-requestid'));
  expectNoInternals(response.text);
  return body;
}

/**
 * Error bodies must not leak stack frames, exception class names or SDK messages. (A bare "at " is not
 * checked: reasons such as "at most 64 characters" legitimately contain it; stack frames are matched
 * by their shape instead.)
 */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat [^\s()]+ \(|\bat (?:file:|node:|\/)|:\d+:\d+\)/);
  for (const fragment of [
    'Error:',
    'DynamoDB',
    'ValidationException',
    'ConditionalCheckFailed',
    'ResourceNotFound',
    'node_modules',
    '.ts:',
    'TypeError',
    'SyntaxError',
  ]) {
    expect(text).not.toContain(fragment);
  }
}

function absolute(baseUrl: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${baseUrl}${pathOrUrl}`;
}

async function request(baseUrl: string, pathOrUrl: string, options: CallOptions): Promise<ApiResponse> {
  let headers: Record<string, string> = {};
  const method = options.method ?? 'GET';
  const url = new URL(absolute(baseUrl, pathOrUrl));
  const sent = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (sent !== undefined) headers['content-type'] = 'application/json';
  if (options.sign) headers = await sigv4Headers(options.sign, method, url, headers, sent);
  const authorization = options.authorization ?? (options.key ? `Bearer ${options.key}` : undefined);
  if (authorization !== undefined) headers.Authorization = authorization;
  const response = await fetch(url, { method, headers, ...(sent === undefined ? {} : { body: sent }) });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let body: unknown;
  if (text !== '') body = /json/.test(contentType) ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, text, body };
}

function check(validator: OpenApiValidator, method: string, url: string, response: ApiResponse): void {
  const violations = validator.validateResponse({
    method,
    path: url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: response.body,
  });
  expect(violations, `${method} ${url} departs from /openapi.json`).toEqual([]);
}

/** The headers of a SigV4-signed request (by the AWS SDK's signer, not the emulator's verifier). */
export async function sigv4Headers(
  credentials: AwsKey,
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Record<string, string>> {
  const signer = new SignatureV4({
    service: 'execute-api',
    region: LOCAL_REGION,
    credentials,
    sha256: NodeSha256,
  });
  const query: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) query[name] = [...(query[name] ?? []), value];
  const signed = await signer.sign({
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: url.pathname,
    query,
    headers: { ...headers, host: url.host },
    ...(body === undefined ? {} : { body }),
  });
  const { host: _host, ...rest } = signed.headers;
  return rest;
}
