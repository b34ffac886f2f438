/** Figures of a simulated run, and markdown tables of them. */

/** The `q`-quantile (0–1) of `values`, nearest rank; NaN when there are none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** A markdown table; numbers are right-aligned and rounded to `digits` decimals. */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  digits = 1,
): string {
  const cell = (value: string | number) =>
    typeof value === 'number'
      ? Number.isNaN(value)
        ? '–'
        : value.toLocaleString('en-US', { maximumFractionDigits: digits })
      : value;
  const align = (value: string | number) => (typeof value === 'number' ? '---:' : '---');
  const first = rows[0] ?? headers;
  return [
    `| ${headers.join(' | ')} |`,
    `|${first.map(align).join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}
