/** The Markdown cells and inline forms the event types page is written in. */

/** A table row; `|` inside a cell is escaped, as GitHub needs even within code spans. */
export function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`;
}

/** A count as prose writes it: 32,768. */
export function number(value: number): string {
  return value.toLocaleString('en-US');
}

/** Inline code. */
export function code(text: string): string {
  return `\`${text}\``;
}
