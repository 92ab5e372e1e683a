// The page's events on a time axis, one lane per response (kind, tag and responseId). Kinds differ by shape and colour, rejected
// events carry a red ring, and a selected finding lights up its events while the rest fade.
import { useLayoutEffect, useRef, useState } from 'react';
import type { PageTimelineDto, TimelineEventDto } from '../../../../shared/timeline';
import { isRefusedPreflight } from '../../../../shared/events';
import { KindShape } from '../../components/common';
import { fmtClock, fmtTickOffset, parseTime, shortId } from '../../format';

const GUTTER = 150;
const RIGHT = 24;
const AXIS_H = 28;
const ROW_H = 24;
const LANE_PAD = 8;
const MIN_GAP = 16;

export type TimeBasis = 'timestamp' | 'received';

export function eventTime(e: TimelineEventDto, basis: TimeBasis): number {
  const primary = parseTime(basis === 'timestamp' ? e.timestamp : e.receivedAt);
  return Number.isFinite(primary)
    ? primary
    : parseTime(basis === 'timestamp' ? e.receivedAt : e.timestamp);
}

const STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000,
  300_000, 600_000, 1_800_000, 3_600_000,
];

function niceStep(span: number, width: number): number {
  const target = span / Math.max(2, Math.floor(width / 110));
  return STEPS.find((s) => s >= target) ?? Math.ceil(target / 3_600_000) * 3_600_000;
}

/**
 * How a lane of events without a responseId is named: refused CORS preflights carry no body, so no id, and
 * are no event of the page (the browser never sent the event itself).
 */
function laneWithoutId(events: readonly TimelineEventDto[]): { label: string; title: string } {
  return events.length > 0 && events.every((e) => isRefusedPreflight(e.status, e.errors[0]))
    ? {
        label: '(CORS preflights)',
        title:
          "a browser's CORS preflights (OPTIONS), refused: the events themselves were never sent",
      }
    : { label: '(no responseId)', title: 'no responseId' };
}

interface Placed {
  e: TimelineEventDto;
  x: number;
  row: number;
}

/** Spread markers that would overlap onto extra rows within their lane. */
function place(
  events: TimelineEventDto[],
  xOf: (e: TimelineEventDto) => number,
): { placed: Placed[]; rows: number } {
  const rowEnds: number[] = [];
  const placed = events
    .map((e) => ({ e, x: xOf(e) }))
    .sort((a, b) => a.x - b.x || a.e.arrival - b.e.arrival)
    .map(({ e, x }) => {
      let row = rowEnds.findIndex((end) => x - end >= MIN_GAP);
      if (row === -1) {
        row = rowEnds.length;
        rowEnds.push(x);
      } else rowEnds[row] = x;
      return { e, x, row };
    });
  return { placed, rows: Math.max(1, rowEnds.length) };
}

export function PageChart(props: {
  page: PageTimelineDto;
  basis: TimeBasis;
  highlighted: ReadonlySet<string> | null;
  selectedEventId: string | null;
  onSelectEvent(id: string): void;
}) {
  const { page, basis, highlighted, selectedEventId, onSelectEvent } = props;
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(320, Math.floor(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const all = page.responses.flatMap((r) => r.events);
  const times = all.map((e) => eventTime(e, basis)).filter(Number.isFinite);
  const t0 = times.length ? Math.min(...times) : 0;
  const t1 = times.length ? Math.max(...times) : 1000;
  const span = Math.max(t1 - t0, 1000);
  const pad = span * 0.04;
  const plotW = width - GUTTER - RIGHT;
  const xOf = (e: TimelineEventDto) => {
    const t = eventTime(e, basis);
    return GUTTER + (((Number.isFinite(t) ? t : t0) - (t0 - pad)) / (span + 2 * pad)) * plotW;
  };
  const step = niceStep(span + 2 * pad, plotW);
  const ticks: number[] = [];
  for (let t = Math.ceil((t0 - pad) / step) * step; t <= t1 + pad; t += step) ticks.push(t);

  const lanes: Array<{
    r: (typeof page.responses)[number];
    placed: Placed[];
    top: number;
    height: number;
  }> = [];
  let bottom = AXIS_H;
  for (const r of page.responses) {
    const { placed, rows } = place(r.events, xOf);
    const laneHeight = rows * ROW_H + LANE_PAD * 2;
    lanes.push({ r, placed, top: bottom, height: laneHeight });
    bottom += laneHeight;
  }
  const height = bottom + 4;

  return (
    <div className="chart" ref={box} data-testid="page-chart">
      <svg
        width={width}
        height={height}
        role="group"
        aria-label={`Events on a time axis by ${basis === 'timestamp' ? 'context.timestamp' : 'receive time'}, one lane per responseId`}
      >
        {ticks.map((t) => {
          const x = GUTTER + ((t - (t0 - pad)) / (span + 2 * pad)) * plotW;
          return (
            <g key={t}>
              <line x1={x} x2={x} y1={AXIS_H - 6} y2={height} className="grid" />
              <text x={x} y={AXIS_H - 12} textAnchor="middle" className="tick">
                {t === Math.ceil((t0 - pad) / step) * step
                  ? fmtClock(t, step < 1000)
                  : fmtTickOffset(t - Math.ceil((t0 - pad) / step) * step, step)}
              </text>
            </g>
          );
        })}
        {lanes.map(({ r, placed, top, height: h }, i) => (
          <g
            key={`${r.kind}/${r.tag ?? ''}/${r.responseId || `none-${i}`}`}
            data-testid="lane"
            data-response-id={r.responseId}
            data-kind={r.kind}
          >
            <rect x={0} y={top} width={width} height={h} className={i % 2 ? 'lane odd' : 'lane'} />
            <text x={12} y={top + h / 2 - 6} className="lane-label" dominantBaseline="central">
              <title>{r.responseId || laneWithoutId(r.events).title}</title>
              {r.responseId ? shortId(r.responseId, 13) : laneWithoutId(r.events).label}
            </text>
            <text x={12} y={top + h / 2 + 9} className="lane-sub" dominantBaseline="central">
              {r.kind}
              {r.tag ? ` ${r.tag}` : ''} · {r.events.length} event{r.events.length === 1 ? '' : 's'}
            </text>
            {placed.map(({ e, x, row }) => {
              const cy = top + LANE_PAD + row * ROW_H + ROW_H / 2;
              const lit = highlighted?.has(e.id) ?? false;
              const dim = highlighted !== null && !lit;
              const label = `${e.event}${e.accepted ? '' : ' (rejected)'} at ${e.timestamp ?? e.receivedAt ?? 'unknown time'}, arrival #${e.arrival}`;
              return (
                <g
                  key={e.id}
                  className={`marker ${dim ? 'dim' : ''} ${lit ? 'lit' : ''} ${selectedEventId === e.id ? 'selected' : ''}`}
                  role="button"
                  tabIndex={0}
                  aria-label={label}
                  aria-pressed={selectedEventId === e.id}
                  data-testid="chart-event"
                  data-event-id={e.id}
                  data-kind={e.event}
                  data-highlighted={lit ? 'true' : 'false'}
                  data-rejected={e.accepted ? 'false' : 'true'}
                  onClick={() => onSelectEvent(e.id)}
                  onKeyDown={(ev) => {
                    if (ev.key === 'Enter' || ev.key === ' ') {
                      ev.preventDefault();
                      onSelectEvent(e.id);
                    }
                  }}
                >
                  <title>{label}</title>
                  {/* drawn only while the marker has keyboard focus */}
                  <circle cx={x} cy={cy} r={13} className="focus-ring" />
                  {lit && <circle cx={x} cy={cy} r={11} className="halo" />}
                  {selectedEventId === e.id && (
                    <circle cx={x} cy={cy} r={10} className="select-ring" />
                  )}
                  <KindShape kind={e.event} x={x} y={cy} size={12} />
                  {!e.accepted && (
                    <>
                      <circle cx={x} cy={cy} r={8.5} className="reject-ring" />
                      <path d={`M${x + 5},${cy - 10} l6,6 m0,-6 l-6,6`} className="reject-x" />
                    </>
                  )}
                  {e.arrivedLate && <circle cx={x + 8} cy={cy + 8} r={2.5} className="late-dot" />}
                </g>
              );
            })}
          </g>
        ))}
      </svg>
    </div>
  );
}
