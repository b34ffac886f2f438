import { describe, expect, it } from 'vitest';
import { markdownTable, quantile } from '../../../scripts/bench/simulate/report';

describe('report helpers', () => {
  it('takes quantiles by nearest rank, whatever the order', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect([
      quantile(values, 0.5),
      quantile(values, 0.9),
      quantile(values, 0.99),
      quantile(values, 0),
    ]).toEqual([5, 9, 10, 1]);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('renders numbers right-aligned and rounded, and a missing value as a dash', () => {
    expect(
      markdownTable(
        ['name', 'value'],
        [
          ['a', 1234.567],
          ['b', Number.NaN],
        ],
        1,
      ),
    ).toBe(['| name | value |', '|---|---:|', '| a | 1,234.6 |', '| b | – |'].join('\n'));
  });
});
