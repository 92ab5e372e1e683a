// Where the page's search responses came from: issued by the sandbox's companion search API, or forwarded
// from the real service (`search.upstream`). Those are the responses the provenance rules check beacons against.
import { useEffect, useState } from 'react';
import { admin, ApiError } from '../../api/client';
import { plural, shortId } from '../../format';

/** `GET /_sandbox/search/responses/{responseId}` (the fields shown here). */
interface IssuedResponse {
  responseId: string;
  query: string;
  page: number;
  results: unknown[];
  redirect: string | null;
  upstream?: string;
}

/** Responses looked up at most (a page with more is an infinite-scroll marathon; the first ones tell). */
const MAX_LOOKUPS = 20;

export function ResponseSources({ responseIds }: { responseIds: string[] }) {
  const key = responseIds.slice(0, MAX_LOOKUPS).join('\n');
  const [found, setFound] = useState<{ key: string; list: IssuedResponse[] } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const ids = key ? key.split('\n') : [];
    void Promise.all(
      ids.map((id) =>
        (admin('searchResponse', { params: { responseId: id } }) as Promise<IssuedResponse>).catch(
          (err: unknown) => {
            // not issued by (or forwarded through) the sandbox: nothing to show for it
            if (err instanceof ApiError && err.status === 404) return null;
            throw err;
          },
        ),
      ),
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
        Search responses <span className="muted">(what the provenance rules check against)</span>
      </h3>
      <ul className="response-sources small" data-testid="response-sources">
        {list.map((r) => (
          <li key={r.responseId} data-testid="response-source" data-upstream={r.upstream ?? ''}>
            <code title={r.responseId}>{shortId(r.responseId, 13)}</code> search{' '}
            {JSON.stringify(r.query)}
            {r.page > 1 && ` (page ${r.page})`} · {plural(r.results.length, 'result')}
            {r.redirect && ` · redirect ${r.redirect}`} ·{' '}
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
