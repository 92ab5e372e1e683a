// Readiness: what is left to integrate for one site (GET /_sandbox/readiness). Each behaviour of the
// provider's client, by area: ok (with a page that shows it; unverified when no rule could check it, with
// what would), findings (the worst, linked to its page), unseen (the client call or script tag that sends
// it) or not applicable (why). Refreshed as pages change.
import { useMemo } from 'react';
import { adminPath } from '../../../shared/admin-api';
import {
  LACK_WHAT,
  wrongTagsLine,
  type ReadinessDto,
  type ReadinessRowDto,
  type ReadinessStatus,
} from '../../../shared/readiness';
import { Empty, ErrorBox, Loading, SitePicker, ViewHeader } from '../components/common';
import { idEnd, plural } from '../format';
import { navigate, routeHref } from '../router';
import { pageKey } from '../state/pages';
import { useSites } from '../state/sites';
import { useSandbox } from '../state/store';
import { useLiveJson } from '../state/useLiveList';
import './readiness/readiness.css';

const BADGE: Record<ReadinessStatus, { tone: string; label: string }> = {
  ok: { tone: 'pass', label: 'ok' },
  findings: { tone: 'fail', label: 'findings' },
  unseen: { tone: 'warn', label: 'unseen' },
  'not-applicable': { tone: '', label: 'n/a' },
};

function PageLink({
  siteId,
  pageLoadId,
  label,
}: {
  siteId: string;
  pageLoadId: string;
  label: string;
}) {
  const href = routeHref({
    view: 'timelines',
    pageKey: pageKey({ siteId, pageLoadId }),
    eventId: null,
  });
  return (
    <a
      href={href}
      className="mono"
      data-testid="readiness-page-link"
      title={pageLoadId || undefined}
      // the label may be the id's end only: a screen reader hears the whole id
      aria-label={pageLoadId || undefined}
    >
      {label}
    </a>
  );
}

/** The model's text with its `code` spans shown as code. */
function Prose({ text }: { text: string }) {
  return (
    <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>
  );
}

/** An ok no rule could check: what its rules lacked, which rules, and how to give it. */
function Unverified({ row }: { row: ReadinessRowDto }) {
  return (
    <div className="readiness-unverified small" data-testid="readiness-unverified">
      <span className="muted">Not verified: no rule could check it on this traffic.</span>
      <ul>
        {row.unverified!.map((u) => (
          <li key={u.lacks} data-lacks={u.lacks}>
            {u.rules.map((rule, i) => (
              <span key={rule}>
                {i > 0 && ', '}
                <code>{rule}</code>
              </span>
            ))}{' '}
            {u.lacks === 'off'
              ? u.rules.length === 1
                ? 'is off'
                : 'are off'
              : `${u.rules.length === 1 ? 'needs' : 'need'} ${LACK_WHAT[u.lacks]}`}
            : <Prose text={u.how} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A row's worst finding: its severity, rule and page (on the page without a pageLoadId, which request),
 * what it says happened and its fix.
 */
function FindingDetail({ row, siteId }: { row: ReadinessRowDto; siteId: string }) {
  const worst = row.worst!;
  return (
    <>
      <span className="small">
        <span className={`badge ${worst.severity === 'error' ? 'fail' : 'warn'}`}>
          {worst.severity}
        </span>{' '}
        <code>{worst.rule}</code> on page{' '}
        <PageLink
          siteId={siteId}
          pageLoadId={worst.pageLoadId}
          label={worst.pageLoadId ? idEnd(worst.pageLoadId) : '(no pageLoadId)'}
        />
        {worst.request !== undefined && (
          <span data-testid="readiness-request">: {worst.request}</span>
        )}
      </span>
      <div className="small" data-testid="readiness-message">
        {worst.message}
      </div>
      {worst.fix && (
        <div className="small" data-testid="readiness-fix">
          <span className="muted">Fix: </span>
          {worst.fix}
        </div>
      )}
    </>
  );
}

/** A widget's events sent with another widget's tag: which tags, and the fix. */
function WrongTags({ row }: { row: ReadinessRowDto }) {
  if (!row.wrongTags) return null;
  const line = wrongTagsLine(row);
  return (
    <div className="small" data-testid="readiness-wrong-tags">
      {line.charAt(0).toUpperCase() + line.slice(1)}.
    </div>
  );
}

function Detail({ row, siteId }: { row: ReadinessRowDto; siteId: string }) {
  if (row.status === 'ok' && row.example)
    return (
      <>
        <span className="small">
          seen on page{' '}
          <PageLink
            siteId={siteId}
            pageLoadId={row.example.pageLoadId}
            label={idEnd(row.example.pageLoadId)}
          />
        </span>
        <WrongTags row={row} />
        {row.unverified && <Unverified row={row} />}
      </>
    );
  if (row.status === 'findings' && row.worst)
    return (
      <>
        <FindingDetail row={row} siteId={siteId} />
        <WrongTags row={row} />
      </>
    );
  if (row.status === 'unseen')
    return (
      <span className="small" data-testid="readiness-next">
        <span className="muted">Send it with </span>
        <Prose text={row.next ?? ''} />
      </span>
    );
  return (
    <span className="small muted" data-testid="readiness-why">
      <Prose text={row.why ?? ''} />
    </span>
  );
}

function AreaTable({
  area,
  rows,
  siteId,
  expected,
}: {
  area: string;
  rows: ReadinessRowDto[];
  siteId: string;
  expected: (what: string) => boolean;
}) {
  const unverified = rows.filter((r) => r.unverified).length;
  return (
    <section className="card readiness-area" data-testid="readiness-area" data-area={area}>
      <header className="card-head">
        <h2>
          <span className="readiness-area-name">{area}</span>
          {expected(area) && (
            <span className="badge info" title="in accounts[].readiness.expect">
              expected
            </span>
          )}
        </h2>
        <span className="small muted">
          {rows.filter((r) => r.status === 'ok').length}/{rows.length} ok
          {unverified > 0 && `, ${unverified} unverified`}
        </span>
      </header>
      <div className="table-wrap">
        <table className="table small readiness-table">
          <thead>
            <tr>
              <th scope="col">behaviour</th>
              <th scope="col">status</th>
              <th scope="col">what the traffic shows</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={`${r.id}\u0000${r.tag ?? ''}`}
                data-testid="readiness-row"
                data-id={r.id}
                data-status={r.status}
                {...(r.tag !== undefined && { 'data-tag': r.tag })}
                {...(r.unverified && { 'data-unverified': '' })}
              >
                <td>
                  <div>{r.title}</div>
                  <div className="muted mono">
                    {r.id}
                    {r.tag !== undefined && <> · tag {r.tag}</>}
                    {expected(r.id) && (
                      <span className="badge info" title="in accounts[].readiness.expect">
                        expected
                      </span>
                    )}
                  </div>
                </td>
                <td>
                  <span className={`badge ${BADGE[r.status].tone}`} data-testid="readiness-status">
                    {BADGE[r.status].label}
                  </span>
                  {r.unverified && (
                    <span
                      className="badge warn readiness-unverified-badge"
                      title="seen, but no rule could check it on this traffic"
                    >
                      unverified
                    </span>
                  )}
                </td>
                <td>
                  <Detail row={r} siteId={siteId} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * The sites other than `siteId` that pages arrived for, with how many: a site whose readiness shows nothing
 * seen while its traffic went to another siteId (a snippet's demo42 beside the user's own account).
 */
function useOtherTraffic(siteId: string | null): Array<[string, number]> {
  const summaries = useSandbox((s) => s.pages.summaries);
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const p of summaries.values())
      if (p.siteId !== siteId && p.siteId !== '')
        counts.set(p.siteId, (counts.get(p.siteId) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1]);
  }, [summaries, siteId]);
}

export function ReadinessView({ siteId: asked }: { siteId: string | null }) {
  const sites = useSites();
  const siteId = asked ?? sites[0] ?? null;
  const otherTraffic = useOtherTraffic(siteId);
  const [load, retry] = useLiveJson<ReadinessDto>(
    siteId === null ? null : adminPath('readiness', {}, { siteId }),
  );
  const value = load.phase === 'ready' && load.value.siteId === siteId ? load.value : null;
  const areas = useMemo(() => {
    const by = new Map<string, ReadinessRowDto[]>();
    for (const r of value?.behaviours ?? []) by.set(r.area, [...(by.get(r.area) ?? []), r]);
    return [...by];
  }, [value]);
  const expect = new Set(value?.expect ?? []);
  const expected = (what: string) => expect.has(what);
  return (
    <div className="page-scroll" data-testid="readiness-view">
      <div className="page-wide">
        <ViewHeader
          title="Readiness"
          actions={
            sites.length > 0 && (
              <SitePicker
                sites={[...new Set([...(siteId ? [siteId] : []), ...sites])]}
                value={siteId}
                onChange={(site) => navigate({ view: 'readiness', siteId: site }, true)}
                testId="readiness-site"
              />
            )
          }
        >
          What is left to integrate: each behaviour of the provider&apos;s storefront client, as
          this site&apos;s traffic shows it. Click through your storefront and watch the rows turn
          ok. A row keeps the findings of the pages already sent: after a fix, start over with{' '}
          <a href="#/actions">Actions › Reset this site&apos;s events</a> (or{' '}
          <code>POST /_sandbox/reset</code> with <code>{'{"siteId": "…"}'}</code>) and send the
          journey again.
        </ViewHeader>
        {siteId === null && (
          <Empty title="No site yet" testId="readiness-empty">
            <p>
              Configure an account or send a beacon: <a href="#/connect">Connect</a> shows how.
            </p>
          </Empty>
        )}
        {siteId !== null && load.phase === 'loading' && <Loading what="readiness" />}
        {load.phase === 'error' && (
          <ErrorBox title="Could not load readiness" message={load.message} onRetry={retry} />
        )}
        {value && (
          <>
            <p className="readiness-summary" data-testid="readiness-summary">
              <span className="badge pass">{value.summary.ok} ok</span>
              {(value.summary.unverified ?? 0) > 0 && (
                <span
                  className="badge warn"
                  data-testid="readiness-unverified-count"
                  title="ok rows no rule could check on this traffic"
                >
                  {value.summary.unverified} of them unverified
                </span>
              )}
              <span className="badge fail">{value.summary.findings} with findings</span>
              <span className="badge warn">{value.summary.unseen} unseen</span>
              <span className="badge">{value.summary.notApplicable} not applicable</span>
              {value.expect.length > 0 ? (
                <span className="small muted" data-testid="readiness-expect">
                  expected (accounts[].readiness.expect): {value.expect.join(', ')}
                </span>
              ) : (
                <span className="small muted" data-testid="readiness-expect">
                  nothing declared in accounts[].readiness.expect
                </span>
              )}
            </p>
            {value.summary.ok + value.summary.findings === 0 && otherTraffic.length > 0 && (
              <p className="notice warn small" data-testid="readiness-other-site">
                No traffic for {value.siteId} yet, but pages arrived for{' '}
                {otherTraffic
                  .slice(0, 3)
                  .map(([site, n]) => `${site} (${plural(n, 'page')})`)
                  .join(', ')}
                : the storefront (or the snippet you ran) sends another siteId. Pick that site
                above, or send with siteId {value.siteId}.
              </p>
            )}
            {value.gaps !== undefined && <ReadyVerdict gaps={value.gaps} expect={value.expect} />}
            {areas.map(([area, rows]) => (
              <AreaTable
                key={area}
                area={area}
                rows={rows}
                siteId={value.siteId}
                expected={expected}
              />
            ))}
          </>
        )}
      </div>
    </div>
  );
}

/**
 * The gate a site that expects something is held to (the one expectReady and check --readiness apply): ready,
 * or what keeps it from being ready, a line each.
 */
function ReadyVerdict({ gaps, expect }: { gaps: readonly string[]; expect: readonly string[] }) {
  if (gaps.length === 0)
    return (
      <p className="readiness-verdict pass" data-testid="readiness-verdict">
        <span className="badge pass">ready</span> for what it expects ({expect.join(', ')}), as{' '}
        <code>expectReady</code> and <code>check --readiness</code> judge it
      </p>
    );
  return (
    <div className="readiness-verdict fail" data-testid="readiness-verdict">
      <p>
        <span className="badge fail">not ready</span> for {plural(gaps.length, 'thing')} of what it
        expects, as <code>expectReady</code> and <code>check --readiness</code> judge it:
      </p>
      <ul>
        {gaps.map((g) => (
          <li key={g}>{g}</li>
        ))}
      </ul>
    </div>
  );
}
