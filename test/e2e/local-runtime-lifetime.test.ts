/**
 * `npm start` (scripts/local/main.ts, run as its own process) never leaves an emulator behind: killed with
 * SIGKILL its emulators stop by themselves, a new start clears an orphan on the data directory with a
 * message, and a second start refuses a directory that a live runtime uses. It also keeps to itself: every
 * socket it and its children listen on is on loopback, and `.herald/` is owner-only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dynamoDbLocalCommand, findFreePort } from '#local/emulators';
import { listenersOf, offLoopback } from '../support/listeners';
import { waitFor } from '../support/wait';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const MAIN = join(ROOT, 'scripts', 'local', 'main.ts');

const cwd = mkdtempSync(join(tmpdir(), 'herald-lifetime-'));
const dataDir = join(cwd, '.herald', 'data');
const started: ChildProcess[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  }
});

afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
});

/** A running `npm start` and everything it printed so far. */
interface Started {
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<number | null>;
}

async function npmStart(): Promise<Started> {
  const port = await findFreePort();
  const child = spawn(NODE, ['--import', TSX, MAIN], {
    cwd,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function untilRunning(run: Started): Promise<void> {
  await waitFor(() => run.output().includes('Herald is running') || run.child.exitCode !== null, {
    what: 'npm start to be ready',
    timeoutMs: 120_000,
  });
  expect(run.output()).toContain('Herald is running');
}

/** Pids of the processes whose command line names a directory under `dataDir` (emulators, watchdogs). */
function holders(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        return argv.some((arg) => arg.startsWith(dataDir));
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('npm start and its emulators', { timeout: 180_000 }, () => {
  it('takes its emulators down with it when killed with SIGKILL', async () => {
    const run = await npmStart();
    await untilRunning(run);
    expect(holders().length).toBeGreaterThanOrEqual(4); // two watchdogs, java, fauxqs
    run.child.kill('SIGKILL');
    await run.exited;
    await waitFor(() => holders().length === 0, { what: 'the emulators to stop', timeoutMs: 20_000 });
  });

  it('stops a stale emulator left on its data directory, and says so', async () => {
    // An emulator with no watchdog, as a runtime of an older version could leave behind.
    const { command, args } = dynamoDbLocalCommand(await findFreePort(), join(dataDir, 'dynamodb'));
    const orphan = spawn(command, args, { stdio: 'ignore' });
    orphan.unref();
    await waitFor(() => holders().includes(orphan.pid ?? -1), { what: 'the orphan' });
    const run = await npmStart();
    await untilRunning(run);
    expect(run.output()).toMatch(
      new RegExp(`stopping a stale emulator process \\(pid ${orphan.pid}\\) that an earlier run left on`),
    );
    expect(holders()).not.toContain(orphan.pid);
    run.child.kill('SIGTERM');
    await run.exited;
    await waitFor(() => holders().length === 0, { what: 'the emulators to stop', timeoutMs: 20_000 });
  });

  it('listens on loopback only and keeps .herald owner-only, tightening what an earlier run left wide', async () => {
    const state = join(cwd, '.herald');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(state, 'local.json'), '{}');
    for (const path of [state, dataDir]) chmodSync(path, 0o755);
    chmodSync(join(state, 'local.json'), 0o644);
    const run = await npmStart();
    await untilRunning(run);
    const sockets = listenersOf(run.child.pid ?? -1);
    // The gateway, the demo receiver, DynamoDB Local and fauxqs at least.
    expect(sockets.length).toBeGreaterThanOrEqual(4);
    expect(offLoopback(sockets)).toEqual([]);

    // lstat without throwing: the emulators may replace a file (a journal, the checkpoint) meanwhile.
    const wide = readdirSync(state, { recursive: true, encoding: 'utf8' })
      .map((entry) => join(state, entry))
      .concat(state)
      .filter((path) => ((lstatSync(path, { throwIfNoEntry: false })?.mode ?? 0) & 0o077) !== 0);
    expect(wide).toEqual([]);
    expect(statSync(join(state, 'local.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    run.child.kill('SIGTERM');
    await run.exited;
    await waitFor(() => holders().length === 0, { what: 'the emulators to stop', timeoutMs: 20_000 });
  });

  it('refuses a data directory that a running runtime uses', async () => {
    const first = await npmStart();
    await untilRunning(first);
    const second = await npmStart();
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(
      new RegExp(`Herald did not start: DynamoDB Local: another Herald runtime \\(pid ${first.child.pid}\\)`),
    );
    expect(second.output()).not.toMatch(/^\s+at /m);
    expect(first.child.exitCode).toBeNull();
  });
});
