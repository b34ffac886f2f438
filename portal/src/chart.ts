/**
 * Success rate and latency of an endpoint over a window, drawn as SVG from the attempt records the API
 * returns (`GET /events` for the account, then each event's attempts).
 */
import { call } from './api';
import { h, svg } from './dom';

/** One attempt, reduced to what the chart needs. */
export interface AttemptPoint {
  /** Epoch ms. */
  readonly at: number;
  readonly ok: boolean;
  readonly ms: number;
}

/** A chart window: its length and how many bars it has. */
export interface Window {
  readonly label: string;
  readonly ms: number;
  readonly buckets: number;
}

export const WINDOWS: readonly Window[] = [
  { label: '24 h', ms: 24 * 3_600_000, buckets: 24 },
  { label: '7 days', ms: 7 * 86_400_000, buckets: 28 },
];

/** At most this many events of an account are read for its chart: each costs one API call. */
export const CHART_EVENT_LIMIT = 100;
const CONCURRENCY = 6;

const epoch = (utc: string): number => Date.parse(`${utc.replace(' ', 'T')}Z`);

/** The attempts of an account's latest events of the last 7 days (up to {@link CHART_EVENT_LIMIT}). */
export async function loadAttempts(
  iban: string,
  now: number,
): Promise<{ points: AttemptPoint[]; capped: boolean }> {
  const since = new Date(now - 7 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
  const query = new URLSearchParams({ account: iban, since, per_page: String(CHART_EVENT_LIMIT) });
  const { data, headers } = await call<{ id: string }[]>(`/events?${query}`);
  const points: AttemptPoint[] = [];
  const ids = data.map((e) => e.id);
  const work = async (): Promise<void> => {
    for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
      const { data: event } = await call<{
        webhook_deliveries: { delivery_at: string; response_status: number; response_time: number }[];
      }>(`/events/${encodeURIComponent(id)}`);
      for (const d of event.webhook_deliveries) {
        points.push({
          at: epoch(d.delivery_at),
          ok: d.response_status >= 200 && d.response_status < 300,
          ms: d.response_time,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, work));
  return { points, capped: /rel="next"/.test(headers.get('Link') ?? '') };
}

/** Success rate and median latency of points, or undefined without attempts. */
export function summarise(
  points: readonly AttemptPoint[],
): { rate: number; median: number; count: number } | undefined {
  if (points.length === 0) return undefined;
  const ok = points.filter((p) => p.ok).length;
  const sorted = points.map((p) => p.ms).sort((a, b) => a - b);
  return {
    rate: ok / points.length,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    count: points.length,
  };
}

/** Bars of successes (green) and failures (red) per bucket and a median-latency line, with a text summary. */
export function chart(points: readonly AttemptPoint[], window: Window, now: number): HTMLElement {
  const start = now - window.ms;
  const inWindow = points.filter((p) => p.at >= start && p.at <= now);
  const size = window.ms / window.buckets;
  const buckets = Array.from({ length: window.buckets }, (_, i) =>
    inWindow.filter((p) => Math.min(window.buckets - 1, Math.floor((p.at - start) / size)) === i),
  );
  const total = summarise(inWindow);
  const text = total
    ? `${window.label}: ${Math.round(total.rate * 1000) / 10} % of ${total.count} attempt${total.count === 1 ? '' : 's'} succeeded; median latency ${total.median} ms.`
    : `${window.label}: no attempts.`;
  const W = 600;
  const H = 140;
  const barW = W / window.buckets;
  const maxCount = Math.max(1, ...buckets.map((b) => b.length));
  const maxMs = Math.max(1, ...inWindow.map((p) => p.ms));
  const bars = buckets.flatMap((b, i) => {
    const ok = b.filter((p) => p.ok).length;
    const okH = (ok / maxCount) * (H - 10);
    const failH = ((b.length - ok) / maxCount) * (H - 10);
    const x = i * barW + 1;
    const title = svg('title', {}, `${b.length} attempts, ${ok} ok`);
    return [
      svg('rect', { class: 'ok', x, y: H - okH, width: barW - 2, height: okH }, title),
      svg('rect', { class: 'fail', x, y: H - okH - failH, width: barW - 2, height: failH }),
    ];
  });
  const latency = buckets.flatMap((b, i) => {
    const m = summarise(b);
    return m ? [{ x: i * barW + barW / 2, y: H - (m.median / maxMs) * (H - 10), ms: m.median }] : [];
  });
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
