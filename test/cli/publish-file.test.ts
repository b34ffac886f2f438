/**
 * `herald publish --file` against a stand-in of `POST /events/batch` that reads each request with the
 * API's own parser (so a body over the byte limit is refused whole, and each entry on its own): large
 * lines sent in requests within the limit, a line too large for any request refused by its number, a
 * line's own `id` sent as it is whatever its type, and a progress file that cannot be used answered with
 * what to do, never with advice that would store lines twice.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, ApiError } from '#cli/api-client';
import { UsageError } from '#cli/flags';
import { publishFile } from '#cli/publish-file';
import { PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { ValidationError } from '#domain/errors';
import { parsePublishBatch } from '#http/events/batch-request';
import { apiEvent } from '../support/api-event';

const ACCOUNT = 'DE89370400440532013000';
const quiet = { write: () => true };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'herald-publish-file-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in of the API: every request's body size, and the ids it stored, in order. */
function batchApi() {
  const requestBytes: number[] = [];
  const stored: unknown[] = [];
  const call: ApiCall = async (method, path, body) => {
    expect([method, path]).toEqual(['POST', '/events/batch']);
    const text = JSON.stringify(body);
    requestBytes.push(Buffer.byteLength(text, 'utf8'));
    let entries: ReturnType<typeof parsePublishBatch>;
    try {
      entries = parsePublishBatch(apiEvent({ body: text }));
    } catch (error) {
      throw new ApiError(400, (error as Error).message);
    }
    const results = entries.map((entry) => {
      if (entry instanceof ValidationError) {
        return { status: 400, problem: { detail: entry.message, invalid_params: entry.params } };
      }
      stored.push(entry.id);
      return { status: 201, event: { sequence: stored.length } };
    });
    return { status: 200, body: { results } };
  };
  return { call, requestBytes, stored };
}

let files = 0;
/** A new file of `lines` (JSON lines as given), in the test's folder. */
function fileOf(lines: readonly unknown[]): string {
  files += 1;
  const file = join(dir, `events-${files}.ndjson`);
  writeFileSync(
    file,
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  );
  return file;
}

const event = (n: number, text = '') => ({ account: ACCOUNT, type: 'credit_received', payload: { n, text } });

describe('publish --file', () => {
  it('sends 100 lines of 20 KB in several requests within the byte limit, storing every line', async () => {
    const api = batchApi();
    const file = fileOf(Array.from({ length: 100 }, (_, i) => event(i + 1, 'x'.repeat(20_000))));
    const summary = await publishFile(api.call, file, quiet);
    expect(summary).toMatchObject({ lines: 100, stored: 100, refused: [], unsent: [] });
    expect(api.requestBytes.length).toBeGreaterThan(1);
    expect(Math.max(...api.requestBytes)).toBeLessThanOrEqual(PUBLISH_BATCH_MAX_BYTES);
  });

  it('refuses a line too large for any request as that line, and stores the others', async () => {
    const api = batchApi();
    const file = fileOf([event(1), event(2, 'x'.repeat(PUBLISH_BATCH_MAX_BYTES)), event(3)]);
    const summary = await publishFile(api.call, file, quiet);
    expect(summary).toMatchObject({ lines: 3, stored: 2, unsent: [] });
    expect(summary.refused).toEqual([
      { line: 2, status: 400, problem: expect.stringMatching(/^line 2: has \d+ bytes as JSON, over /) },
    ]);
    // Recorded as final: a run again sends nothing.
    const again = batchApi();
    expect(await publishFile(again.call, file, quiet)).toMatchObject({ stored: 2, refused: [{ line: 2 }] });
    expect(again.requestBytes).toEqual([]);
  });

  it('sends a line’s own id as it is, whatever its type, so the API refuses that line by its id', async () => {
    const api = batchApi();
    const own = '0190a8c4-5e1f-7d2a-8b3c-4d5e6f708192';
    const file = fileOf([
      { ...event(1), id: 123 },
      { ...event(2), id: null },
      { ...event(3), id: own },
      event(4),
    ]);
    const summary = await publishFile(api.call, file, quiet);
    expect(summary.refused.map((line) => [line.line, line.problem])).toEqual([
      [1, expect.stringMatching(/^events\[0\]\.id: /)],
      [2, expect.stringMatching(/^events\[1\]\.id: /)],
    ]);
    const header = JSON.parse(readFileSync(`${file}.herald-progress`, 'utf8').split('\n')[0] ?? '') as {
      ids: Record<string, string>;
    };
    expect(Object.keys(header.ids)).toEqual(['3', '4']);
    expect(api.stored).toEqual([own, header.ids['4']]);
  });

  it('says of a progress file whose first line was cut short that nothing was sent, and to remove it', async () => {
    const api = batchApi();
    const file = fileOf([event(1)]);
    for (const cut of ['', '{"sha256":"0b5f', '[]', '{"lines":1}']) {
      writeFileSync(`${file}.herald-progress`, cut);
      const refusal = publishFile(api.call, file, quiet);
      await expect(refusal).rejects.toThrow(UsageError);
      await expect(refusal).rejects.toThrow(
        /cannot be read: .* nothing was sent after it\. Remove it and run/,
      );
    }
    expect(api.requestBytes).toEqual([]);
  });

  it('never advises removing the progress file of a changed file, which would store its lines again', async () => {
    const api = batchApi();
    const file = fileOf([event(1), '{not json']);
    await publishFile(api.call, file, quiet);
    writeFileSync(file, JSON.stringify(event(1)));
    const refusal = publishFile(api.call, file, quiet);
    await expect(refusal).rejects.toThrow(UsageError);
    const message = await refusal.catch((error: Error) => error.message);
    expect(message).toMatch(/removing it would publish them again as new events/);
    expect(message).toMatch(/Put changed or new lines in a new file/);
    expect(message).not.toMatch(/remove it to/i);
    expect(api.stored).toHaveLength(1);
  });

  it('sends a request that failed as a whole (5xx, 429, no answer) again with the same ids, in order', async () => {
    const api = batchApi();
    const failures = [
      new ApiError(500, 'The request could not be completed.'),
      new TypeError('fetch failed'),
    ];
    const sent: unknown[] = [];
    const flaky: ApiCall = async (method, path, body) => {
      sent.push(body);
      const failure = failures.shift();
      if (failure) throw failure;
      return api.call(method, path, body);
    };
    const pauses: number[] = [];
    const file = fileOf([event(1), event(2)]);
    const summary = await publishFile(flaky, file, quiet, async (ms) => {
      pauses.push(ms);
    });
    expect(summary).toMatchObject({ lines: 2, stored: 2, refused: [], unsent: [] });
    expect(pauses).toEqual([1_000, 2_000]);
    // The same request each time: the ids written before the first send.
    expect(new Set(sent.map((body) => JSON.stringify(body))).size).toBe(1);
  });

  it('stops after four failed sends of one request, and sends no later request before it', async () => {
    let sends = 0;
    const down: ApiCall = async () => {
      sends += 1;
      throw new ApiError(503, 'busy');
    };
    const file = fileOf([event(1)]);
    await expect(publishFile(down, file, quiet, async () => {})).rejects.toThrow('busy');
    expect(sends).toBe(4);
    // A refusal of the request itself is not sent again.
    let refusals = 0;
    const refusing: ApiCall = async () => {
      refusals += 1;
      throw new ApiError(400, 'body: not JSON');
    };
    await expect(publishFile(refusing, file, quiet, async () => {})).rejects.toThrow('body: not JSON');
    expect(refusals).toBe(1);
  });
});
