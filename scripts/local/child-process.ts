/**
 * Supervision of a long-running child process that serves on a port: wait until it answers, report why
 * it did not, and stop it for sure. Generic on purpose, so `emulators.ts` only says how each emulator is
 * spawned and probed.
 *
 * The child is a watchdog (`watchdog.ts`) leading its own process group: `stop()` signals the group,
 * the parent's `exit` does too, and when the parent dies without running any handler (SIGKILL) the
 * watchdog stops the emulator itself.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { COMMAND_NOT_FOUND_EXIT_CODE, KILL_GRACE_MS } from './watchdog';

/** A running, ready child process. */
export interface ChildHandle<Name extends string = string> {
  readonly name: Name;
  readonly endpoint: string;
  readonly port: number;
  readonly pid: number;
  /** Terminates the child (SIGTERM, SIGKILL after 5 s) and resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

/** How {@link superviseChild} recognises and describes the child. */
export interface SuperviseOptions<Name extends string = string> {
  readonly name: Name;
  readonly port: number;
  readonly endpoint: string;
  readonly timeoutMs: number;
  /** The error message when the command itself is missing (the watchdog's exit code 127). */
  readonly missingCommandHint: string;
  /** Resolves once the child answers; rejects while it does not yet. */
  readonly probe: () => Promise<void>;
}

const OUTPUT_TAIL_CHARS = 4_000;

/**
 * Finds a free TCP port on the loopback interface: `preferred` if it is free, else one the kernel picks
 * (binding port 0).
 */
export async function findFreePort(preferred = 0): Promise<number> {
  const listenOn = (port: number) =>
    new Promise<number>((resolvePort, reject) => {
      const server = createServer();
      server.unref();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        const bound = typeof address === 'object' && address !== null ? address.port : 0;
        server.close(() => (bound > 0 ? resolvePort(bound) : reject(new Error('No free port found'))));
      });
    });
  // The preferred port when it is free (a fixed one is easier to remember), any free one otherwise.
  return preferred === 0 ? listenOn(0) : listenOn(preferred).catch(() => listenOn(0));
}

/** Waits for readiness and builds the handle; any failure kills the child before it is reported. */
export async function superviseChild<Name extends string>(
  child: ChildProcess,
  options: SuperviseOptions<Name>,
): Promise<ChildHandle<Name>> {
  let output = '';
  const keepTail = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  // Draining the pipes matters: a child blocked on a full pipe never becomes ready.
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const isRunning = (): boolean => child.exitCode === null && child.signalCode === null && !spawnError;
  const signal = (sig: NodeJS.Signals): void => {
    if (child.pid === undefined || !isRunning()) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // Already gone (ESRCH): nothing left to stop.
    }
  };
  const killOnExit = (): void => signal('SIGKILL');
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      if (child.pid === undefined || !isRunning()) return;
      signal('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((done) => {
          timer = setTimeout(() => done(true), KILL_GRACE_MS);
        }),
      ]);
      clearTimeout(timer);
      if (gaveUp) {
        signal('SIGKILL');
        await exited;
      }
    })();
    return stopping;
  };

  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (spawnError) {
      await stop();
      const missing = (spawnError as NodeJS.ErrnoException).code === 'ENOENT';
      const message = missing ? options.missingCommandHint : `${options.name}: ${spawnError.message}`;
      throw new Error(message, { cause: spawnError });
    }
    if (!isRunning()) {
      await stop();
      if (child.exitCode === COMMAND_NOT_FOUND_EXIT_CODE) throw new Error(options.missingCommandHint);
      throw new Error(
        `The ${options.name} emulator exited during startup (code ${child.exitCode}, signal ${child.signalCode}).\n${output}`,
      );
    }
    const pid = child.pid;
    const answered = pid !== undefined && (await options.probe().then(succeeded, failed));
    if (pid !== undefined && answered && isRunning()) {
      return { name: options.name, endpoint: options.endpoint, port: options.port, pid, stop };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The ${options.name} emulator did not answer on ${options.endpoint} within ${options.timeoutMs} ms.\n${output}`,
      );
    }
    await new Promise((done) => setTimeout(done, 150));
  }
}

const succeeded = (): boolean => true;
const failed = (): boolean => false;
