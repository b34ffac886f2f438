/**
 * The simulation's only source of randomness: a seeded generator (SFC32, seeded through SplitMix32) and
 * the distributions the models draw from. `Math.random` is never used, so a seed fixes a whole run.
 */

/** FNV-1a, 32 bits: turns labels into seeds (and keys into partitions). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** One step of SplitMix32, which spreads a seed over the generator's four words. */
function splitMix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** z-score of the 99th percentile of the standard normal distribution. */
const Z99 = 2.326347874;

/** A seeded pseudo-random generator with the distributions the models need. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | undefined;

  constructor(readonly seed: number) {
    const state = { s: seed | 0 };
    this.a = splitMix32(state);
    this.b = splitMix32(state);
    this.c = splitMix32(state);
    this.d = splitMix32(state);
    // The first outputs of a fresh SFC32 state are weak; discard them.
    for (let i = 0; i < 12; i++) this.float();
  }

  /**
   * An independent generator for one part of the model, so that adding a consumer of randomness in one
   * model does not shift the numbers every other model draws.
   */
  fork(label: string): Random {
    return new Random((this.seed ^ hash32(label)) >>> 0);
  }

  /** Uniform in [0, 1). */
  float(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  normal(): number {
    if (this.spare !== undefined) {
      const value = this.spare;
      this.spare = undefined;
      return value;
    }
    const u = 1 - this.float();
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.float());
  }

  /**
   * Log-normal with the given median and 99th percentile: the usual shape of network latencies (a floor,
   * a mode near it and a long right tail). `p99 <= median` gives the median every time.
   */
  logNormal(median: number, p99: number): number {
    if (p99 <= median) return median;
    const sigma = Math.log(p99 / median) / Z99;
    return median * Math.exp(sigma * this.normal());
  }
}

/** A latency distribution in milliseconds: a constant or a log-normal by median and p99. */
export type Latency = number | { readonly medianMs: number; readonly p99Ms: number };

/** One draw of a {@link Latency}. */
export function drawLatency(latency: Latency, random: Random): number {
  return typeof latency === 'number' ? latency : random.logNormal(latency.medianMs, latency.p99Ms);
}
