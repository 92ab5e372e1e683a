// Where the page's responses came from: issued by the sandbox's companion search or recommend API, or
// forwarded from the real service (`search.upstream`); for a widget, what it was served. Those are the
// responses the provenance rules check beacons against.
import { useEffect, useState } from 'react';
import { admin } from '../../api/client';
import { plural, shortId } from '../../format';
import { listingName } from '../../../../shared/kinds';

/** `GET /_sandbox/search/responses/{responseId}` (the fields shown here). */
interface IssuedResponse {
  responseId: string;
  /** absent in older records: search */
  kind?: string;
  /** a widget's profile tag (recommendations, bundles) */
  tag?: string;
  query: string;
  /** the request's background filters (`bgfilter.category=Jackets`): what a category listing is of */
  bgfilters?: string[];
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

/** An issued response, and whether an event of the page names it (else only the page load asked for it). */
type Source = IssuedResponse & { named: boolean };

/** Responses looked up at most (a page with more is an infinite-scroll marathon; the first ones tell). */
const MAX_LOOKUPS = 20;

/**
 * The responses the page's events name, then those the page load asked for (its search requests carried
 * its pageLoadId) that no event of it names: a search the page never rendered shows here.
 */
export function ResponseSources({
  responseIds,
  siteId,
  pageLoadId,
}: {
  responseIds: string[];
  siteId: string;
  pageLoadId: string;
}) {
  const key = [siteId, pageLoadId, ...responseIds.slice(0, MAX_LOOKUPS)].join('\n');
  const [found, setFound] = useState<{ key: string; list: Source[] } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const [site = '', load = '', ...ids] = key.split('\n');
    // asked by query, not by path: a responseId the sandbox never issued is an empty list, not a 404
    // the browser would print in the console for every page of a storefront with its own search
    const named = Promise.all(
      ids.map(async (id) => {
        const { responses } = await admin('searchResponses', { query: { responseId: id } });
        return (responses[0] as IssuedResponse | undefined) ?? null;
      }),
    );
    const asked = admin('searchResponses', {
      query: { siteId: site, pageLoadId: load, limit: MAX_LOOKUPS },
    });
    void Promise.all([named, asked])
      .then(([list, { responses }]) => {
        if (cancelled) return;
        const shown: Source[] = list.filter((r) => r !== null).map((r) => ({ ...r, named: true }));
        const seen = new Set(ids);
        for (const r of (responses as IssuedResponse[]).slice().reverse())
          if (!seen.has(r.responseId)) shown.push({ ...r, named: false });
        setFound({ key, list: shown });
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
            data-named={r.named ? 'true' : 'false'}
          >
            <code title={r.responseId}>{shortId(r.responseId, 13)}</code>{' '}
            {r.tag !== undefined ? (
              <Widget r={r} />
            ) : (
              <>
                {listingName(r)}
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
            {!r.named && (
              <>
                {' '}
                <span
                  className="badge warn"
                  title="this page load’s search asked for it (its request carried the pageLoadId), and no event of the page names it"
                >
                  asked by this page, never named
                </span>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
