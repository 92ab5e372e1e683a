// Small building blocks every view shares: copy buttons, code blocks, verdict badges, event-kind glyphs,
// a view's header, and the loading / empty / error boxes, so each state looks the same wherever it appears.
import { useEffect, useState, type ReactNode } from 'react';
import type { LoadState } from '../state/store';
import type { Verdict } from '../../../shared/verdict';

/** Clipboard write that also works where the async clipboard API is refused. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function CopyButton({
  text,
  label = 'Copy',
  testId,
  className = 'btn small',
}: {
  text: string;
  label?: string;
  testId?: string;
  className?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      className={className}
      data-testid={testId}
      onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      {/* fixed-width label so "Copied" does not shift neighbours */}
      <span
        style={{
          display: 'inline-block',
          minWidth: `${Math.max(label.length, 6)}ch`,
          textAlign: 'center',
        }}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Failed' : label}
      </span>
      <span className="visually-hidden" role="status">
        {state === 'copied' ? 'Copied to the clipboard' : ''}
      </span>
    </button>
  );
}

export function CodeBlock({
  code,
  title,
  testId,
}: {
  code: string;
  title: string;
  testId?: string;
}) {
  return (
    <figure className="code-block" data-testid={testId}>
      <figcaption>
        <span>{title}</span>
        <CopyButton text={code} label="Copy" />
      </figcaption>
      <pre tabIndex={0} aria-label={title}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return (
    <span className={`badge verdict ${verdict}`} data-testid="verdict" data-verdict={verdict}>
      {verdict}
    </span>
  );
}

export function SeverityBadge({ severity }: { severity: string }) {
  const cls =
    severity === 'error' || severity === 'fail'
      ? 'fail'
      : severity === 'warn' || severity === 'warning'
        ? 'warn'
        : 'info';
  return <span className={`badge ${cls}`}>{severity}</span>;
}

const KIND_COLOURS: Record<string, string> = {
  render: 'var(--k-render)',
  impression: 'var(--k-impression)',
  clickthrough: 'var(--k-clickthrough)',
  addtocart: 'var(--k-addtocart)',
  redirect: 'var(--k-redirect)',
};

function kindColour(kind: string): string {
  return KIND_COLOURS[kind] ?? 'var(--k-other)';
}

/** Shape per kind as well as colour, so kinds stay apart for colour-blind eyes and in print. */
export function KindShape({
  kind,
  size = 12,
  x = 0,
  y = 0,
  fill,
}: {
  kind: string;
  size?: number;
  x?: number;
  y?: number;
  fill?: string;
}) {
  const c = fill ?? kindColour(kind);
  const r = size / 2;
  switch (kind) {
    case 'render':
      return <rect x={x - r} y={y - r} width={size} height={size} rx={2} fill={c} />;
    case 'impression':
      return <circle cx={x} cy={y} r={r} fill={c} />;
    case 'clickthrough':
      return (
        <polygon
          points={`${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`}
          fill={c}
        />
      );
    case 'addtocart':
      return (
        <polygon
          points={`${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`}
          fill={c}
        />
      );
    case 'redirect':
      return <polygon points={`${x - r},${y - r} ${x + r + 1},${y} ${x - r},${y + r}`} fill={c} />;
    default:
      return <rect x={x - r} y={y - r / 2} width={size} height={r} rx={1} fill={c} />;
  }
}

export function KindLabel({ kind, rejected = false }: { kind: string; rejected?: boolean }) {
  return (
    <span className="kind">
      <svg className="kind-glyph" width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true">
        <KindShape kind={kind} size={10} />
      </svg>
      <span>{kind}</span>
      {rejected && <span className="badge fail">rejected</span>}
    </span>
  );
}

/** The kind of response (and a widget's tag) an event or lane belongs to: `category`, `recommendations · similar`. */
export function ResponseKind({
  kind,
  tag,
  short,
}: {
  kind: string;
  tag?: string | undefined;
  /** the word a tight line shows instead of the kind's (`.short-kinds`), its title naming it whole */
  short?: string;
}) {
  const words = `${kind}${tag ? ` · ${tag}` : ''}`;
  return (
    <span
      className={`response-kind rk-${kind}`}
      data-testid="response-kind"
      data-kind={kind}
      title={tag ? `${kind} widget, profile tag "${tag}"` : `${kind} response`}
    >
      {short === undefined ? (
        words
      ) : (
        <>
          <span className="kind-word">{words}</span>
          <span className="kind-short" aria-hidden="true">
            {short}
          </span>
        </>
      )}
    </span>
  );
}

/** A view's title, a sentence or two on what it shows, and its actions (links, a site picker) beside them. */
export function ViewHeader({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        <p>{children}</p>
      </div>
      {actions}
    </div>
  );
}

/** A hidden file input: hands over the file picked, then clears, so the same file can be picked again. */
export function FileInput(props: {
  accept: string;
  testId: string;
  onFile(file: File): void;
  id?: string;
  disabled?: boolean;
}) {
  return (
    <input
      id={props.id}
      type="file"
      className="visually-hidden"
      accept={props.accept}
      disabled={props.disabled}
      data-testid={props.testId}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) props.onFile(file);
      }}
    />
  );
}

/** The site a view shows, picked among the sites seen. */
export function SitePicker(props: {
  sites: readonly string[];
  value: string | null;
  onChange(siteId: string): void;
  testId: string;
}) {
  return (
    <label className="small">
      Site{' '}
      <select
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      >
        {props.sites.map((s) => (
          <option key={s}>{s}</option>
        ))}
      </select>
    </label>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="state-box" role="status" data-testid="loading">
      <div className="spinner" aria-hidden="true" />
      <span>Loading {what}…</span>
    </div>
  );
}

export function ErrorBox({
  title,
  message,
  onRetry,
}: {
  title: string;
  message: string;
  onRetry?: () => void;
}) {
  return (
    <div className="state-box error" role="alert" data-testid="error">
      <h2>{title}</h2>
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({
  title,
  children,
  testId,
}: {
  title: string;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="state-box" data-testid={testId ?? 'empty'}>
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** Render loading/error for a load state, or the children once ready. */
export function Loaded({
  state,
  what,
  onRetry,
  children,
}: {
  state: LoadState;
  what: string;
  onRetry?: () => void;
  children: ReactNode;
}) {
  if (state.phase === 'loading') return <Loading what={what} />;
  if (state.phase === 'error')
    return <ErrorBox title={`Could not load ${what}`} message={state.message} onRetry={onRetry} />;
  return <>{children}</>;
}

/** Re-render every `ms` (for ticking clocks and "5 s ago" labels). */
export function useTick(ms = 1000): number {
  const [t, setT] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setT(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return t;
}

/**
 * An id shown whole when it fits, and when it must be cut, cut at its start: ids a storefront makes often
 * share their start (`qa-sess-x0`, `qa-sess-x1`), so the end is what tells them apart. The whole id stays
 * the element's text, for a screen reader and for copying.
 */
export function IdEnd({ id }: { id: string }) {
  return (
    <span className="id-end mono">
      <bdi dir="ltr">{id}</bdi>
    </span>
  );
}
