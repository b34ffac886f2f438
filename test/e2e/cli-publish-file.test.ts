/**
 * `herald publish --file` end to end: a 5,000-line file published through the local runtime's
 * `POST /events/batch`, its progress shown, the run killed midway and resumed from its progress file:
 * every line stored once, in the file's order, and the refused lines of another file named by number (one
 * too large for any request, one whose own `id` is no string), its large lines sent within the byte limit.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISH_BATCH_MAX_BYTES } from '#config/limits';
import { type CliFixture, type CreatedOrg, ok, startCliFixture, TRANSFER } from '../support/cli-fixture';
import { testIban } from '../support/delivery-queue-helpers';
import type { ApiClient } from '../support/e2e-http';
import { useFixture } from '../support/use-fixture';
import { waitFor } from '../support/wait';

let api: ApiClient;
let herald: CliFixture['herald'];
let spawnHerald: CliFixture['spawnHerald'];
let workDir: string;
let org: CreatedOrg;

useFixture(
  () => startCliFixture(),
  (fixture) => {
    ({ api, herald, spawnHerald, workDir, org } = fixture);
  },
);

const LINES = 5_000;

/** Every event of the account's feed, following `Link: next`. */
async function feedOf(iban: string): Promise<{ id: string; sequence: number; payload: { line: number } }[]> {
  const events: { id: string; sequence: number; payload: { line: number } }[] = [];
  let after = 0;
  for (;;) {
    const answer = await api.call(`/accounts/${iban}/events?after_sequence=${after}&limit=100`, {
      key: org.api_key,
    });
    expect(answer.status, answer.text).toBe(200);
    events.push(...(answer.body as typeof events));
    const next = /after_sequence=(\d+)[^>]*>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
    if (next === undefined) return events;
    after = Number(next);
  }
}

describe('publish --file', () => {
  it('publishes a 5,000-line file with progress, and resumes after being killed, storing every line once in order', {
    // Alone it takes about half a minute; beside the rest of the suite on two cores, DynamoDB Local serves
    // every file at once and a 100-event batch may take seconds.
    timeout: 1_200_000,
  }, async () => {
    const iban = testIban();
    ok(await herald(['account', 'put', '--org', org.id, '--iban', iban]));
    const file = join(workDir, 'collection.ndjson');
    const lines = Array.from({ length: LINES }, (_, line) =>
      JSON.stringify({ account: iban, type: TRANSFER, payload: { line: line + 1 } }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    const progress = `${file}.herald-progress`;

    // Killed once a few batches are recorded: the ids of every line were written before any was sent.
    const first = spawnHerald(['publish', '--file', file]);
    let firstErr = '';
    first.stderr?.on('data', (chunk: Buffer) => {
      firstErr += chunk.toString();
    });
    const exited = new Promise((done) => first.on('exit', done));
    await waitFor(() => existsSync(progress) && readFileSync(progress, 'utf8').split('\n').length > 5, {
      timeoutMs: 300_000,
      what: 'a few batches recorded',
    });
    first.kill('SIGKILL');
    await exited;
    const header = JSON.parse(readFileSync(progress, 'utf8').split('\n')[0] ?? '{}') as {
      ids: Record<string, string>;
    };
    expect(Object.keys(header.ids)).toHaveLength(LINES);
    expect(firstErr).toMatch(/herald publish: \d+\/5000 lines: \d+ stored, 0 duplicate, 0 refused/);

    const resumed = await herald(['publish', '--file', file], workDir, 900_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = JSON.parse(resumed.stdout) as {
      lines: number;
      stored: number;
      duplicate: number;
      refused: unknown[];
      unsent: unknown[];
    };
    expect(summary).toMatchObject({ lines: LINES, refused: [], unsent: [] });
    // Lines stored by the killed run but not recorded before the kill come back as duplicates.
    expect(summary.stored + summary.duplicate).toBe(LINES);
    expect(summary.stored).toBeGreaterThan(0);
    expect(resumed.stderr).toMatch(/herald publish: 5000\/5000 lines/);

    const feed = await feedOf(iban);
    // Gap-free: the one exception is a resent line that met its killed batch still being stored on the
    // server, whose sequence was given back (closed); so the feed may pass a few closed sequences.
    const sequences = feed.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect((sequences.at(-1) ?? 0) - LINES).toBeLessThanOrEqual(100);
    // In the file's order, each line once, under the id written for it before it was sent.
    expect(feed.map((event) => event.payload.line)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    expect(feed.map((event) => event.id)).toEqual(
      Array.from({ length: LINES }, (_, i) => header.ids[String(i + 1)]),
    );

    // Done: a third run sends nothing and says the same.
    const again = await herald(['publish', '--file', file], workDir, 60_000);
    expect(JSON.parse(again.stdout)).toMatchObject({
      lines: LINES,
      stored: summary.stored,
      duplicate: summary.duplicate,
    });
  });

  it('names the refused lines of a file by number and problem, stores the others, and exits 1', async () => {
    const iban = testIban();
    ok(await herald(['account', 'put', '--org', org.id, '--iban', iban]));
    const file = join(workDir, 'mixed.ndjson');
    const good = (n: number, text = '') =>
      JSON.stringify({ account: iban, type: TRANSFER, payload: { n, text } });
    // Together over the batch's 1 MiB: sent in more than one request.
    const large = Array.from({ length: 25 }, (_, i) => good(3 + i, 'x'.repeat(50_000)));
    writeFileSync(
      file,
      [
        good(1),
        '{not json',
        '',
        JSON.stringify({ account: iban, type: 'Bad Type', payload: {} }),
        good(2),
        JSON.stringify({ id: 123, account: iban, type: TRANSFER, payload: {} }),
        good(0, 'x'.repeat(PUBLISH_BATCH_MAX_BYTES)),
        ...large,
      ].join('\n'),
    );
    const run = await herald(['publish', '--file', file]);
    expect(run.code, run.stderr).toBe(1);
    const summary = JSON.parse(run.stdout) as {
      lines: number;
      stored: number;
      refused: { line: number; status: number; problem: string }[];
    };
    expect(summary).toMatchObject({ lines: 31, stored: 27 });
    expect(summary.refused.map((line) => [line.line, line.status])).toEqual([
      [2, 400],
      [4, 400],
      [6, 400],
      [7, 400],
    ]);
    expect(summary.refused.map((line) => line.problem)).toEqual([
      'line 2: not a JSON object',
      expect.stringMatching(/^events\[\d+\]\.type: /),
      expect.stringMatching(/^events\[\d+\]\.id: /),
      expect.stringMatching(/^line 7: has \d+ bytes as JSON, over /),
    ]);
  });
});
