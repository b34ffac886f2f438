/**
 * Success rate and latency of an endpoint over a window, drawn as SVG from the delivery summary the API
 * computes (`GET /accounts/{iban}/delivery-stats`: one call per account for both windows).
 */
import { call } from './api';
import { h, svg } from './dom';

/** Attempts, successes and median latency, as the summary gives them per window and per bucket. */
interface Tally {
  readonly attempts: number;
  readonly succeeded: number;
  readonly median_ms: number | null;
}

/** One window of the summary (see the `DeliveryWindow` schema). */
export interface DeliveryWindow extends Tally {
  readonly window: '24h' | '7d';
  readonly max_ms: number | null;
  readonly buckets: readonly Tally[];
}

/** The summary of one account's endpoint (see the `DeliveryStats` schema). */
export interface DeliveryStats {
  readonly events_read: number;
  readonly complete: boolean;
  readonly windows: readonly DeliveryWindow[];
}

/** How each window is named on the page. */
const LABELS: Readonly<Record<DeliveryWindow['window'], string>> = { '24h': '24 h', '7d': '7 days' };

/** The account's summary over both windows, in one call. */
export async function loadStats(iban: string): Promise<DeliveryStats> {
  return (await call<DeliveryStats>(`/accounts/${encodeURIComponent(iban)}/delivery-stats`)).data;
}

/** Bars of successes (green) and failures (red) per bucket and a median-latency line, with a text summary. */
export function chart(stats: DeliveryWindow): HTMLElement {
  const label = LABELS[stats.window];
  const text =
    stats.attempts > 0
      ? `${label}: ${Math.round((stats.succeeded / stats.attempts) * 1000) / 10} % of ${stats.attempts} attempt${stats.attempts === 1 ? '' : 's'} succeeded; median latency ${stats.median_ms} ms.`
      : `${label}: no attempts.`;
  const buckets = stats.buckets;
  const W = 600;
  const H = 140;
  const barW = W / buckets.length;
  const maxCount = Math.max(1, ...buckets.map((b) => b.attempts));
  const maxMs = Math.max(1, stats.max_ms ?? 0);
  const bars = buckets.flatMap((b, i) => {
    const ok = b.succeeded;
    const okH = (ok / maxCount) * (H - 10);
    const failH = ((b.attempts - ok) / maxCount) * (H - 10);
    const x = i * barW + 1;
    const title = svg('title', {}, `${b.attempts} attempts, ${ok} ok`);
    return [
      svg('rect', { class: 'ok', x, y: H - okH, width: barW - 2, height: okH }, title),
      svg('rect', { class: 'fail', x, y: H - okH - failH, width: barW - 2, height: failH }),
    ];
  });
  const latency = buckets.flatMap((b, i) =>
    b.median_ms === null
      ? []
      : [{ x: i * barW + barW / 2, y: H - (b.median_ms / maxMs) * (H - 10), ms: b.median_ms }],
  );
  const line = latency.map((p) => `${p.x},${p.y}`).join(' ');
  const dots = latency.map((p) =>
    svg('circle', { class: 'dot', cx: p.x, cy: p.y, r: 3 }, svg('title', {}, `median ${p.ms} ms`)),
  );
  return h(
    'figure',
    { class: 'chart' },
    svg(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': text },
      svg('line', { class: 'axis', x1: 0, y1: H, x2: W, y2: H }),
      bars,
      line ? svg('polyline', { class: 'latency', points: line }) : null,
      dots,
    ),
    h(
      'figcaption',
      {},
      text,
      h(
        'span',
        { class: 'legend' },
        h('i', { class: 'k-ok' }),
        'ok ',
        h('i', { class: 'k-fail' }),
        'failed ',
        h('i', { class: 'k-lat' }),
        `median latency (max ${maxMs} ms)`,
      ),
    ),
  );
}
