/**
 * Finds emulators that an earlier run left on a data directory: a process whose command line names the
 * directory as a whole argument (DynamoDB Local's `-dbPath <dir>`, the fauxqs bootstrap's data dir, and
 * the watchdogs around them). Two processes on one data directory would corrupt it or fail obscurely,
 * so a new runtime stops an orphan and refuses to share the directory with a live runtime.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { KILL_GRACE_MS, WATCHDOG_MARKER } from './watchdog';

/** A process on this machine, as `/proc` shows it. */
export interface ProcessInfo {
  readonly pid: number;
  readonly parentPid: number;
  readonly argv: readonly string[];
}

/** Thrown when a running runtime still owns the data directory. */
export class DataDirectoryInUseError extends Error {}

/**
 * Stops every orphaned process holding `dataDir` and reports each with `notice`. A watchdog on the
 * directory is given its grace period to finish (its runtime may just have died); one still there after
 * that has a live runtime.
 *
 * @throws DataDirectoryInUseError when another runtime (`npm start`) uses the directory: stopping its
 *   emulator would pull the data from under it
 */
export async function clearStaleEmulators(
  name: string,
  dataDir: string,
  notice: (message: string) => void,
): Promise<void> {
  const holding = (): ProcessInfo[] =>
    listProcesses().filter((info) => info.pid !== process.pid && info.argv.includes(dataDir));
  const isWatchdog = (info: ProcessInfo): boolean => info.argv.includes(WATCHDOG_MARKER);
  let holders = holding();
  if (holders.some(isWatchdog)) {
    await waitUntil(() => !holding().some(isWatchdog), KILL_GRACE_MS + 1_000);
    holders = holding();
    const watchdog = holders.find(isWatchdog);
    if (watchdog) {
      throw new DataDirectoryInUseError(
        `${name}: another Herald runtime (pid ${watchdog.parentPid}) is using ${dataDir}. Stop it ` +
          'first, or start this one with `npm start -- --in-memory`.',
      );
    }
  }
  if (holders.length === 0) return;
  const pids = holders.map((holder) => holder.pid);
  notice(
    `${name}: stopping ${pids.length === 1 ? 'a stale emulator process' : 'stale emulator processes'} ` +
      `(pid ${pids.join(', ')}) that an earlier run left on ${dataDir}.`,
  );
  for (const pid of pids) signal(pid, 'SIGTERM');
  await waitUntil(() => !pids.some(isAlive), KILL_GRACE_MS);
  for (const pid of pids.filter(isAlive)) signal(pid, 'SIGKILL');
  await waitUntil(() => !pids.some(isAlive), KILL_GRACE_MS);
}

async function waitUntil(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((tick) => setTimeout(tick, 100));
}

/** The processes of this machine; empty where there is no `/proc` (the check is then skipped). */
export function listProcesses(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      // `stat` is "pid (comm) state ppid …"; comm may contain spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return [{ pid: Number(entry), parentPid, argv }];
    } catch {
      return []; // Exited while being read, or not ours to read.
    }
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Gone already, or another user's: nothing this run can stop.
  }
}
