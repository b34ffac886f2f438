/**
 * `herald publish --file events.ndjson`: a file of events (one JSON object a line, as the body of
 * `POST /events`) published through `POST /events/batch`, in requests of as many lines as the batch's
 * bounds allow (`publish-batches.ts`), in the file's order, so the lines of one account take their
 * sequences in that order. Resumable: before anything is sent, the id of every line (its own, or a new
 * UUID v7) is written to `<file>.herald-progress`, and each batch's results are appended to it as they
 * come back; a run on the same file goes on from there, sending the lines without a final result again
 * with the same ids, so nothing is stored twice.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { uuidv7 } from '#domain/ids';
import { type ApiCall, ApiError } from './api-client';
import { UsageError } from './flags';
import { publishBatches, type SendableLine } from './publish-batches';
import { type Progress, progressReporter } from './publish-progress';

/** What became of one line, as the progress file keeps it. */
interface LineResult {
  readonly line: number;
  readonly status: number;
  readonly sequence?: number;
  /** Why a refused line was refused (the problem's detail and fields). */
  readonly problem?: string;
}

/** One entry of a batch answer (`PublishBatchResult` in the OpenAPI document). */
type BatchResult =
  | { status: 200 | 201; event: { sequence: number | null } }
  | { status: number; problem: { detail: string; invalid_params?: { name: string; reason: string }[] } };

/** What the command prints. */
export interface PublishFileSummary {
  readonly file: string;
  readonly lines: number;
  /** Lines stored (by this run or an earlier one on the file), as their answers said. */
  readonly stored: number;
  /**
   * Lines whose id was published before with the same content. After a run was killed, this counts the
   * lines it stored but had not recorded yet: sent again, they answer as duplicates.
   */
  readonly duplicate: number;
  /** Lines refused for their content (4xx): fix them in a new file. */
  readonly refused: readonly LineResult[];
  /** Lines not stored this time (5xx: busy, or a failure): run the same command again. */
  readonly unsent: readonly LineResult[];
}

/** Sends of one request before the run stops (the progress file keeps what was answered). */
const BATCH_SENDS = 4;

/**
 * Sends one request, again (after 1, 2, then 4 s) when it failed as a whole in a way another send may not
 * repeat: a 5xx or 429 answer (a function that ran out of time, a throttle) or no answer at all. Its
 * lines carry their ids, so a request that was stored before its answer was lost stores nothing twice
 * (they answer as duplicates); and the next request waits for it, keeping one account's lines in order.
 */
async function sendBatch(
  call: ApiCall,
  batch: readonly SendableLine[],
  pause: (ms: number) => Promise<void>,
): Promise<BatchResult[]> {
  for (let send = 1; ; send++) {
    try {
      const answer = await call('POST', '/events/batch', { events: batch.map((entry) => entry.body) });
      return (answer.body as { results: BatchResult[] }).results;
    } catch (error) {
      const transient = !(error instanceof ApiError) || error.status >= 500 || error.status === 429;
      if (!transient || send === BATCH_SENDS) throw error;
      await pause(1_000 * 2 ** (send - 1));
    }
  }
}

/** A line's result that another send cannot change: stored, a duplicate, or refused for its content. */
const isFinal = (status: number) => status < 500;

/**
 * Publishes the file's lines (blank lines are skipped, and counted by their line numbers), resuming from
 * its progress file, and answers the summary: lines stored now or by an earlier run, duplicates (the id
 * was published before), and refused lines with their line number and problem.
 */
export async function publishFile(
  call: ApiCall,
  file: string,
  stderr: Progress,
  pause: (ms: number) => Promise<void> = (ms) => new Promise((done) => setTimeout(done, ms)),
): Promise<PublishFileSummary> {
  const text = readText(file);
  const lines = text.split('\n');
  const progressFile = `${file}.herald-progress`;
  const hash = createHash('sha256').update(text).digest('hex');
  const state = loadProgress(progressFile, hash) ?? startProgress(progressFile, hash, lines);
  const refused: LineResult[] = [];
  const sendable: SendableLine[] = [];
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '' || state.results.has(line)) continue;
    const body = jsonObject(raw);
    if (body === undefined) {
      refused.push({ line, status: 400, problem: `line ${line}: not a JSON object` });
      continue;
    }
    // A line's own `id` is sent as it is, whatever its type, so the API refuses one that is no id by name
    // rather than the line being stored under another.
    sendable.push({ line, body: Object.hasOwn(body, 'id') ? body : { ...body, id: state.ids.get(line) } });
  }
  const { batches, tooLarge } = publishBatches(sendable);
  for (const { line, problem } of tooLarge) refused.push({ line, status: 400, problem });
  const report = progressReporter(stderr, state.total, state.results);
  const unsent: LineResult[] = [];
  const log = openSync(progressFile, 'a');
  try {
    const record = (results: readonly LineResult[]) => {
      writeSync(log, `${JSON.stringify({ results })}\n`);
      fsyncSync(log);
      for (const result of results) state.results.set(result.line, result);
      report.update();
    };
    record(refused);
    for (const batch of batches) {
      const results = await sendBatch(call, batch, pause);
      const answered = batch.map((entry, k) => lineResult(entry.line, results[k]));
      // Lines answered 5xx (a publish of the same id under way, a failure): sent again by the next run.
      unsent.push(...answered.filter((result) => !isFinal(result.status)));
      record(answered.filter((result) => isFinal(result.status)));
    }
  } finally {
    closeSync(log);
    report.done();
  }
  const all = [...state.results.values()];
  return {
    file,
    lines: state.total,
    stored: all.filter((result) => result.status === 201).length,
    duplicate: all.filter((result) => result.status === 200).length,
    refused: all.filter((result) => result.status >= 300).sort((a, b) => a.line - b.line),
    unsent,
  };
}

function lineResult(line: number, result: BatchResult | undefined): LineResult {
  if (result === undefined) return { line, status: 500, problem: 'no result for this line' };
  if ('event' in result) return { line, status: result.status, sequence: result.event.sequence ?? 0 };
  const fields = (result.problem.invalid_params ?? []).map((param) => `${param.name}: ${param.reason}`);
  return {
    line,
    status: result.status,
    problem: fields.length > 0 ? fields.join('; ') : result.problem.detail,
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--file ${file} cannot be read (${(error as NodeJS.ErrnoException).code}).`);
  }
}

/** The ids of the file's lines and the results known so far. */
interface ProgressState {
  readonly total: number;
  readonly ids: Map<number, string>;
  readonly results: Map<number, LineResult>;
}

/** The line's JSON object; undefined when it is not one. */
function jsonObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A progress file's first line: the file's hash, its number of lines and their ids. */
interface ProgressHeader {
  readonly sha256: string;
  readonly lines?: number;
  readonly ids: Record<string, string>;
}

/** Writes every line's id before anything is sent (synced to disk), so a resumed run sends the same ids. */
function startProgress(progressFile: string, hash: string, lines: readonly string[]): ProgressState {
  const ids = new Map<number, string>();
  let total = 0;
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    total += 1;
    // An unreadable line is refused without an id; a line's own id that is not a string is kept out of
    // the ids, as the line is sent as it is, to be refused.
    const body = jsonObject(raw);
    if (body === undefined) continue;
    if (!Object.hasOwn(body, 'id')) ids.set(index + 1, uuidv7(Date.now()));
    else if (typeof body.id === 'string') ids.set(index + 1, body.id);
  }
  const out = openSync(progressFile, 'w');
  writeSync(out, `${JSON.stringify({ sha256: hash, lines: total, ids: Object.fromEntries(ids) })}\n`);
  fsyncSync(out);
  closeSync(out);
  return { total, ids, results: new Map() };
}

/** The progress of an earlier run on the same file; undefined when there is none. */
function loadProgress(progressFile: string, hash: string): ProgressState | undefined {
  if (!existsSync(progressFile)) return undefined;
  const [header = '', ...rest] = readFileSync(progressFile, 'utf8').split('\n');
  const start = progressHeader(header);
  if (start === undefined) {
    // The header is synced to disk before the first request, so a run stopped while writing it sent nothing.
    throw new UsageError(
      `${progressFile} cannot be read: its first line, written before anything is sent, is incomplete ` +
        '(a run was stopped while writing it), so nothing was sent after it. Remove it and run the same ' +
        'command again.',
    );
  }
  if (start.sha256 !== hash) {
    throw new UsageError(
      `${progressFile} was made for another version of the file. Lines without an \`id\` got ids there ` +
        'that this run would not reuse: removing it would publish them again as new events. Put changed ' +
        'or new lines in a new file (or give every line an `id`).',
    );
  }
  const results = new Map<number, LineResult>();
  for (const raw of rest) {
    // A line cut short by an interruption holds nothing that was not also sent again.
    try {
      for (const result of (JSON.parse(raw) as { results: LineResult[] }).results)
        results.set(result.line, result);
    } catch {
      // Its lines are sent again.
    }
  }
  const ids = new Map(Object.entries(start.ids).map(([line, id]) => [Number(line), id]));
  return { total: start.lines ?? ids.size, ids, results };
}

/** A progress file's first line; undefined when it is cut short or is not one. */
function progressHeader(header: string): ProgressHeader | undefined {
  const start = jsonObject(header);
  const ids = start?.ids;
  const valid =
    typeof start?.sha256 === 'string' && typeof ids === 'object' && ids !== null && !Array.isArray(ids);
  return valid ? (start as unknown as ProgressHeader) : undefined;
}
