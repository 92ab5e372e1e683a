// Connect / first run: where the sandbox listens and copy-paste snippets to point a storefront, a shell
// or a CI job at it, filled in with this sandbox's address and an account of its config (the first, or
// the one picked: `#/connect/<siteId>`).
import { useState } from 'react';
import { CodeBlock, CopyButton, KindLabel, SitePicker, ViewHeader } from '../components/common';
import { currentSandboxTime, useSandboxNow } from '../components/ClockControl';
import { navigate, routeHref } from '../router';
import { useSandbox } from '../state/store';
import { type SnippetAccount, useAccountSites, useSnippetAccount } from '../state/snippet-account';
import { useBeaconWatch, useIndexRequestWatch } from '../state/arrivals';
import { TrafficWatch } from './connect/TrafficWatch';
import {
  beaconJsSnippet,
  beaconCdnSnippet,
  newSnippetIds,
  reindexCurl,
  reportCurl,
  statusCurl,
  trackingCurls,
  uploadCurl,
  waitCurl,
} from '../../../shared/snippets';
import { grouped } from '../../../shared/text';

function UrlRow({ label, url, testId }: { label: string; url: string; testId: string }) {
  return (
    <div className="url-row">
      <span className="muted">{label}</span>
      <code data-testid={testId}>{url}</code>
      <CopyButton text={url} />
    </div>
  );
}

/** Which account the snippets are for, and where its secret key is. */
function AccountNote({
  account: { siteId, secretKey, isDemo, configured },
  configSource,
}: {
  account: SnippetAccount;
  configSource: string | undefined;
}) {
  return (
    <p className="small muted" data-testid="connect-account">
      Account <code>{siteId}</code>
      {configured === false ? (
        <>
          {' '}
          is not an account of this sandbox&apos;s config: tracking takes any siteId, but bulk
          indexing answers it 401. Add it to <code>accounts</code> in the config file to index.
        </>
      ) : isDemo ? (
        <>
          {' '}
          (demo fixtures), secret key <code>{secretKey}</code>
        </>
      ) : (
        ' — the secret key is in your sandbox config file'
      )}
      {configSource && <> · config: {configSource}</>}
    </p>
  );
}

/** The bulk indexing snippets for the account, with its own feeds; what is missing when it has none. */
function IndexingSnippets({ origin, account }: { origin: string; account: SnippetAccount }) {
  const { siteId, secretKey, configured, uploadFeedId, putFeedId } = account;
  const feedsLoaded = useSandbox((s) => s.load.feeds.phase === 'ready');
  return (
    <section className="section" aria-labelledby="indexing-title">
      <h2 id="indexing-title" className="section-title">
        Bulk indexing
      </h2>
      {feedsLoaded && configured !== false && uploadFeedId === null && (
        <p className="muted" data-testid="connect-no-feeds">
          Site <code>{siteId}</code> has no feeds: add them to its account&apos;s <code>feeds</code>{' '}
          in the config file to upload or re-index.
        </p>
      )}
      <div className="snippet-grid">
        <CodeBlock
          title="Status of every feed"
          code={statusCurl(origin, siteId, secretKey)}
          testId="snippet-status"
        />
        {uploadFeedId !== null && (
          <CodeBlock
            title={`Upload a feed file (feed ${uploadFeedId})`}
            code={uploadCurl(origin, siteId, secretKey, uploadFeedId)}
            testId="snippet-upload"
          />
        )}
        {putFeedId !== null && (
          <CodeBlock
            title={`Re-index without a file (PUT, feed ${putFeedId})`}
            code={reindexCurl(origin, siteId, secretKey, putFeedId)}
            testId="snippet-reindex"
          />
        )}
      </div>
    </section>
  );
}

export function ConnectView({ siteId: asked }: { siteId: string | null }) {
  const origin = location.origin;
  const now = useSandboxNow();
  const health = useSandbox((s) => s.health);
  const beacons = useBeaconWatch();
  const indexRequests = useIndexRequestWatch();
  const sites = useAccountSites() ?? [];
  const account = useSnippetAccount(asked);
  const { siteId } = account;
  // Ids stay fixed until asked for new ones, so copying twice gives the same session.
  const [ids, setIds] = useState(() => newSnippetIds(currentSandboxTime()));
  const curls = trackingCurls(origin, siteId, ids);

  return (
    <div className="page-scroll" data-testid="connect-view">
      <div className="page-narrow">
        <ViewHeader
          title="Connect a storefront"
          actions={
            <div className="page-head-actions">
              {(sites.length > 1 || (sites.length > 0 && !sites.includes(siteId))) && (
                <SitePicker
                  sites={[...new Set([siteId, ...sites])]}
                  value={siteId}
                  onChange={(site) => navigate({ view: 'connect', siteId: site }, true)}
                  testId="connect-site"
                />
              )}
              <a
                className="btn"
                href={routeHref({ view: 'timelines', pageKey: null, eventId: null })}
              >
                Open timelines
              </a>
              <a className="btn" href={`#/readiness/${siteId}`} data-testid="connect-readiness">
                What&apos;s left
              </a>
            </div>
          }
        >
          The sandbox answers like the real services. Point your storefront, scripts or CI at these
          addresses; what arrives shows up below as it comes in.
        </ViewHeader>

        <div className="section watch-grid">
          <TrafficWatch
            title="Tracking traffic"
            testId="watch-tracking"
            watch={beacons}
            waiting="Waiting for the first event from your storefront…"
            hint={
              <>
                Load a page of your storefront with beacon.js pointed at{' '}
                <code>{origin}/beacon/v2</code>, or run one of the curl snippets below.
              </>
            }
            earlier={(n) => (
              <>
                {grouped(n)} recorded before you opened this screen:{' '}
                <a href="#/requests">Requests</a>,{' '}
                <a href={routeHref({ view: 'timelines', pageKey: null, eventId: null })}>
                  Timelines
                </a>
                .
              </>
            )}
          />
          <TrafficWatch
            title="Bulk index requests"
            testId="watch-indexing"
            watch={indexRequests}
            waiting="Waiting for the first index request…"
            hint={
              <>
                PUT or POST <code>{origin}/api/index/feed?feedId=…</code> with basic auth{' '}
                <code>{siteId}</code> / secret key (snippets below).
              </>
            }
            earlier={(n) => (
              <>
                {grouped(n)} in the feeds' history before you opened this screen:{' '}
                <a href="#/feeds">Feeds</a>.
              </>
            )}
          />
        </div>

        <section className="section card card-body" aria-labelledby="urls-title">
          <h2 id="urls-title" className="section-title">
            Sandbox addresses
          </h2>
          <div className="url-list">
            <UrlRow label="UI" url={`${origin}/`} testId="url-ui" />
            <UrlRow label="Tracking (beacon v2)" url={`${origin}/beacon/v2`} testId="url-beacon" />
            <UrlRow label="Bulk indexing" url={`${origin}/api/index`} testId="url-indexing" />
            <UrlRow label="Admin API" url={`${origin}/_sandbox`} testId="url-admin" />
          </div>
          <AccountNote account={account} configSource={health?.configSource} />
        </section>

        <section className="section" aria-labelledby="beaconjs-title">
          <h2 id="beaconjs-title" className="section-title">
            beacon.js (the provider's tracking client)
          </h2>
          <p className="muted">
            Set <code>requesters.beacon.origin</code> so every event goes to the sandbox. Nothing
            else in the storefront changes.
          </p>
          <CodeBlock
            title="storefront.ts"
            code={beaconJsSnippet(origin, siteId)}
            testId="snippet-beaconjs"
          />
          <p className="muted">
            With the CDN script instead (<code>beacon.js</code> with a <code>siteId</code>{' '}
            attribute), add the second script on a development build: it swaps the tracker the CDN
            script created for one that sends here.
          </p>
          <CodeBlock
            title="development page head"
            code={beaconCdnSnippet(origin, siteId)}
            testId="snippet-beacon-cdn"
          />
        </section>

        <section className="section" aria-labelledby="curl-title">
          <div className="section-head">
            <h2 id="curl-title" className="section-title">
              One search page, event by event
            </h2>
            <button type="button" className="btn small" onClick={() => setIds(newSnippetIds(now))}>
              New ids and timestamp
            </button>
          </div>
          <p className="muted">
            Run them in order: render, impression, clickthrough and addtocart share a page and a
            responseId; the redirect is a second page. Timestamps are the sandbox time when the
            snippets were made.
          </p>
          <div className="snippet-grid">
            {curls.map(({ event, code }) => (
              <div key={event}>
                <KindLabel kind={event} />
                <CodeBlock title={`search/${event}`} code={code} testId={`snippet-curl-${event}`} />
              </div>
            ))}
          </div>
        </section>

        <IndexingSnippets origin={origin} account={account} />

        <section className="section" aria-labelledby="ci-title">
          <h2 id="ci-title" className="section-title">
            In tests and CI
          </h2>
          <div className="snippet-grid">
            <CodeBlock
              title="Wait until 4 events arrived (408 on timeout)"
              code={waitCurl(origin, siteId)}
              testId="snippet-wait"
            />
            <CodeBlock
              title="Timeline verdicts as JUnit"
              code={reportCurl(origin)}
              testId="snippet-report"
            />
          </div>
        </section>
      </div>
    </div>
  );
}
