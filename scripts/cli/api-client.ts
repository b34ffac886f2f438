import { SignatureV4 } from '@smithy/signature-v4';
import type { InvalidParam } from '#domain/errors';
import { type CliTarget, NodeSha256 } from './target';

/** An error answer of the API, shown to the operator as its detail (and the fields it names). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** A successful answer: its status, parsed JSON body (undefined for 204) and `Link` header, if any. */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly link?: string | undefined;
}

/** A SigV4-signed call of Herald's API; rejects with {@link ApiError} for an error answer. */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<ApiAnswer>;

/** Calls `target`, signing every request for `execute-api` in the target's region. */
export function apiClient(target: CliTarget): ApiCall {
  const signer = new SignatureV4({
    service: 'execute-api',
    region: target.region,
    credentials: target.credentials,
    sha256: NodeSha256,
  });
  return async (method, path, body) => {
    const url = new URL(`${target.apiUrl}${path}`);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const query: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) query[name] = [...(query[name] ?? []), value];
    const signed = await signer.sign({
      method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query,
      headers: {
        host: url.host,
        ...(text === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(text === undefined ? {} : { body: text }),
    });
    const headers = { ...signed.headers };
    // fetch sets Host itself (the same value); it refuses to be given one.
    delete headers.host;
    const response = await fetch(url, { method, headers, ...(text === undefined ? {} : { body: text }) });
    const answer = await response.text();
    const parsed: unknown = answer === '' ? undefined : JSON.parse(answer);
    if (!response.ok) throw new ApiError(response.status, problemText(parsed, response.status));
    return { status: response.status, body: parsed, link: response.headers.get('link') ?? undefined };
  };
}

function problemText(body: unknown, status: number): string {
  const problem = (body ?? {}) as { detail?: string; invalid_params?: InvalidParam[] };
  const params = (problem.invalid_params ?? []).map((param) => `${param.name}: ${param.reason}`);
  const detail = problem.detail ?? `HTTP ${status}`;
  // A refusal of several fields says them all in its detail already.
  return params.length === 0 || params.every((param) => detail.includes(param))
    ? detail
    : `${detail} (${params.join('; ')})`;
}
