import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importSpecifiers, PROJECT_ROOT } from './import-rules';

describe('import cycles', () => {
  it('there is none among the source files of bin/, lib/, lambdas/ and scripts/', () => {
    const graph = importGraph(PROJECT_ROOT, ['bin', 'lib', 'lambdas', 'scripts']);
    expect(graph.get('lambdas/handlers/deliver-webhooks.ts')?.length).toBeGreaterThan(5);
    expect(importCycles(graph)).toEqual([]);
  });

  it('are found whatever their length, a file importing itself included', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts', 'a.ts']],
      ['f.ts', ['g.ts']],
      ['g.ts', ['f.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts'], ['f.ts', 'g.ts']]);
  });

  it('count type-only imports and re-exports as imports', () => {
    const source = "import type { A } from './a';\nexport type { B } from './b';\nexport * from './c';";
    expect(importSpecifiers(source)).toEqual(['./a', './b', './c']);
  });
});
