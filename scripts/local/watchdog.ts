/**
 * Emulators that cannot outlive the runtime. A child process does not die with its parent: a runtime
 * killed with SIGKILL (or by the OOM killer) runs no `exit` handler, and its JVM used to stay behind
 * holding the data directory. So every emulator runs under a small Node watchdog that holds the read end
 * of a pipe from the runtime (its stdin). The kernel closes the write end however the runtime ends, the
 * watchdog sees end-of-file and stops the emulator (SIGTERM, SIGKILL after the grace period), then exits.
 *
 * The emulator inherits the watchdog's umask 077, so what it writes to its data directory (DynamoDB
 * Local's database holds webhook tokens) is owner-only whatever the shell's umask is.
 *
 * The watchdog leads its own process group and the emulator stays in it, so signalling the group
 * (`kill(-pid)`) reaches both, and a Ctrl-C in the terminal reaches only the runtime, which then stops
 * the links before the emulators.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

/** Exit code of the watchdog when the emulator's command does not exist (the shell's convention). */
export const COMMAND_NOT_FOUND_EXIT_CODE = 127;

/** Grace period between SIGTERM and SIGKILL, in the watchdog as in `child-process.ts`. */
export const KILL_GRACE_MS = 5_000;

/** Argument that marks a watchdog on its command line, so a stale one can be recognised. */
export const WATCHDOG_MARKER = 'herald-watchdog';

const WATCHDOG_SCRIPT = `
const { spawn } = require('node:child_process');
const [command, ...args] = process.argv.slice(2);
process.umask(0o077);
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  child.kill('SIGTERM');
  setTimeout(() => child.kill('SIGKILL'), ${KILL_GRACE_MS}).unref();
};
child.once('error', (error) => {
  process.stderr.write(String(error.message) + '\\n');
  process.exit(error.code === 'ENOENT' ? ${COMMAND_NOT_FOUND_EXIT_CODE} : 1);
});
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
process.stdin.once('end', stop);
process.stdin.once('error', stop);
process.stdin.resume();
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
`;

/**
 * Spawns `command args` under a watchdog (see the file comment). The returned process is the
 * watchdog: its stdout and stderr carry the emulator's, and it exits with the emulator's exit code,
 * or {@link COMMAND_NOT_FOUND_EXIT_CODE} when the command is missing.
 */
export function spawnWatched(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  return spawn(process.execPath, ['-e', WATCHDOG_SCRIPT, '--', WATCHDOG_MARKER, command, ...args], {
    ...options,
    detached: true,
    // stdin is the pipe the watchdog watches; it is never written to.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}
