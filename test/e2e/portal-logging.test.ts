/**
 * A portal sign-in token reaches no log, even when the functions log every invocation event
 * (`POWERTOOLS_LOGGER_LOG_EVENT=true`): the session handler overrides that, and the token travels in a
 * body, never in a URL. The handlers run in this process, so what they print is captured here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '#adapters/aws-clients';
import { DynamoDirectoryStore } from '#adapters/dynamodb/directory-store';
import { createOrganization } from '#use-cases/administer';
import { type LocalRuntime, startLocalRuntime } from '../../scripts/local/runtime';
import { testEndpoints, uniquePrefix } from '../support/resources';

let runtime: LocalRuntime;
let orgId: string;
const printed: string[] = [];
const writers = { out: process.stdout.write, err: process.stderr.write };

beforeAll(async () => {
  runtime = await startLocalRuntime({
    endpoints: testEndpoints(),
    prefix: uniquePrefix('portal-logging'),
    env: { POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_LOGGER_LOG_EVENT: 'true' },
  });
  orgId = (
    await createOrganization(new DynamoDirectoryStore(createDocumentClient(), runtime.tableName), 'Logs')
  ).id;
  const capture =
    (original: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      printed.push(String(chunk));
      return (original as (...args: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    };
  process.stdout.write = capture(writers.out) as typeof process.stdout.write;
  process.stderr.write = capture(writers.err) as typeof process.stderr.write;
});

afterAll(async () => {
  process.stdout.write = writers.out;
  process.stderr.write = writers.err;
  await runtime?.stop();
});

describe('portal sign-in logging', () => {
  it('logs the link request event but neither the token nor the session key', async () => {
    const minted = await fetch(`${runtime.baseUrl}/admin/organizations/${orgId}/portal-links`, {
      method: 'POST',
      body: JSON.stringify({ scope: 'read' }),
    });
    const { url } = (await minted.json()) as { url: string };
    const token = new URL(url).hash.slice('#token='.length);
    // Event logging is on: the link request was logged (it holds no secret).
    expect(printed.join('')).toContain('Lambda invocation event');
    expect(printed.join('')).toContain(`/admin/organizations/${orgId}/portal-links`);

    const answer = await fetch(`${runtime.baseUrl}/portal/session`, {
      method: 'POST',
      body: JSON.stringify({ token }),
    });
    expect(answer.status).toBe(201);
    const { api_key } = (await answer.json()) as { api_key: string };
    const output = printed.join('');
    expect(output).not.toContain(token);
    expect(output).not.toContain(api_key);
  });
});
