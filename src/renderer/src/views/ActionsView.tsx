// Actions: reset (one site, all events, or everything), reports to download, export/import of sandbox
// data, and — only inside the desktop app — the native extras the shell offers.
import { useEffect, useState, type ReactNode } from 'react';
import { sandboxApi } from '../api/admin';
import { FileInput, ViewHeader } from '../components/common';
import { admin } from '../api/client';
import { desktopApi } from '../components/hooks';
import { useSandbox } from '../state/store';
import { ForwardingStatus } from './ForwardingStatus';
import { useSites } from '../state/sites';

type Outcome = { tone: 'ok' | 'error'; text: string } | null;

/** The report downloads: one test case per page in JUnit, for CI dashboards. */
const REPORTS = [
  { format: 'html', file: 'beacon-report.html', label: 'HTML' },
  { format: 'junit', file: 'beacon-report.xml', label: 'JUnit' },
  { format: 'json', file: 'beacon-report.json', label: 'JSON' },
] as const;

function Result({ outcome, testId }: { outcome: Outcome; testId: string }) {
  return (
    <div aria-live="polite" className="action-result">
      {outcome && (
        <p className={`notice small ${outcome.tone}`} data-testid={testId}>
          {outcome.text}
        </p>
      )}
    </div>
  );
}

/** A destructive button that asks once more in place (no modal to trap focus). */
function ConfirmButton({
  label,
  confirm,
  onConfirm,
  testId,
  disabled,
}: {
  label: string;
  confirm: string;
  onConfirm(): void;
  testId: string;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button
        type="button"
        className="btn danger"
        disabled={disabled}
        onClick={() => setAsking(true)}
        data-testid={testId}
      >
        {label}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label={confirm}>
      <span className="small">{confirm}</span>
      <button
        type="button"
        className="btn danger"
        autoFocus
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
        data-testid={`${testId}-confirm`}
      >
        Yes, reset
      </button>
      <button type="button" className="btn" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card">
      <header className="card-head">
        <h2>{title}</h2>
      </header>
      <div className="card-body">{children}</div>
    </section>
  );
}

function DesktopExtras() {
  const api = desktopApi();
  const [notify, setNotify] = useState<boolean | null>(null);
  const [version, setVersion] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  useEffect(() => {
    if (!api) return;
    void api.getNotificationsEnabled().then(setNotify, () => setNotify(null));
    void api.getAppVersion().then(setVersion, () => setVersion(null));
  }, [api]);
  if (!api) return null;
  return (
    <Card title="Desktop app">
      <div className="btn-row">
        <button
          type="button"
          className="btn"
          onClick={() =>
            void api
              .openDataDirectory()
              .then((r) =>
                setOutcome(
                  r.error
                    ? { tone: 'error', text: r.error }
                    : { tone: 'ok', text: `Opened ${r.path}` },
                ),
              )
          }
        >
          Open data folder
        </button>
        {notify !== null && (
          <label className="toggle">
            <input
              type="checkbox"
              checked={notify}
              onChange={(e) => void api.setNotificationsEnabled(e.target.checked).then(setNotify)}
            />
            Desktop notifications (failing pages, feeds ending in error)
          </label>
        )}
      </div>
      {version && <p className="small muted">Desktop app {version}</p>}
      <Result outcome={outcome} testId="desktop-result" />
    </Card>
  );
}

export function ActionsView() {
  const health = useSandbox((s) => s.health);
  const sites = useSites();
  const [site, setSite] = useState('');
  const [resetOutcome, setResetOutcome] = useState<Outcome>(null);
  const [importOutcome, setImportOutcome] = useState<Outcome>(null);
  const [replace, setReplace] = useState(false);
  const chosenSite = site || sites[0] || '';

  async function run(set: (o: Outcome) => void, action: () => Promise<unknown>, ok: string) {
    set(null);
    try {
      await action();
      set({ tone: 'ok', text: ok });
    } catch (err) {
      set({ tone: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  }

  async function importFile(file: File) {
    const text = await file.text();
    await run(
      setImportOutcome,
      async () => {
        return admin('import', { query: replace ? { replace: true } : {}, jsonText: text });
      },
      `Imported ${file.name}${replace ? ', replacing the events that were here' : ''}.`,
    );
  }

  return (
    <div className="page-scroll" data-testid="actions-view">
      <div className="page-narrow actions-grid">
        <ViewHeader title="Actions">
          Search Sandbox {health?.version ?? ''}
          {health?.dataDir
            ? ` · data in ${health.dataDir}`
            : ' · in memory (nothing is written to disk)'}
          {health?.configSource ? ` · config: ${health.configSource}` : ''}
        </ViewHeader>
        {health?.warnings && health.warnings.length > 0 && (
          <div className="notice warn" role="status">
            {health.warnings.map((w, i) => (
              <p key={i}>{w}</p>
            ))}
          </div>
        )}
        <ForwardingStatus />
        <Card title="Reset">
          <p className="muted">
            Start a test run from a clean slate. Events and timelines are forgotten, with the search
            responses the sandbox issued (they are judged with the events); “everything” also puts
            feeds and the outbox back to the config.
          </p>
          <div className="btn-row">
            <label className="toggle">
              Site
              <select
                value={chosenSite}
                onChange={(e) => setSite(e.target.value)}
                aria-label="Site to reset"
                disabled={!sites.length}
              >
                {sites.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </label>
            <ConfirmButton
              label="Reset this site's events"
              confirm={`Forget every event of ${chosenSite}?`}
              disabled={!chosenSite}
              testId="reset-site"
              onConfirm={() =>
                void run(
                  setResetOutcome,
                  () => sandboxApi.resetSite(chosenSite),
                  `Events of ${chosenSite} forgotten.`,
                )
              }
            />
          </div>
          <div className="btn-row">
            <ConfirmButton
              label="Reset all events"
              confirm="Forget every event of every site?"
              testId="reset-events"
              onConfirm={() =>
                void run(setResetOutcome, sandboxApi.resetEvents, 'All events forgotten.')
              }
            />
            <ConfirmButton
              label="Reset everything"
              confirm="Events, feeds and outbox back to the start?"
              testId="reset-all"
              onConfirm={() =>
                void run(
                  setResetOutcome,
                  sandboxApi.resetAll,
                  'Everything is back to the fixtures.',
                )
              }
            />
          </div>
          <Result outcome={resetOutcome} testId="reset-result" />
        </Card>
        <Card title="Reports">
          <p className="muted">
            The timeline verdicts of every page. JUnit has one test case per page, for CI
            dashboards.
          </p>
          <div className="btn-row">
            {REPORTS.map(({ format, file, label }) => (
              <a
                key={format}
                className="btn"
                href={sandboxApi.reportUrl(format)}
                download={file}
                data-testid={`report-${format}`}
              >
                Download {label}
              </a>
            ))}
          </div>
        </Card>
        <Card title="Export and import">
          <p className="muted">
            Save the recorded events (and feeds, outbox) to a file; load one into this or another
            sandbox, or check it offline with <code>search-sandbox check</code>.
          </p>
          <div className="btn-row">
            <a
              className="btn"
              href={sandboxApi.exportUrl()}
              download="search-sandbox-export.json"
              data-testid="export"
            >
              Export sandbox data
            </a>
            <label className="btn">
              Import a file…
              <FileInput
                accept=".json,.ndjson,application/json,application/x-ndjson"
                testId="import-input"
                onFile={(file) => void importFile(file)}
              />
            </label>
            <label className="toggle">
              <input
                type="checkbox"
                checked={replace}
                onChange={(e) => setReplace(e.target.checked)}
              />
              Replace the current events
            </label>
          </div>
          <Result outcome={importOutcome} testId="import-result" />
        </Card>
        <DesktopExtras />
      </div>
    </div>
  );
}
