// Where the page's responses came from: issued by the sandbox's companion search or recommend API, or
// forwarded from the real service (`search.upstream`); for a widget, what it was served. Those are the
// responses the provenance rules check beacons against.
import { useEffect, useState } from 'react';
import { admin } from '../../api/client';
import { plural, shortId } from '../../format';

/** `GET /_sandbox/search/responses/{responseId}` (the fields shown here). */
interface IssuedResponse {
  responseId: string;
  /** absent in older records: search */
  kind?: string;
  /** a widget's profile tag (recommendations, bundles) */
  tag?: string;
  query: string;
  page: number;
  results: Array<{ uid: string }>;
  redirect: string | null;
  upstream?: string;
}

/** How many served products a widget's line names (the rest are counted). */
const SHOWN_PRODUCTS = 12;

/** `recommendations widget "similar" · 4 products: P202, P201, …` — what a widget was served. */
function Widget({ r }: { r: IssuedResponse }) {
  const uids = r.results.map((x) => x.uid);
  const rest = uids.length - SHOWN_PRODUCTS;
  return (
    <>
      {r.kind} widget <strong>{JSON.stringify(r.tag)}</strong> · {plural(uids.length, 'product')}
      {uids.length > 0 && ': '}
      {uids.length > 0 && (
        <span data-testid="served-products">
          {uids.slice(0, SHOWN_PRODUCTS).join(', ')}
          {rest > 0 && ` and ${rest} more`}
        </span>
      )}
    </>
  );
}

/** Responses looked up at most (a page with more is an infinite-scroll marathon; the first ones tell). */
const MAX_LOOKUPS = 20;

export function ResponseSources({ responseIds }: { responseIds: string[] }) {
  const key = responseIds.slice(0, MAX_LOOKUPS).join('\n');
  const [found, setFound] = useState<{ key: string; list: IssuedResponse[] } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const ids = key ? key.split('\n') : [];
    // asked by query, not by path: a responseId the sandbox never issued is an empty list, not a 404
    // the browser would print in the console for every page of a storefront with its own search
    void Promise.all(
      ids.map(async (id) => {
        const { responses } = await admin('searchResponses', { query: { responseId: id } });
        return (responses[0] as IssuedResponse | undefined) ?? null;
      }),
    )
      .then((list) => {
        if (!cancelled) setFound({ key, list: list.filter((r) => r !== null) });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [key]);
  const list = found?.key === key ? found.list : [];
  if (list.length === 0) return null;
  return (
    <section className="section" aria-labelledby="sources-title">
      <h3 id="sources-title" className="section-title">
        Responses <span className="muted">(what the provenance rules check against)</span>
      </h3>
      <ul className="response-sources small" data-testid="response-sources">
        {list.map((r) => (
          <li
            key={r.responseId}
            data-testid="response-source"
            data-upstream={r.upstream ?? ''}
            data-kind={r.kind ?? 'search'}
          >
            <code title={r.responseId}>{shortId(r.responseId, 13)}</code>{' '}
            {r.tag !== undefined ? (
              <Widget r={r} />
            ) : (
              <>
                {r.kind ?? 'search'} {JSON.stringify(r.query)}
                {r.page > 1 && ` (page ${r.page})`} · {plural(r.results.length, 'result')}
                {r.redirect && ` · redirect ${r.redirect}`}
              </>
            )}{' '}
            ·{' '}
            {r.upstream ? (
              <span className="badge info" title={r.upstream}>
                from upstream {r.upstream}
              </span>
            ) : (
              <span className="badge pass">issued by the sandbox</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
