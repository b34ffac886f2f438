/**
 * Which addresses TCP listeners are bound to, as the kernel reports them (`/proc/net/tcp` and
 * `/proc/net/tcp6`, the data `ss -ltn` shows), so a test can require loopback without trusting what a
 * program says about itself.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { classifyAddress } from '#domain/webhook-url';
import { listProcesses } from '#local/stale-emulators';

/** A TCP socket in the LISTEN state. */
export interface Listener {
  /** The bound address: `0.0.0.0` or `::` for every interface. */
  readonly address: string;
  readonly port: number;
  readonly inode: string;
}

const LISTEN_STATE = '0A';

/** Every listening TCP socket of this machine's network namespace. */
export function listeners(): Listener[] {
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === LISTEN_STATE)
      .map((fields) => {
        const [hexAddress = '', hexPort = '0'] = (fields[1] ?? '').split(':');
        return {
          address: decodeAddress(hexAddress),
          port: Number.parseInt(hexPort, 16),
          inode: fields[9] ?? '',
        };
      }),
  );
}

/** The listeners on `port`, on any address. */
export function listenersOn(port: number): Listener[] {
  return listeners().filter((listener) => listener.port === port);
}

/** The listeners whose sockets `pid` or any of its descendants hold open. */
export function listenersOf(pid: number): Listener[] {
  const inodes = new Set(processTree(pid).flatMap(socketInodes));
  return listeners().filter((listener) => inodes.has(listener.inode));
}

/** `address:port` of each listener that is not on loopback: empty when all of them are. */
export function offLoopback(found: readonly Listener[]): string[] {
  return found
    .filter((listener) => !isLoopback(listener.address))
    .map(({ address, port }) => `${address}:${port}`);
}

/** Whether the address reaches this machine only (127.0.0.0/8, ::1, ::ffff:127.x.y.z). */
export function isLoopback(address: string): boolean {
  return classifyAddress(address) === 'loopback';
}

/**
 * `/proc/net/tcp*` print an address as 32-bit words in host byte order (little-endian here): IPv4 is one
 * word, IPv6 four.
 */
function decodeAddress(hex: string): string {
  const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) =>
    (word.match(/../g) ?? []).reverse().map((byte) => Number.parseInt(byte, 16)),
  );
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) =>
    (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16),
  );
  return groups.join(':');
}

/** `pid` and every process descended from it. */
function processTree(pid: number): number[] {
  const processes = listProcesses();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const info of processes) if (info.parentPid === tree[i]) tree.push(info.pid);
  }
  return tree;
}

/** Inodes of the sockets a process holds open. */
function socketInodes(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        return match?.[1] ? [match[1]] : [];
      } catch {
        return []; // Closed while being read.
      }
    });
  } catch {
    return []; // Exited, or not ours to read.
  }
}
