// A request body pretty-printed line by line, with each validation error shown under the value it
// concerns (or under the nearest parent that exists, for a missing key).
import type { ReactNode } from 'react';
import type { ValidationIssue } from '../../api/types';
import { placeIssues } from './json-paths';

interface Line {
  path: string;
  depth: number;
  content: ReactNode;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="j-str">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="j-num">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="j-bool">{String(value)}</span>;
  return <span className="j-null">null</span>;
}

function flatten(
  value: unknown,
  path: string,
  depth: number,
  label: ReactNode,
  comma: boolean,
  out: Line[],
): void {
  const tail = comma ? ',' : '';
  if (Array.isArray(value) || (value && typeof value === 'object')) {
    const isArray = Array.isArray(value);
    const entries: Array<[string | number, unknown]> = isArray
      ? value.map((v, i) => [i, v] as [number, unknown])
      : Object.entries(value as object);
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      out.push({
        path,
        depth,
        content: (
          <>
            {label}
            {`${open}${close}${tail}`}
          </>
        ),
      });
      return;
    }
    out.push({
      path,
      depth,
      content: (
        <>
          {label}
          {open}
        </>
      ),
    });
    entries.forEach(([k, v], i) => {
      const keyLabel =
        typeof k === 'number' ? null : <span className="j-key">{JSON.stringify(k)}: </span>;
      flatten(v, childPath(path, k), depth + 1, keyLabel, i < entries.length - 1, out);
    });
    out.push({ path: `${path}#close`, depth, content: `${close}${tail}` });
    return;
  }
  out.push({
    path,
    depth,
    content: (
      <>
        {label}
        <Scalar value={value} />
        {tail}
      </>
    ),
  });
}

export function JsonView({ body, errors }: { body: unknown; errors: ValidationIssue[] }) {
  if (body === null || body === undefined) {
    return (
      <div className="json-view">
        <p className="muted">No body was sent.</p>
        {errors.map((e, i) => (
          <p key={i} className="json-error" data-testid="json-error" data-path={e.path}>
            {e.message}
          </p>
        ))}
      </div>
    );
  }
  if (typeof body === 'string') {
    return (
      <div className="json-view">
        <p className="small muted">Not JSON; the body as received:</p>
        <pre className="raw-body">{body}</pre>
        {errors.map((e, i) => (
          <p key={i} className="json-error" data-testid="json-error" data-path={e.path}>
            {e.message}
          </p>
        ))}
      </div>
    );
  }
  const lines: Line[] = [];
  flatten(body, '', 0, null, false, lines);
  const placed = placeIssues(new Set(lines.map((l) => l.path)), errors);
  return (
    <pre className="json-view" tabIndex={0} aria-label="Request body" data-testid="json-view">
      {lines.map((line, i) => {
        const issues = placed.get(line.path);
        return (
          <div key={i}>
            <div
              className={`j-line ${issues ? 'has-error' : ''}`}
              style={{ paddingLeft: `${line.depth * 2}ch` }}
              data-path={line.path}
            >
              {line.content}
            </div>
            {issues?.map(({ issue, missing }, k) => (
              <div
                key={k}
                className="json-error"
                style={{ paddingLeft: `${(line.depth + 1) * 2}ch` }}
                data-testid="json-error"
                data-path={issue.path}
              >
                ↳ {issue.message}
                {missing && issue.path && !issue.message.includes(issue.path) && (
                  <span className="muted"> (at {issue.path})</span>
                )}
              </div>
            ))}
          </div>
        );
      })}
    </pre>
  );
}
