// The feed state diagram: the timed steps of an index run (grey arrows), the feed's current state, and
// the moves allowed from it right now (accent arrows, from the admin API's `allowedTransitions`).
// Every state is a button: asking for a move the table refuses shows the sandbox's explanation.
import { stateWithMeaning } from './state-names';
import { TRANSITIONS, type FeedState } from '../../../../shared/indexing';

const COL = 128;
const ROW = 58;
const NODE_W = 108;
const NODE_H = 28;
const PAD_X = 8;
const PAD_Y = 26;

/** Where each state sits: the regeneration row on top, the index row below, its side exits under it. */
const POSITION: Record<FeedState, [number, number]> = {
  regen_waiting: [0, 0],
  regen_running: [1, 0],
  regen_done: [2, 0],
  regen_error: [3, 0],
  waiting: [0, 1],
  running: [1, 1],
  done: [2, 1],
  paused: [1, 2],
  error: [2, 2],
};

/** The steps an index run takes by itself (the table's moves that are not starts); starts are drawn only when allowed. */
const STEPS: Array<[FeedState, FeedState]> = TRANSITIONS.filter(
  (t) => !t.triggers.includes('start'),
).map((t) => [t.from, t.to]);

interface Box {
  x: number;
  y: number;
}

function centre(state: FeedState): Box {
  const [c, r] = POSITION[state];
  return { x: PAD_X + c * COL + NODE_W / 2, y: PAD_Y + r * ROW + NODE_H / 2 };
}

/** Point where the segment from the centre of `state` towards `to` leaves its box. */
function exitPoint(from: Box, to: Box): Box {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const sx = dx === 0 ? Infinity : NODE_W / 2 / Math.abs(dx);
  const sy = dy === 0 ? Infinity : NODE_H / 2 / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: from.x + dx * s, y: from.y + dy * s };
}

function hitsOtherNode(a: Box, b: Box, skip: FeedState[]): boolean {
  for (const state of Object.keys(POSITION) as FeedState[]) {
    if (skip.includes(state)) continue;
    const c = centre(state);
    for (let t = 0.1; t < 1; t += 0.05) {
      const x = a.x + (b.x - a.x) * t;
      const y = a.y + (b.y - a.y) * t;
      if (Math.abs(x - c.x) < NODE_W / 2 + 2 && Math.abs(y - c.y) < NODE_H / 2 + 2) return true;
    }
  }
  return false;
}

/** A straight arrow, or an arc around any state in the way, between two states' boxes. */
function edgePath(from: FeedState, to: FeedState, offset: number): string {
  const a = centre(from);
  const b = centre(to);
  // Reverse pairs (running ⇄ paused) are drawn side by side rather than on top of each other.
  const nx = -(b.y - a.y);
  const ny = b.x - a.x;
  const len = Math.hypot(nx, ny) || 1;
  const shift = offset;
  const a2 = { x: a.x + (nx / len) * shift, y: a.y + (ny / len) * shift };
  const b2 = { x: b.x + (nx / len) * shift, y: b.y + (ny / len) * shift };
  if (!hitsOtherNode(a2, b2, [from, to])) {
    const p = exitPoint(a2, b2);
    const q = exitPoint(b2, a2);
    return `M${p.x},${p.y} L${q.x},${q.y}`;
  }
  // Bow below the row (or above for the top row) far enough to clear the boxes in between.
  const bow = a.y <= PAD_Y + NODE_H ? -ROW * 0.5 : ROW * 0.62;
  const start = { x: a.x, y: a.y + Math.sign(bow) * (NODE_H / 2) };
  const end = { x: b.x, y: b.y + Math.sign(bow) * (NODE_H / 2) };
  const cx = (a.x + b.x) / 2;
  const cy =
    Math.max(a.y, b.y) * (bow > 0 ? 1 : 0) + Math.min(a.y, b.y) * (bow > 0 ? 0 : 1) + bow * 1.5;
  return `M${start.x},${start.y} Q${cx},${cy} ${end.x},${end.y}`;
}

export interface DiagramProps {
  state: FeedState;
  allowed: FeedState[];
  regeneration: boolean;
  busy: boolean;
  /** a feed's id, to keep marker ids unique on a page with several cards */
  idPrefix: string;
  onPick(to: FeedState): void;
}

export function TransitionDiagram({
  state,
  allowed,
  regeneration,
  busy,
  idPrefix,
  onPick,
}: DiagramProps) {
  const width = PAD_X * 2 + 3 * COL + NODE_W;
  // room below the last row only for the arc a start from `error` draws under it
  const height = PAD_Y + 2 * ROW + NODE_H + 24;
  const grey = `${idPrefix}-arrow`;
  const live = `${idPrefix}-arrow-live`;
  return (
    // the box a narrow screen scrolls sideways: there the diagram keeps its drawn size (narrow.css)
    <div className="diagram-scroll">
      <svg
        className="diagram"
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
        role="group"
        aria-label={`State diagram; the feed is ${state}`}
        data-testid="feed-diagram"
      >
        <defs>
          {[
            [grey, 'var(--border-strong)'],
            [live, 'var(--accent)'],
          ].map(([id, fill]) => (
            <marker
              key={id}
              id={id}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M0,0 L10,5 L0,10 z" fill={fill} />
            </marker>
          ))}
        </defs>
        {STEPS.filter(([f, t]) => !(f === state && allowed.includes(t))).map(([f, t]) => (
          <path
            key={`${f}-${t}`}
            d={edgePath(f, t, f === 'paused' || (f === 'running' && t === 'paused') ? 6 : 0)}
            className={`edge ${!regeneration && f.startsWith('regen') ? 'dim' : ''}`}
            markerEnd={`url(#${grey})`}
          />
        ))}
        {allowed.map((t) => (
          <path
            key={`live-${t}`}
            d={edgePath(
              state,
              t,
              state === 'paused' || (state === 'running' && t === 'paused') ? 6 : 0,
            )}
            className="edge live"
            markerEnd={`url(#${live})`}
          />
        ))}
        {(Object.keys(POSITION) as FeedState[]).map((s) => {
          const c = centre(s);
          const isCurrent = s === state;
          const isAllowed = allowed.includes(s);
          const label = isCurrent
            ? `${stateWithMeaning(s)} (current state)`
            : isAllowed
              ? `Move to ${stateWithMeaning(s)}`
              : `Try moving to ${s} (not allowed from ${state})`;
          return (
            <g
              key={s}
              role="button"
              tabIndex={isCurrent || busy ? -1 : 0}
              aria-label={label}
              aria-disabled={isCurrent || busy}
              className={`node ${isCurrent ? 'current' : ''} ${isAllowed ? 'allowed' : ''} ${!regeneration && s.startsWith('regen') ? 'dim' : ''}`}
              data-testid={`diagram-node-${s}`}
              onClick={() => !isCurrent && !busy && onPick(s)}
              onKeyDown={(e) => {
                if ((e.key === 'Enter' || e.key === ' ') && !isCurrent && !busy) {
                  e.preventDefault();
                  onPick(s);
                }
              }}
            >
              <title>{label}</title>
              <rect
                x={c.x - NODE_W / 2}
                y={c.y - NODE_H / 2}
                width={NODE_W}
                height={NODE_H}
                rx={NODE_H / 2}
              />
              <text x={c.x} y={c.y} dominantBaseline="central" textAnchor="middle">
                {s}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
