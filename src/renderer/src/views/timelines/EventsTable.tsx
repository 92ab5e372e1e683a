// A page's events as a table, one row an event in arrival order: the selected row marked, the events of
// a selected finding lit up, a click opens the event in the inspector. The columns are the caller's.
import type { ReactNode } from 'react';

export interface EventColumn<E> {
  head: string;
  className?: string;
  /** the cell's tooltip: the whole value where the cell shows part of it */
  title?(e: E): string;
  cell(e: E): ReactNode;
}

export function EventsTable<E extends { id: string; arrival: number }>(props: {
  events: readonly E[];
  columns: readonly EventColumn<E>[];
  testId: string;
  rowTestId: string;
  highlighted: ReadonlySet<string> | null;
  selectedEventId: string | null;
  onSelect(id: string): void;
}) {
  const { events, columns, highlighted, selectedEventId, onSelect } = props;
  return (
    <div className="table-wrap">
      <table className="table events-table" data-testid={props.testId}>
        <thead>
          <tr>
            <th scope="col">#</th>
            {columns.map((c) => (
              <th key={c.head} scope="col">
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr
              key={e.id}
              className="clickable"
              data-selected={selectedEventId === e.id}
              data-highlight={highlighted?.has(e.id) ?? false}
              data-testid={props.rowTestId}
              data-event-id={e.id}
              onClick={() => onSelect(e.id)}
            >
              <td className="mono muted">{e.arrival}</td>
              {columns.map((c) => (
                <td key={c.head} className={c.className} title={c.title?.(e)}>
                  {c.cell(e)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
