// Compare: a recording (a file saved earlier: an export, NDJSON, a HAR or a baseline file) beside the
// sandbox's current traffic, page by page, as `search-sandbox diff` compares them (POST /_sandbox/diff).
// The URL names the recording compared (`#/compare?recording=good-run.ndjson`), but the recording is a file
// this window read: the sandbox stores no baselines, so a reload, or the link in another window, cannot
// compare it again. The view says so, and what to do, rather than showing an empty Compare.
import { useState } from 'react';
import { differingPages, type DiffResult } from '../../../shared/baseline';
import { ErrorBox, Empty, FileInput, Loading, ViewHeader } from '../components/common';
import { sandboxApi } from '../api/admin';
import { navigate } from '../router';
import { compareWithRecorded } from './compare/compare-api';
import { PageCompare } from './compare/PageCompare';
import './compare/compare.css';

interface Loaded {
  name: string;
  text: string;
}

interface Filter {
  siteId: string;
  sessionId: string;
}

/**
 * The comparison shown last in this window: coming back to it (Back from a page's timeline link) shows it
 * again. A reload loses it with the file's text.
 */
let kept: { loaded: Loaded; filter: Filter; result: DiffResult } | null = null;

function Summary({ result }: { result: DiffResult }) {
  return (
    <p
      className={`compare-summary ${result.same ? 'pass' : 'fail'}`}
      data-testid="compare-summary"
      role="status"
    >
      {result.same
        ? `Same tracking: all ${result.pages.length} pages match the recording.`
        : // counted as `search-sandbox diff` counts them
          `${differingPages(result)}.`}
    </p>
  );
}

/** What the two filters narrow: the sandbox's traffic, never the recording (whose ids are another run's). */
const FILTER_NOTE =
  "Narrows the sandbox's current traffic only: a recording's ids are another run's, so its sessions are all compared, and those matching none of the traffic narrowed show as only in BASE.";

export function CompareView({
  recording,
  siteId,
  sessionId,
}: {
  /** the name of the recording the URL says was compared */
  recording: string | null;
  siteId: string;
  sessionId: string;
}) {
  const restored = recording !== null && kept?.loaded.name === recording ? kept : null;
  const [loaded, setLoaded] = useState<Loaded | null>(restored?.loaded ?? null);
  const [filter, setFilter] = useState<Filter>(restored?.filter ?? { siteId, sessionId });
  const [result, setResult] = useState<DiffResult | null>(restored?.result ?? null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [onlyDiffering, setOnlyDiffering] = useState(true);

  const compare = async (recording: Loaded | null = loaded) => {
    if (!recording) return;
    setBusy(true);
    setError(null);
    try {
      const diff = await compareWithRecorded(recording.text, filter);
      setResult(diff);
      kept = { loaded: recording, filter, result: diff };
      // the URL says what is compared, so a copied link names the recording to load
      navigate({ view: 'compare', recording: recording.name, ...filter }, true);
    } catch (err) {
      setResult(null);
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const load = async (file: File) => {
    const next = { name: file.name, text: await file.text() };
    setLoaded(next);
    await compare(next);
  };
  const pages = result?.pages.filter((p) => !onlyDiffering || p.status !== 'same') ?? [];
  // pages of two sites may share a URL: with more than one site compared, each card names its own
  const manySites = new Set(result?.pages.map((p) => p.siteId)).size > 1;

  return (
    <div className="page-scroll" data-testid="compare-view">
      <div className="page-wide">
        <ViewHeader
          title="Compare"
          actions={
            <a className="btn" href={sandboxApi.exportUrl()} download>
              Export the current traffic
            </a>
          }
        >
          Load a recording of a good run (a file the Actions screen exported, NDJSON, a HAR or a
          baseline file) to see what the sandbox&apos;s current traffic sends differently, page by
          page. Ids, timestamps, hosts and orderIds are ignored; everything else is compared.
        </ViewHeader>
        <form
          className="compare-form"
          onSubmit={(e) => {
            e.preventDefault();
            void compare();
          }}
        >
          <label className="btn">
            {loaded ? 'Load another recording…' : 'Load a recording…'}
            <FileInput
              accept=".json,.ndjson,.jsonl,.har,application/json"
              testId="compare-input"
              onFile={(file) => void load(file)}
            />
          </label>
          <span className="mono small" data-testid="compare-file">
            {loaded?.name ?? 'no recording loaded'}
          </span>
          <span className="small muted">current traffic of</span>
          <label title={FILTER_NOTE}>
            siteId{' '}
            <input
              value={filter.siteId}
              onChange={(e) => setFilter({ ...filter, siteId: e.target.value })}
              placeholder="all"
              size={8}
            />
          </label>
          <label title={FILTER_NOTE}>
            sessionId{' '}
            <input
              value={filter.sessionId}
              onChange={(e) => setFilter({ ...filter, sessionId: e.target.value })}
              placeholder="all"
              size={14}
            />
          </label>
          <button type="submit" className="btn primary" disabled={!loaded || busy}>
            Compare again
          </button>
          <label>
            <input
              type="checkbox"
              checked={onlyDiffering}
              onChange={(e) => setOnlyDiffering(e.target.checked)}
            />{' '}
            only pages that differ
          </label>
        </form>
        {busy && <Loading what="the comparison" />}
        {error && (
          <ErrorBox
            title="Cannot compare this recording"
            message={error}
            onRetry={() => void compare()}
          />
        )}
        {!loaded && !error && recording !== null && (
          <Empty title={`The comparison with ${recording} is gone`} testId="compare-gone">
            <p>
              <span className="mono">{recording}</span> was a file loaded in a window of the UI; the
              sandbox does not keep it, so a reload or a copied link cannot compare it again. Load{' '}
              <span className="mono">{recording}</span> again to see the comparison.
            </p>
          </Empty>
        )}
        {!loaded && !error && recording === null && (
          <Empty title="No recording loaded" testId="compare-empty">
            <p>
              Record a good run, export it (or write a baseline with{' '}
              <code>expectMatchesBaseline</code>), then load it here after changing the storefront.
            </p>
          </Empty>
        )}
        {result && !busy && (
          <>
            <Summary result={result} />
            <div className="compare-pages">
              {pages.map((page, i) => (
                <PageCompare key={i} page={page} showSite={manySites} />
              ))}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
