/**
 * The progress of `herald publish --file` on stderr (stdout keeps the summary's JSON): a bar redrawn in
 * place on a terminal, a line at every tenth of the file otherwise (logs, CI).
 */

/** Where progress goes: `process.stderr`, or a test's stand-in. */
export interface Progress {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** What the counts read: each line's status so far (201 stored, 200 duplicate, 4xx refused). */
type Results = ReadonlyMap<number, { readonly status: number }>;

const BAR = 30;

/** A reporter of `results` growing towards `total` lines. */
export function progressReporter(
  out: Progress,
  total: number,
  results: Results,
): { update(): void; done(): void } {
  let reportedTenth = -1;
  const line = () => {
    let stored = 0;
    let duplicate = 0;
    for (const { status } of results.values()) {
      if (status === 201) stored++;
      else if (status === 200) duplicate++;
    }
    const refused = results.size - stored - duplicate;
    return `${results.size}/${total} lines: ${stored} stored, ${duplicate} duplicate, ${refused} refused`;
  };
  return {
    update() {
      if (out.isTTY) {
        const filled = total === 0 ? BAR : Math.round((results.size / total) * BAR);
        out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${line()}`);
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((results.size / total) * 10);
      if (tenth > reportedTenth) {
        reportedTenth = tenth;
        out.write(`herald publish: ${line()}\n`);
      }
    },
    done() {
      if (out.isTTY) out.write('\n');
    },
  };
}
