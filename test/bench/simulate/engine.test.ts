import { describe, expect, it } from 'vitest';
import { BinaryHeap } from '../../../scripts/bench/simulate/engine/heap';
import { Random } from '../../../scripts/bench/simulate/engine/random';
import { Scheduler } from '../../../scripts/bench/simulate/engine/scheduler';
import { runInScope, Scope } from '../../../scripts/bench/simulate/engine/scope';

describe('BinaryHeap', () => {
  it('pops in order, whatever the push order', () => {
    const heap = new BinaryHeap<number>((a, b) => a < b);
    const random = new Random(7);
    const values = Array.from({ length: 500 }, () => random.int(1000));
    for (const value of values) heap.push(value);
    const popped: number[] = [];
    for (let v = heap.pop(); v !== undefined; v = heap.pop()) popped.push(v);
    expect(popped).toEqual([...values].sort((a, b) => a - b));
  });
});

describe('Random', () => {
  it('repeats a seed and differs between seeds and forks', () => {
    const draw = (r: Random) => Array.from({ length: 5 }, () => r.float());
    expect(draw(new Random(42))).toEqual(draw(new Random(42)));
    expect(draw(new Random(42))).not.toEqual(draw(new Random(43)));
    expect(draw(new Random(42).fork('a'))).not.toEqual(draw(new Random(42).fork('b')));
  });

  it('draws log-normal latencies around the median with the requested tail', () => {
    const random = new Random(3);
    const draws = Array.from({ length: 20_000 }, () => random.logNormal(100, 400)).sort((a, b) => a - b);
    expect(draws[10_000]).toBeGreaterThan(95);
    expect(draws[10_000]).toBeLessThan(105);
    expect(draws[19_800]).toBeGreaterThan(370);
    expect(draws[19_800]).toBeLessThan(430);
  });
});

describe('Scheduler', () => {
  it('runs callbacks in time order, ties in scheduling order, and advances the clock', async () => {
    const engine = new Scheduler({ startMs: 1_000 });
    const seen: string[] = [];
    engine.at(3_000, () => seen.push(`b@${engine.now()}`));
    engine.at(2_000, () => seen.push(`a@${engine.now()}`));
    engine.at(3_000, () => seen.push(`c@${engine.now()}`));
    const result = await engine.run();
    expect(seen).toEqual(['a@2000', 'b@3000', 'c@3000']);
    expect(result).toMatchObject({ reason: 'idle', events: 3, endedAt: 3_000 });
  });

  it('lets awaited code finish before time moves on', async () => {
    const engine = new Scheduler({ startMs: 0 });
    const seen: string[] = [];
    const work = async () => {
      await engine.sleep(10);
      // A chain of awaits on resolved promises: all of it runs at t = 10.
      for (let i = 0; i < 50; i++) await Promise.resolve();
      seen.push(`chain done@${engine.now()}`);
    };
    engine.spawn(work);
    engine.at(10, () => seen.push(`other@${engine.now()}`));
    engine.at(11, () => seen.push(`next@${engine.now()}`));
    await engine.run();
    expect(seen).toEqual(['other@10', 'chain done@10', 'next@11']);
  });

  it('stops at `until` and when asked, and keeps thrown errors', async () => {
    const engine = new Scheduler({ startMs: 0 });
    let ticks = 0;
    const tick = (): void => {
      ticks++;
      engine.after(1_000, tick);
    };
    engine.after(0, tick);
    engine.spawn(async () => {
      throw new Error('boom');
    });
    expect(await engine.run({ until: 5_500 })).toMatchObject({ reason: 'until', endedAt: 5_500 });
    expect(ticks).toBe(6);
    expect(await engine.run({ stopWhen: () => ticks >= 10 })).toMatchObject({ reason: 'stopped' });
    expect(ticks).toBe(10);
    expect(engine.errors).toHaveLength(1);
  });

  it('freezes the code of a killed scope and nothing else', async () => {
    const engine = new Scheduler({ startMs: 0 });
    const scope = new Scope('invocation');
    const seen: string[] = [];
    engine.spawn(() =>
      runInScope(scope, async () => {
        await engine.sleep(5);
        seen.push('before kill');
        await engine.sleep(10);
        seen.push('after kill');
      }),
    );
    engine.spawn(async () => {
      await engine.sleep(20);
      seen.push('outside');
    });
    engine.at(8, () => scope.kill());
    await engine.run();
    expect(seen).toEqual(['before kill', 'outside']);
  });

  it('cancels timers', async () => {
    const engine = new Scheduler({ startMs: 0 });
    let fired = false;
    engine
      .at(5, () => {
        fired = true;
      })
      .cancel();
    expect(await engine.run()).toMatchObject({ events: 0 });
    expect(fired).toBe(false);
  });
});
